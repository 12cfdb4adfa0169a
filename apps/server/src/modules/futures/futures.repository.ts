import { randomUUID } from 'node:crypto';
import { and, between, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type {
  FiredTrigger,
  FundingResult,
  LiquidationResult,
  PerpFill,
  PlaceOrderResult,
  TriggerOrder,
} from '@solterm/engine';
import { firedUpdateOf, orderRowOf, triggerRowOf } from './futures-order-rows';
import type { Db } from '../../db/database';
import type { PerpCommand } from './perp-commands';
import type { Applied } from './perp-ledger';
import {
  perpFills,
  perpFunding,
  perpOrders,
  perpSavedTrades,
  perpTrades,
  perpTransfers,
} from './futures.tables';

export type PerpOrderRow = typeof perpOrders.$inferSelect;
export type PerpTradeRow = typeof perpTrades.$inferSelect;
export type PerpTransferRow = typeof perpTransfers.$inferSelect;

/** Venue accounts (the maker) are not users: nothing of theirs is written to users' tables. */
export const isUserAccount = (account: string) => !account.startsWith('venue:');

/** What a command did, for the users it touched: their fills, order changes and funding. */
export interface RecordedEffect {
  users: Set<string>;
  fills: PerpFill[];
  /** Users liquidated, with the reason shown to them. */
  liquidated: string[];
  markets: Set<string>;
  /** The user's order an 'order' command placed, as written. */
  placed?: PerpOrderRow;
  /** Collateral moved in or out of the user's account (a deposit credited, a withdrawal debited). */
  transfer?: 'deposit' | 'withdraw';
}

type OrderCommand = Extract<PerpCommand, { k: 'order' }>;

export function createFuturesRepository(db: Db, now: () => Date) {
  async function recordFills(tx: Db, fills: readonly PerpFill[], effect: RecordedEffect) {
    if (fills.length === 0) return;
    const at = now();
    const trades: (typeof perpTrades.$inferInsert)[] = [];
    for (const fill of fills) {
      effect.markets.add(fill.market);
      const sides = [
        {
          user: fill.taker,
          orderId: fill.takerOrderId,
          side: fill.side,
          role: 'taker',
          fee: fill.takerFee,
          pnl: fill.takerRealized,
        },
        {
          user: fill.maker,
          orderId: fill.makerOrderId,
          side: fill.side === 'buy' ? 'sell' : 'buy',
          role: 'maker',
          fee: fill.makerFee,
          pnl: fill.makerRealized,
        },
      ];
      for (const side of sides) {
        if (!isUserAccount(side.user)) continue;
        effect.users.add(side.user);
        trades.push({
          id: randomUUID(),
          userId: side.user,
          orderId: BigInt(side.orderId),
          symbol: fill.market,
          side: side.side === 'buy' ? 'Long' : 'Short',
          role: side.role,
          size: fill.size.toString(),
          price: fill.price.toString(),
          fee: side.fee.toString(),
          realizedPnl: side.pnl.toString(),
          liquidation: fill.liquidation && side.role === 'taker',
          createdAt: at,
        });
        if (side.role === 'maker') {
          await tx
            .update(perpOrders)
            .set({
              filledSize: sql`${perpOrders.filledSize} + ${fill.size.toString()}`,
              filledValue: sql`${perpOrders.filledValue} + ${(fill.size * fill.price).toString()}`,
              status: sql`case when ${perpOrders.filledSize} + ${fill.size.toString()} >= ${perpOrders.size} then 'Filled' else 'PartiallyFilled' end`,
              updatedAt: at,
            })
            .where(eq(perpOrders.id, BigInt(side.orderId)));
        }
      }
    }
    if (trades.length > 0) await tx.insert(perpTrades).values(trades);
    await tx.insert(perpFills).values(
      fills.map((fill) => ({
        symbol: fill.market,
        side: fill.side === 'buy' ? 'Long' : 'Short',
        size: fill.size.toString(),
        price: fill.price.toString(),
        notional: fill.notional.toString(),
        createdAt: at,
      })),
    );
  }

  async function markCancelled(tx: Db, ids: readonly number[], effect: RecordedEffect, reason?: string) {
    if (ids.length === 0) return;
    const rows = await tx
      .update(perpOrders)
      .set({
        status: 'Cancelled',
        updatedAt: now(),
        ...(reason === undefined ? {} : { statusReason: reason }),
      })
      .where(inArray(perpOrders.id, ids.map(BigInt)))
      .returning({ userId: perpOrders.userId, symbol: perpOrders.symbol });
    for (const row of rows) {
      effect.users.add(row.userId);
      effect.markets.add(row.symbol);
    }
  }

  /** The user's order row an 'order' command placed, with what filled at once. */
  async function recordOrder(
    tx: Db,
    command: OrderCommand,
    result: PlaceOrderResult,
    effect: RecordedEffect,
  ) {
    effect.markets.add(command.market);
    if (isUserAccount(command.account)) {
      effect.users.add(command.account);
      const row = orderRowOf(command, result, now());
      await tx.insert(perpOrders).values(row);
      effect.placed = row;
    }
    await recordFills(tx, result.fills, effect);
    effect.fills.push(...result.fills);
    await markCancelled(tx, result.cancelled, effect);
  }

  /** The open orders of the market are margined at the new leverage from now on. */
  async function recordLeverage(
    tx: Db,
    { account, market, leverage }: { account: string; market: string; leverage: number },
    effect: RecordedEffect,
  ) {
    await tx
      .update(perpOrders)
      .set({ leverage, updatedAt: now() })
      .where(
        and(
          eq(perpOrders.userId, account),
          eq(perpOrders.symbol, market),
          inArray(perpOrders.status, ['Open', 'PartiallyFilled']),
        ),
      );
    if (isUserAccount(account)) effect.users.add(account);
  }

  async function recordLiquidation(tx: Db, result: LiquidationResult, effect: RecordedEffect) {
    await markCancelled(tx, result.cancelled, effect);
    await recordFills(tx, result.fills, effect);
    effect.fills.push(...result.fills);
    if (isUserAccount(result.account)) {
      effect.users.add(result.account);
      effect.liquidated.push(result.account);
    }
  }

  async function recordTriggers(
    tx: Db,
    placed: readonly TriggerOrder[],
    leverage: number,
    effect: RecordedEffect,
  ) {
    const rows = placed.filter((trigger) => isUserAccount(trigger.account));
    for (const trigger of rows) effect.users.add(trigger.account);
    if (rows.length > 0)
      await tx.insert(perpOrders).values(rows.map((t) => triggerRowOf(t, leverage, now())));
  }

  /** Each fired trigger's row, then the fills of its market order and what they cancelled. */
  async function recordFired(tx: Db, fired: readonly FiredTrigger[], effect: RecordedEffect) {
    for (const entry of fired) {
      effect.markets.add(entry.trigger.market);
      if (isUserAccount(entry.trigger.account)) effect.users.add(entry.trigger.account);
      await tx
        .update(perpOrders)
        .set(firedUpdateOf(entry, now()))
        .where(eq(perpOrders.id, BigInt(entry.trigger.id)));
      const fills = entry.result?.fills ?? [];
      await recordFills(tx, fills, effect);
      effect.fills.push(...fills);
      await markCancelled(tx, entry.result?.cancelled ?? [], effect);
    }
  }

  /** The market's rate (no user) and each user's payment, one row each. */
  async function recordFunding(tx: Db, result: FundingResult, effect: RecordedEffect) {
    const at = now();
    await tx.insert(perpFunding).values([
      {
        symbol: result.market,
        rate: result.rate.toString(),
        userId: null,
        amount: null,
        createdAt: at,
      },
      ...[...result.payments]
        .filter(([account]) => isUserAccount(account))
        .map(([account, amount]) => ({
          symbol: result.market,
          rate: result.rate.toString(),
          userId: account,
          amount: amount.toString(),
          createdAt: at,
        })),
    ]);
    for (const account of result.payments.keys()) if (isUserAccount(account)) effect.users.add(account);
  }

  return {
    /** Writes what an applied command did to the users' tables, in the command's transaction. */
    async recordEffect(tx: Db, applied: Applied): Promise<RecordedEffect> {
      const effect: RecordedEffect = { users: new Set(), fills: [], liquidated: [], markets: new Set() };
      const { command } = applied;
      switch (applied.effect.k) {
        case 'order':
          if (command.k === 'order') await recordOrder(tx, command, applied.effect.result, effect);
          break;
        case 'quote': {
          if (command.k === 'quote') effect.markets.add(command.market);
          const fills = applied.effect.results.flatMap((result) => result.fills);
          await recordFills(tx, fills, effect);
          effect.fills.push(...fills);
          await markCancelled(
            tx,
            applied.effect.results.flatMap((result) => result.cancelled),
            effect,
          );
          break;
        }
        case 'cancel':
          await markCancelled(tx, applied.effect.orderIds, effect);
          break;
        case 'trigger':
          effect.markets.add(applied.effect.trigger.market);
          await recordTriggers(tx, [applied.effect.trigger], applied.effect.leverage, effect);
          effect.placed = triggerRowOf(applied.effect.trigger, applied.effect.leverage, now());
          break;
        case 'tpsl':
          await markCancelled(tx, applied.effect.result.cancelled, effect, 'Replaced');
          await recordTriggers(tx, applied.effect.result.placed, applied.effect.leverage, effect);
          break;
        case 'fire':
          await recordFired(tx, applied.effect.result.fired, effect);
          break;
        case 'leverage':
          await recordLeverage(tx, applied.effect, effect);
          break;
        case 'liquidate':
          await recordLiquidation(tx, applied.effect.result, effect);
          break;
        case 'funding':
          await recordFunding(tx, applied.effect.result, effect);
          break;
        case 'none':
          if ((command.k === 'deposit' || command.k === 'withdraw') && isUserAccount(command.account)) {
            effect.users.add(command.account);
            effect.transfer = command.k;
          }
          break;
      }
      return effect;
    },

    async insertTransfer(
      row: {
        /** Chosen by the caller when a ticket must name the row before it is written. */
        id?: string;
        userId: string;
        kind: 'deposit' | 'withdraw';
        amount: bigint;
        walletAddress: string;
        status: string;
      },
      tx: Db = db,
    ): Promise<PerpTransferRow> {
      const [inserted] = await tx
        .insert(perpTransfers)
        .values({
          ...row,
          id: row.id ?? randomUUID(),
          amount: row.amount.toString(),
          createdAt: now(),
          updatedAt: now(),
        })
        .returning();
      return inserted!;
    },

    async setTransfer(id: string, status: string, signature?: string | null, tx: Db = db): Promise<void> {
      await tx
        .update(perpTransfers)
        .set({ status, ...(signature === undefined ? {} : { signature }), updatedAt: now() })
        .where(eq(perpTransfers.id, id));
    },

    transfer: async (id: string, tx: Db = db) =>
      (await tx.select().from(perpTransfers).where(eq(perpTransfers.id, id)))[0],

    ordersByIds: (ids: bigint[]) => db.select().from(perpOrders).where(inArray(perpOrders.id, ids)),

    pendingTransfers: (userId: string) =>
      db
        .select()
        .from(perpTransfers)
        .where(and(eq(perpTransfers.userId, userId), inArray(perpTransfers.status, ['pending', 'sending'])))
        .orderBy(desc(perpTransfers.createdAt))
        .limit(20),

    /** USDC base units debited for withdrawals the vault has not paid yet. */
    async unpaidWithdrawals(): Promise<bigint> {
      const [row] = await db
        .select({ total: sql<string>`coalesce(sum(${perpTransfers.amount}), 0)` })
        .from(perpTransfers)
        .where(
          and(eq(perpTransfers.kind, 'withdraw'), inArray(perpTransfers.status, ['pending', 'sending'])),
        );
      return BigInt(row?.total ?? '0');
    },

    orders: (userId: string, limit: number) =>
      db
        .select()
        .from(perpOrders)
        .where(eq(perpOrders.userId, userId))
        .orderBy(
          sql`case when ${perpOrders.status} in ('Open', 'PartiallyFilled') then 0 else 1 end`,
          desc(perpOrders.createdAt),
          desc(perpOrders.id),
        )
        .limit(limit),

    trades: (userId: string, limit: number) =>
      db
        .select()
        .from(perpTrades)
        .where(eq(perpTrades.userId, userId))
        .orderBy(desc(perpTrades.createdAt))
        .limit(limit),

    /** The user's fills in one market between two instants, newest first. */
    tradesInWindow: (userId: string, symbol: string, window: { from: Date; to: Date }, limit: number) =>
      db
        .select()
        .from(perpTrades)
        .where(
          and(
            eq(perpTrades.userId, userId),
            eq(perpTrades.symbol, symbol),
            between(perpTrades.createdAt, window.from, window.to),
          ),
        )
        .orderBy(desc(perpTrades.createdAt), desc(perpTrades.id))
        .limit(limit),

    async volumeSince(symbol: string, since: Date): Promise<{ notional: bigint; trades: number }> {
      const [row] = await db
        .select({
          notional: sql<string>`coalesce(sum(${perpFills.notional}), 0)`,
          trades: sql<number>`count(*)::int`,
        })
        .from(perpFills)
        .where(and(eq(perpFills.symbol, symbol), gte(perpFills.createdAt, since)));
      return { notional: BigInt(row?.notional ?? '0'), trades: row?.trades ?? 0 };
    },

    recentFills: (symbol: string, limit: number) =>
      db
        .select()
        .from(perpFills)
        .where(eq(perpFills.symbol, symbol))
        .orderBy(desc(perpFills.id))
        .limit(limit),

    fundingHistory: (symbol: string, limit: number) =>
      db
        .select()
        .from(perpFunding)
        .where(and(eq(perpFunding.symbol, symbol), isNull(perpFunding.userId)))
        .orderBy(desc(perpFunding.createdAt))
        .limit(limit),

    async lastFundingAt(): Promise<Date | null> {
      const [row] = await db
        .select({ at: sql<Date | null>`max(${perpFunding.createdAt})` })
        .from(perpFunding)
        .where(isNull(perpFunding.userId));
      return row?.at ? new Date(row.at) : null;
    },

    async saveTrade(userId: string, trade: unknown): Promise<string> {
      const id = randomUUID();
      await db.insert(perpSavedTrades).values({ id, userId, trade, createdAt: now() });
      return id;
    },
  };
}

export type FuturesRepository = ReturnType<typeof createFuturesRepository>;
