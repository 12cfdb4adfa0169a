/**
 * Every transaction the server builds for a wallet to sign is remembered as a ticket: which user,
 * what it does, the exact message bytes. POST /trading/execute-signed-transaction only sends a
 * transaction whose message is one of the signer's open tickets, so a wallet cannot get the server
 * to relay altered instructions, and a crash after sending is reconciled from the ticket's signature.
 */
export type TicketKind = 'swap' | 'limit_escrow' | 'transfer';

export interface NewTicket {
  userId: string;
  kind: TicketKind;
  /** The wallet that must sign (the fee payer). */
  walletAddress: string;
  messageBytes: Uint8Array;
  lastValidBlockHeight: bigint;
  /** What to record once the transaction lands (kind-specific, JSON-serialisable). */
  payload: Record<string, unknown>;
  /** Set for swap and limit tickets: the order the ticket fills or places. */
  orderId?: string | null;
}

export interface TicketRegistry {
  register(ticket: NewTicket): Promise<{ id: string }>;
}
