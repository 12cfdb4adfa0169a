import { and, asc, between, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { orderLifecycle, type OrderEvent, type OrderState } from '@solterm/engine';
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
  /**
   * Applies a lifecycle event to an order: the update's WHERE clause names the states the event may
   * leave (`from` narrows them to one, e.g. the settlement a ticket claimed), so an order that moved
   * on meanwhile is left alone and undefined comes back. `executor` is a surrounding transaction (a
   * server ticket's record or settlement).
   */
  async function transitionOrder(
    id: string,
    event: OrderEvent,
    options: { from?: OrderState; values?: Partial<NewOrderRow>; executor?: Db } = {},
  ): Promise<OrderRow | undefined> {
    const sources = orderLifecycle.sources(event);
    const from = options.from ?? sources[0]!;
    const to = orderLifecycle.next(from, event);
    const leaving = options.from ? [options.from] : [...sources];
    const [row] = await (options.executor ?? db)
      .update(spotOrders)
      .set({ ...options.values, status: to, updatedAt: now() })
      .where(and(eq(spotOrders.id, id), inArray(spotOrders.status, leaving)))
      .returning();
    return row;
  }

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

    transitionOrder,

    /** Marks a settling limit order filled (the `fill` event) and writes its fill, atomically. */
    async fillOrder(
      id: string,
      values: Partial<NewOrderRow>,
      trade: NewTradeRow,
      executor: Db = db,
    ): Promise<OrderRow | undefined> {
      return executor.transaction(async (tx) => {
        const row = await transitionOrder(id, 'fill', { values, executor: tx });
        if (!row) return undefined;
        await tx.insert(spotTrades).values(trade).onConflictDoNothing();
        return row;
      });
    },

    /**
     * Orders linked one-cancels-the-other with any of `ids`, in either direction (an order names the
     * one it was placed against in `oco_with`), the given orders included when linked.
     */
    ocoLinked(ids: string[], executor: Db = db): Promise<OrderRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return executor
        .select()
        .from(spotOrders)
        .where(or(inArray(spotOrders.ocoWith, ids), inArray(spotOrders.id, ids)));
    },

    /**
     * Locks an order and the orders linked to it one-cancels-the-other (in id order, so two claims of
     * linked orders queue on one another) inside `tx`, and returns them as committed now.
     */
    async lockOcoGroup(order: OrderRow, tx: Db): Promise<OrderRow[]> {
      const ids = order.ocoWith ? [order.id, order.ocoWith] : [order.id];
      return tx
        .select()
        .from(spotOrders)
        .where(or(inArray(spotOrders.id, ids), eq(spotOrders.ocoWith, order.id)))
        .orderBy(asc(spotOrders.id))
        .for('update');
    },

    /**
     * A pending trailing stop's best price and trigger, moved only while it is Pending and only in the
     * trader's favour (higher for a sell, lower for a buy), so a late pass never moves it back.
     */
    async moveTrail(
      id: string,
      side: 'Buy' | 'Sell',
      reference: string,
      trigger: string,
    ): Promise<OrderRow | undefined> {
      const better =
        side === 'Sell'
          ? sql`${spotOrders.trailReference} < ${reference}::numeric`
          : sql`${spotOrders.trailReference} > ${reference}::numeric`;
      const [row] = await db
        .update(spotOrders)
        .set({ trailReference: reference, triggerPrice: trigger, updatedAt: now() })
        .where(and(eq(spotOrders.id, id), eq(spotOrders.status, 'Pending'), better))
        .returning();
      return row;
    },

    /** Why a pending trigger order is kept (null once the reason is gone); the row when it changed. */
    async setStatusReason(id: string, reason: string | null): Promise<OrderRow | undefined> {
      const [row] = await db
        .update(spotOrders)
        .set({ statusReason: reason, updatedAt: now() })
        .where(
          and(
            eq(spotOrders.id, id),
            eq(spotOrders.status, 'Pending'),
            reason === null
              ? sql`${spotOrders.statusReason} is not null`
              : sql`${spotOrders.statusReason} is distinct from ${reason}`,
          ),
        )
        .returning();
      return row;
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

    /** The user's fills of one pair (by mints) between two instants, newest first. */
    fillsOfPair(
      userId: string,
      pair: { baseMint: string; quoteMint: string },
      window: { from: Date; to: Date },
      limit: number,
    ): Promise<TradeRow[]> {
      return db
        .select({ trade: spotTrades })
        .from(spotTrades)
        .innerJoin(spotOrders, eq(spotOrders.id, spotTrades.orderId))
        .where(
          and(
            eq(spotTrades.userId, userId),
            eq(spotOrders.baseMint, pair.baseMint),
            eq(spotOrders.quoteMint, pair.quoteMint),
            between(spotTrades.createdAt, window.from, window.to),
          ),
        )
        .orderBy(desc(spotTrades.createdAt), desc(spotTrades.id))
        .limit(limit)
        .then((rows) => rows.map((row) => row.trade));
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
