import { PENDING_TRANSACTION_MESSAGE, type TPendingTransaction } from '@solterm/contracts';
import { z } from 'zod';
import type { IdempotentAnswer } from './idempotency';

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
