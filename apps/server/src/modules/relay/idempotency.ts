import { createHash } from 'node:crypto';
import { AppError, isAppError } from '../../lib/app-error';
import type { RelayRepository } from './relay.repository';

/** An answer to send: its HTTP status and body, fresh or replayed from the first request. */
export interface IdempotentAnswer {
  statusCode: number;
  body: unknown;
}

/**
 * The Idempotency-Key protocol: the first request with a key runs and its answer (success or a 4xx
 * refusal) is stored; the same key with the same body answers that again, with another body 409, and
 * while the first is still running 409 in progress. A 5xx (unknown outcome) releases the key.
 */
export function createIdempotency(repo: RelayRepository) {
  return async function once(
    userId: string,
    key: string,
    requestBody: unknown,
    run: () => Promise<unknown>,
  ): Promise<IdempotentAnswer> {
    const requestHash = createHash('sha256').update(JSON.stringify(requestBody)).digest('hex');
    if (!(await repo.claimIdempotencyKey(userId, key, requestHash))) {
      const previous = await repo.findIdempotencyKey(userId, key);
      if (!previous || previous.requestHash !== requestHash)
        throw new AppError('TRADING__IDEMPOTENCY_CONFLICT');
      if (previous.state !== 'done') throw new AppError('TRADING__IDEMPOTENCY_IN_PROGRESS');
      return { statusCode: Number(previous.statusCode), body: previous.response };
    }
    try {
      const body = await run();
      await repo.completeIdempotencyKey(userId, key, 200, body);
      return { statusCode: 200, body };
    } catch (error) {
      if (isAppError(error) && error.status < 500) {
        await repo.completeIdempotencyKey(userId, key, error.status, {
          success: false,
          error: error.message,
          code: error.code,
        });
      } else {
        // Unknown outcome (server or node failure): let the same key try again.
        await repo.releaseIdempotencyKey(userId, key);
      }
      throw error;
    }
  };
}
