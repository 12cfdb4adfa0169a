import { PENDING_TRANSACTION_MESSAGE, type TPendingTransaction } from '@solterm/contracts';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { IdempotentAnswer } from './idempotency';
import { isRelayError } from './relay-errors';

const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

/** The optional Idempotency-Key header of a request that moves money. */
export const ZIdempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1, { message: 'Idempotency-Key must not be empty' })
    .max(MAX_IDEMPOTENCY_KEY_LENGTH, {
      message: `Idempotency-Key is at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
    })
    .optional(),
});

/** A landed (or otherwise final) answer: 200 with the success envelope. */
export function landedAnswer<T>(data: T): IdempotentAnswer {
  return { statusCode: 200, body: { success: true, data } };
}

/** An answer whose transaction's outcome is not known yet: 202, pending, with its signature. */
export function pendingAnswer(signature: string): IdempotentAnswer {
  const data: TPendingTransaction = { status: 'pending', signature, message: PENDING_TRANSACTION_MESSAGE };
  return { statusCode: 202, body: { success: true, data } };
}

/**
 * The relay's refusals of a money-moving request in the API's words (bot withdraw, futures withdraw,
 * the faucet all answer them alike); anything else is passed through for the domain to word.
 */
export function moneyRequestErrorOf(error: unknown): unknown {
  if (!isRelayError(error)) return error;
  switch (error.code) {
    case 'RELAY__IDEMPOTENCY_CONFLICT':
      return new AppError('REQUEST__IDEMPOTENCY_CONFLICT');
    case 'RELAY__IDEMPOTENCY_IN_PROGRESS':
      return new AppError('REQUEST__IDEMPOTENCY_IN_PROGRESS');
    case 'RELAY__RPC_UNAVAILABLE':
      return new AppError('CHAIN__RPC_UNAVAILABLE');
    default:
      return new AppError('CHAIN__TRANSACTION_FAILED');
  }
}
