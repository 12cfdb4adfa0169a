import { createHash } from 'node:crypto';
import { isAppError } from '../../lib/app-error';
import { RelayError } from './relay-errors';
import type { RelayRepository } from './relay.repository';

/** An answer to send: its HTTP status and body, fresh or replayed from the first request. */
export interface IdempotentAnswer {
  statusCode: number;
  body: unknown;
}

/**
 * The Idempotency-Key protocol: the first request with a key runs and its answer (success, a
 * pending send — 202 with its signature — or a 4xx refusal) is stored; the same key with the same
 * body answers that again, never running twice. Another body is RELAY__IDEMPOTENCY_CONFLICT, a
 * retry while the first still runs RELAY__IDEMPOTENCY_IN_PROGRESS (each domain maps them to its
 * messages). A 5xx releases the key: callers whose money moves answer an ambiguous outcome as
 * pending instead, so a 5xx only ever means nothing was sent.
 */
export function createIdempotency(repo: RelayRepository) {
  async function answer(
    userId: string,
    key: string,
    requestBody: unknown,
    run: () => Promise<IdempotentAnswer>,
  ): Promise<IdempotentAnswer> {
    const requestHash = createHash('sha256').update(JSON.stringify(requestBody)).digest('hex');
    if (!(await repo.claimIdempotencyKey(userId, key, requestHash))) {
      const previous = await repo.findIdempotencyKey(userId, key);
      if (!previous || previous.requestHash !== requestHash)
        throw new RelayError('RELAY__IDEMPOTENCY_CONFLICT');
      if (previous.state !== 'done') throw new RelayError('RELAY__IDEMPOTENCY_IN_PROGRESS');
      return { statusCode: Number(previous.statusCode), body: previous.response };
    }
    try {
      const result = await run();
      await repo.completeIdempotencyKey(userId, key, result.statusCode, result.body);
      return result;
    } catch (error) {
      if (isAppError(error) && error.status < 500) {
        await repo.completeIdempotencyKey(userId, key, error.status, {
          success: false,
          error: error.message,
          code: error.code,
        });
      } else {
        // Unknown outcome (server or node failure before anything was sent): the key may try again.
        await repo.releaseIdempotencyKey(userId, key);
      }
      throw error;
    }
  }

  /** The protocol around `run`, whose result is answered 200. */
  function once(
    userId: string,
    key: string,
    requestBody: unknown,
    run: () => Promise<unknown>,
  ): Promise<IdempotentAnswer> {
    return answer(userId, key, requestBody, async () => ({ statusCode: 200, body: await run() }));
  }

  return Object.assign(once, { answer });
}
