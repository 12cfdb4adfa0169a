import { z } from 'zod';

/**
 * A transaction the server signed and sent for a request (a withdrawal, a faucet mint) whose outcome
 * is not known yet: HTTP 202 with this body. The money is not lost and will not be paid twice: the
 * server settles it from the chain; follow it with GET /api/transactions/{signature}.
 */
export const ZPendingTransactionSchema = z.object({
  status: z.literal('pending'),
  signature: z.string(),
  message: z.string(),
});
export type TPendingTransaction = z.infer<typeof ZPendingTransactionSchema>;

export const SERVER_TRANSACTION_STATUSES = ['pending', 'landed', 'failed', 'expired'] as const;
export type TServerTransactionStatus = (typeof SERVER_TRANSACTION_STATUSES)[number];

/** GET /api/transactions/{signature}: where one of your server-signed transactions stands. */
export const ZServerTransactionStatusSchema = z.object({
  signature: z.string(),
  status: z.enum(SERVER_TRANSACTION_STATUSES),
});
export type TServerTransactionState = z.infer<typeof ZServerTransactionStatusSchema>;

export const PENDING_TRANSACTION_MESSAGE =
  'The transaction was sent; its outcome is not known yet. It will not be paid twice: follow its signature.';
