import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../auth/auth.repository';
import { idempotencyKeys, spotOrders, spotTrades, transactionTickets } from './trading.tables';

export type TicketRow = typeof transactionTickets.$inferSelect;
export type NewTicketRow = typeof transactionTickets.$inferInsert;
export type OrderRow = typeof spotOrders.$inferSelect;
export type NewOrderRow = typeof spotOrders.$inferInsert;
export type TradeRow = typeof spotTrades.$inferSelect;
export type NewTradeRow = typeof spotTrades.$inferInsert;
export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export type TicketStatus = 'open' | 'sending' | 'landed' | 'failed' | 'expired';

/** The trading module's tables: tickets, orders, fills and idempotency keys. */
export function createTradingRepository(db: Db) {
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
          .set({ status: 'sending', signature, signedTransaction, sentAt: at })
          .where(and(eq(transactionTickets.id, id), eq(transactionTickets.status, 'open')))
          .returning({ id: transactionTickets.id });
        return rows.length === 1;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async setTicketStatus(id: string, status: TicketStatus, at: Date): Promise<void> {
      await db
        .update(transactionTickets)
        .set({ status, settledAt: status === 'open' || status === 'sending' ? null : at })
        .where(eq(transactionTickets.id, id));
    },

    /** Reopens a ticket whose send failed before reaching the chain (the wallet may sign again). */
    async reopenTicket(id: string): Promise<void> {
      await db
        .update(transactionTickets)
        .set({ status: 'open', signature: null, signedTransaction: null, sentAt: null })
        .where(and(eq(transactionTickets.id, id), eq(transactionTickets.status, 'sending')));
    },

    listTicketsByStatus(status: TicketStatus): Promise<TicketRow[]> {
      return db.select().from(transactionTickets).where(eq(transactionTickets.status, status));
    },

    /**
     * Records what a landed ticket did, atomically: the ticket becomes landed, and the order (and
     * its fill) are written. False when the ticket had already been settled by another caller.
     */
    async settleTicket(
      ticketId: string,
      at: Date,
      writes: { order?: NewOrderRow; trade?: NewTradeRow; ticketStatus: 'landed' | 'failed' },
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const claimed = await tx
          .update(transactionTickets)
          .set({ status: writes.ticketStatus, settledAt: at })
          .where(and(eq(transactionTickets.id, ticketId), eq(transactionTickets.status, 'sending')))
          .returning({ id: transactionTickets.id });
        if (claimed.length === 0) return false;
        if (writes.order) await tx.insert(spotOrders).values(writes.order).onConflictDoNothing();
        if (writes.trade) await tx.insert(spotTrades).values(writes.trade).onConflictDoNothing();
        return true;
      });
    },

    async findOrder(id: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(spotOrders).where(eq(spotOrders.id, id)).limit(1);
      return row;
    },

    async findOrderByTxHash(txHash: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(spotOrders).where(eq(spotOrders.txHash, txHash)).limit(1);
      return row;
    },

    listOrders(userId: string, limit: number): Promise<OrderRow[]> {
      return db
        .select()
        .from(spotOrders)
        .where(eq(spotOrders.userId, userId))
        .orderBy(desc(spotOrders.createdAt))
        .limit(limit);
    },

    /** Limit orders the keeper watches, and those it was settling when the process stopped. */
    listOrdersByStatus(statuses: string[]): Promise<OrderRow[]> {
      return db.select().from(spotOrders).where(inArray(spotOrders.status, statuses));
    },

    /** Moves an order from one status to another; false when it was no longer in `from`. */
    async transitionOrder(
      id: string,
      from: string,
      to: string,
      values: Partial<NewOrderRow> = {},
    ): Promise<OrderRow | undefined> {
      const [row] = await db
        .update(spotOrders)
        .set({ ...values, status: to, updatedAt: new Date() })
        .where(and(eq(spotOrders.id, id), eq(spotOrders.status, from)))
        .returning();
      return row;
    },

    /** Marks a settling limit order filled and writes its fill, atomically. */
    async fillOrder(
      id: string,
      values: Partial<NewOrderRow>,
      trade: NewTradeRow,
    ): Promise<OrderRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(spotOrders)
          .set({ ...values, status: 'Filled', updatedAt: new Date() })
          .where(and(eq(spotOrders.id, id), eq(spotOrders.status, 'Settling:fill')))
          .returning();
        if (!row) return undefined;
        await tx.insert(spotTrades).values(trade).onConflictDoNothing();
        return row;
      });
    },

    listTrades(userId: string, limit: number, offset: number): Promise<TradeRow[]> {
      return db
        .select()
        .from(spotTrades)
        .where(eq(spotTrades.userId, userId))
        .orderBy(desc(spotTrades.createdAt), desc(spotTrades.id))
        .limit(limit)
        .offset(offset);
    },

    async countTrades(userId: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(spotTrades)
        .where(eq(spotTrades.userId, userId));
      return row?.count ?? 0;
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

export type TradingRepository = ReturnType<typeof createTradingRepository>;
