import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERRORS, type ErrorCode, type TApiFailure } from '@solterm/contracts';
import { isAppError } from '../lib/app-error';
import { clipMessage } from '../lib/clip-message';

function failure(
  code: ErrorCode,
  error: string,
  extra?: Record<string, unknown>,
): TApiFailure & Record<string, unknown> {
  return { success: false, error, code, ...extra };
}

/** Fastify's own request errors (bad JSON, body too large, …) mapped to our codes. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'REQUEST__BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'REQUEST__UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'REQUEST__MALFORMED_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'REQUEST__MALFORMED_JSON',
};

/** The SQLSTATE of a database error, found on the error or one of its causes (Drizzle wraps the driver's). */
function sqlStateOf(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

// 22021 character_not_in_repertoire (U+0000 is the one character a JS string holds that Postgres text
// cannot store) and 22P05 untranslatable_character: bad input, not a server fault.
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/**
 * Turns every failure into the `{ success: false, error, code }` envelope. Validation errors name the
 * field (`email: Please enter a valid email address`). Expected failures are logged at info, bugs at error.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => {
        const field =
          issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || error.validationContext || 'input';
        return { field, message: issue.message ?? 'Invalid value' };
      });
      const first = issues[0] ?? { field: 'input', message: 'Invalid input' };
      request.log.info({ issues, context: error.validationContext }, 'request rejected by validation');
      return reply.code(400).send(
        failure('VALIDATION__INVALID_INPUT', `${first.field}: ${first.message}`, {
          field: first.field,
          issues,
        }),
      );
    }
    if (isAppError(error)) {
      // A strategy's error (JavaScript or Python) carries a message of the user's size.
      const message = clipMessage(error.message);
      request.log.info({ code: error.code }, message);
      return reply.code(error.status).send(failure(error.code, message));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.code(500).send(failure('INTERNAL', ERRORS.INTERNAL.message));
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) {
      request.log.info({ code: error.code }, error.message);
      return reply.code(ERRORS[mapped].status).send(failure(mapped, ERRORS[mapped].message));
    }
    const sqlState = sqlStateOf(error);
    if (sqlState && UNSTORABLE_TEXT.has(sqlState)) {
      request.log.info({ sqlState }, 'request rejected: text the database cannot store');
      return reply
        .code(400)
        .send(failure('VALIDATION__INVALID_INPUT', 'Text must not contain NUL characters'));
    }
    if (error.statusCode === 429) {
      return reply.code(429).send(failure('REQUEST__RATE_LIMITED', ERRORS.REQUEST__RATE_LIMITED.message));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ code: error.code }, error.message);
      return reply.code(error.statusCode).send(failure('VALIDATION__INVALID_INPUT', error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(failure('INTERNAL', ERRORS.INTERNAL.message));
  });
}
