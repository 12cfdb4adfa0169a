import type { TPendingTransaction, TServerTransactionState } from '@solterm/contracts';
import { api } from './api-client';
import { notify } from './toast';

/**
 * Withdrawals and the faucet answer 202 "pending" with the transaction's signature when the server
 * sent it but does not know yet whether it landed: the money is not lost and will not be paid twice.
 * The web shows it as pending with its signature and follows it until it lands or fails.
 */
export function isPendingTransaction(value: unknown): value is TPendingTransaction {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { status?: unknown }).status === 'pending' &&
    typeof (value as { signature?: unknown }).signature === 'string'
  );
}

/** One key per user action: the client's own retries of it reuse the key, so it never pays twice. */
export function newIdempotencyKey(): { headers: Record<string, string> } {
  return { headers: { 'Idempotency-Key': crypto.randomUUID() } };
}

const FOLLOW_INTERVAL_MS = 2000;
const FOLLOW_LIMIT_MS = 5 * 60_000;

function shortSignature(signature: string): string {
  return `${signature.slice(0, 8)}…${signature.slice(-8)}`;
}

/**
 * Shows a pending transaction and follows it (GET /transactions/{signature}) until the chain has a
 * verdict: `what` names it ("Withdrawal"); `onSettled` runs once it landed, failed or expired.
 */
export function followPendingTransaction(
  pending: TPendingTransaction,
  what: string,
  onSettled?: (status: TServerTransactionState['status']) => void,
): void {
  notify.info(
    `${what} pending — transaction ${shortSignature(pending.signature)}. We will tell you when it lands.`,
  );
  const started = Date.now();
  const poll = async (): Promise<void> => {
    try {
      const { status } = await api.get<TServerTransactionState>(
        `/transactions/${encodeURIComponent(pending.signature)}`,
      );
      if (status === 'landed') notify.success(`${what} landed (${shortSignature(pending.signature)})`);
      else if (status === 'failed' || status === 'expired') {
        notify.error(`${what} did not go through (${shortSignature(pending.signature)}); nothing was paid.`);
      }
      if (status !== 'pending') {
        onSettled?.(status);
        return;
      }
    } catch {
      // Not known yet (or offline): ask again.
    }
    if (Date.now() - started < FOLLOW_LIMIT_MS) setTimeout(() => void poll(), FOLLOW_INTERVAL_MS);
  };
  setTimeout(() => void poll(), FOLLOW_INTERVAL_MS);
}
