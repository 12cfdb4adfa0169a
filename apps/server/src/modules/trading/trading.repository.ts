import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { OrderState } from '@solterm/engine';
import { spotOrders, spotTrades } from './trading.tables';

export type OrderRow = typeof spotOrders.$inferSelect;
export type NewOrderRow = typeof spotOrders.$inferInsert;
export type TradeRow = typeof spotTrades.$inferSelect;
export type NewTradeRow = typeof spotTrades.$inferInsert;

/**
 * Writes the order (and its fill) a landed ticket recorded, inside the relay's settling transaction.
 * Conflicts are ignored: the order is keyed by its id, written once.
 */
export async function insertLandedOrder(tx: Db, order: NewOrderRow, trade?: NewTradeRow): Promise<void> {
  await tx.insert(spotOrders).values(order).onConflictDoNothing();
  if (trade) await tx.insert(spotTrades).values(trade).onConflictDoNothing();
}

/** The trading module's tables: orders and fills. */
export function createTradingRepository(db: Db, now: () => Date) {
  return {
    async findOrder(id: string, executor: Db = db): Promise<OrderRow | undefined> {
      const [row] = await executor.select().from(spotOrders).where(eq(spotOrders.id, id)).limit(1);
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
    listOrdersByStatus(statuses: OrderState[]): Promise<OrderRow[]> {
      return db.select().from(spotOrders).where(inArray(spotOrders.status, statuses));
    },

    /**
     * Moves an order from one status to another; undefined when it was no longer in `from`. `executor`
     * is a surrounding transaction (a server ticket's record or settlement).
     */
    async transitionOrder(
      id: string,
      from: OrderState,
      to: OrderState,
      values: Partial<NewOrderRow> = {},
      executor: Db = db,
    ): Promise<OrderRow | undefined> {
      const [row] = await executor
        .update(spotOrders)
        .set({ ...values, status: to, updatedAt: now() })
        .where(and(eq(spotOrders.id, id), eq(spotOrders.status, from)))
        .returning();
      return row;
    },

    /** Marks a settling limit order filled and writes its fill, atomically. */
    async fillOrder(
      id: string,
      values: Partial<NewOrderRow>,
      trade: NewTradeRow,
      executor: Db = db,
    ): Promise<OrderRow | undefined> {
      return executor.transaction(async (tx) => {
        const [row] = await tx
          .update(spotOrders)
          .set({ ...values, status: 'Filled', updatedAt: now() })
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
  };
}

export type TradingRepository = ReturnType<typeof createTradingRepository>;
