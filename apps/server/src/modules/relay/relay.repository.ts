import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { idempotencyKeys, transactionTickets } from './relay.tables';
import { ticketLifecycle, type TicketEvent, type TicketState } from '@solterm/engine';

export type TicketRow = typeof transactionTickets.$inferSelect;
export type NewTicketRow = typeof transactionTickets.$inferInsert;
export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/**
 * The compare-and-set condition of a lifecycle event: this ticket, in a state the event may leave
 * (the engine's ticket lifecycle decides which — never a status string written here).
 */
function leaving(id: string, event: TicketEvent) {
  return and(
    eq(transactionTickets.id, id),
    inArray(transactionTickets.status, [...ticketLifecycle.sources(event)]),
  );
}

/** The state an event enters. */
function entered(event: TicketEvent): TicketState {
  return ticketLifecycle.next(ticketLifecycle.sources(event)[0]!, event);
}

/** The relay's tables: transaction tickets and Idempotency-Key answers. */
export function createRelayRepository(db: Db) {
  return {
    async insertTicket(values: NewTicketRow): Promise<TicketRow> {
      const [row] = await db.insert(transactionTickets).values(values).returning();
      return row!;
    },

    async findTicketByMessageHash(messageHash: string): Promise<TicketRow | undefined> {
      const [row] = await db
        .select()
        .from(transactionTickets)
        .where(eq(transactionTickets.messageHash, messageHash))
        .limit(1);
      return row;
    },

    async findTicketBySignature(signature: string): Promise<TicketRow | undefined> {
      const [row] = await db
        .select()
        .from(transactionTickets)
        .where(eq(transactionTickets.signature, signature))
        .limit(1);
      return row;
    },

    async hasOpenTicket(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: transactionTickets.id })
        .from(transactionTickets)
        .where(and(eq(transactionTickets.userId, userId), eq(transactionTickets.status, 'open')))
        .limit(1);
      return row !== undefined;
    },

    /**
     * Claims an open ticket for sending and stores the signed bytes first (durable before the send,
     * so a crash afterwards is reconciled). False when another request claimed it.
     */
    async claimTicket(id: string, signature: string, signedTransaction: string, at: Date): Promise<boolean> {
      try {
        const rows = await db
          .update(transactionTickets)
          .set({ status: entered('send'), signature, signedTransaction, sentAt: at })
          .where(leaving(id, 'send'))
          .returning({ id: transactionTickets.id });
        return rows.length === 1;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** Expires an open or sending ticket (its blockhash is past); false when it had settled. */
    async expireTicket(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(transactionTickets)
        .set({ status: entered('expire'), settledAt: at })
        .where(leaving(id, 'expire'))
        .returning({ id: transactionTickets.id });
      return rows.length === 1;
    },

    listTicketsByStatus(status: TicketState): Promise<TicketRow[]> {
      return db.select().from(transactionTickets).where(eq(transactionTickets.status, status));
    },

    /**
     * Settles a sent ticket atomically: the ticket becomes landed or failed and `write` records what
     * it did, in one database transaction. False (and nothing written) when another caller settled it.
     */
    async settleTicket(
      ticketId: string,
      status: 'landed' | 'failed',
      at: Date,
      write: (tx: Db) => Promise<void>,
    ): Promise<boolean> {
      const event = status === 'landed' ? 'land' : 'fail';
      return db.transaction(async (tx) => {
        const claimed = await tx
          .update(transactionTickets)
          .set({ status: entered(event), settledAt: at })
          .where(leaving(ticketId, event))
          .returning({ id: transactionTickets.id });
        if (claimed.length === 0) return false;
        await write(tx);
        return true;
      });
    },

    async findIdempotencyKey(userId: string, key: string): Promise<IdempotencyRow | undefined> {
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
        .limit(1);
      return row;
    },

    /** Takes a key for this request; false when the key already exists. */
    async claimIdempotencyKey(userId: string, key: string, requestHash: string): Promise<boolean> {
      const rows = await db
        .insert(idempotencyKeys)
        .values({ userId, key, requestHash, state: 'in_progress' })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      return rows.length === 1;
    },

    async completeIdempotencyKey(userId: string, key: string, statusCode: number, response: unknown) {
      await db
        .update(idempotencyKeys)
        .set({ state: 'done', statusCode: String(statusCode), response })
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    },

    async releaseIdempotencyKey(userId: string, key: string): Promise<void> {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    },
  };
}

export type RelayRepository = ReturnType<typeof createRelayRepository>;
