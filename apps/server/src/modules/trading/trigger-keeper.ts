import { isTriggerOrderType, type TSpotOrder } from '@solterm/contracts';
import {
  Dec,
  nextTrailReference,
  slippageBound,
  trailingTrigger,
  triggerCrossed,
  triggerDirection,
  triggerFill,
  type LimitFill,
  type Settlement,
  type SpotTriggerKind,
} from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { tokensOf } from './limit-settlement';
import { orderToWire, priceNumber } from './trading-wire';
import type { OrderRow, TradingRepository } from './trading.repository';
import type { TradingPair, TradingService } from './trading.service';
import type { VenueToken } from './venues/spot-venue';

export interface TriggerPassDeps {
  repo: TradingRepository;
  trading: TradingService;
  log: FastifyBaseLogger;
  onOrderChanged?: (userId: string, order: TSpotOrder) => void;
  /** The keeper's one way to settle an order on chain (claimed once; see limit-keeper.ts). */
  settle(order: OrderRow, kind: Settlement, fill?: LimitFill): Promise<OrderRow | undefined>;
  canReceive(order: OrderRow, token: VenueToken): Promise<boolean>;
}

/** Orders whose funds sit in escrow until the keeper settles them. */
export const isEscrowedOrder = (order: OrderRow): boolean =>
  order.orderType === 'Limit' || isTriggerOrderType(order.orderType);

/** Why a triggered order was kept: the maker's price for its size is outside its slippage bound. */
function slippageReason(order: OrderRow, trigger: Dec, makerPrice: Dec | null): string {
  const bound = slippageBound(order.side as 'Buy' | 'Sell', trigger, order.maxSlippageBps ?? 0);
  const worst = order.side === 'Sell' ? 'at least' : 'at most';
  const offered = makerPrice
    ? `the market fills ${priceNumber(makerPrice)}`
    : 'the market cannot fill the size';
  return (
    `Triggered at ${priceNumber(trigger)}, but ${offered}: outside the ${order.maxSlippageBps} bps slippage bound ` +
    `(${worst} ${priceNumber(bound)}). Kept open until the market is back within it.`
  );
}

/**
 * The keeper's pass over take-profit, stop-loss and trailing-stop orders, and over one-cancels-the-
 * other links. Prices are the pair's market mid (the simulator's or the feed's price, base over quote
 * in USD), the figure the maker's quotes and the limit keeper's bid/ask are derived from. A trailing
 * stop first moves its stored best price and trigger; an order whose trigger the mid has reached is
 * executed at the maker's price for its whole size when that is within its slippage bound, through
 * the same claimed settlement as a limit fill (exactly once), else kept with a status reason. An open
 * order linked to one that filled is refunded (claimed once, like a cancel).
 */
export function createTriggerPass(deps: TriggerPassDeps) {
  const { repo, trading } = deps;
  const changed = (row: OrderRow | undefined) => {
    if (row) deps.onOrderChanged?.(row.userId, orderToWire(row));
  };

  function pricer() {
    const mids = new Map<string, Promise<{ pair: TradingPair; mid: Dec } | null>>();
    return (symbol: string) => {
      let found = mids.get(symbol);
      if (!found) {
        found = trading
          .resolvePair(symbol)
          .then(async (pair) => ({ pair, mid: await trading.midPriceOf(pair) }))
          .catch(() => null);
        mids.set(symbol, found);
      }
      return found;
    };
  }

  /** A trailing stop's trigger after seeing `mid` (stored when the best price moved). */
  async function follow(order: OrderRow, mid: Dec): Promise<{ order: OrderRow; trigger: Dec }> {
    const side = order.side as 'Buy' | 'Sell';
    const reference = new Dec(order.trailReference ?? mid);
    const next = nextTrailReference(side, reference, mid);
    if (next.eq(reference)) return { order, trigger: new Dec(order.triggerPrice!) };
    const trigger = trailingTrigger(side, next, new Dec(order.trailPercent!));
    const moved = await repo.moveTrail(order.id, side, next.toFixed(), trigger.toFixed());
    changed(moved);
    if (moved) return { order: moved, trigger };
    // Another pass moved it further (or settled it) meanwhile: its stored trigger stands.
    const current = (await repo.findOrder(order.id)) ?? order;
    return { order: current, trigger: new Dec(current.triggerPrice!) };
  }

  async function fire(order: OrderRow, pair: TradingPair, trigger: Dec): Promise<boolean> {
    const side = order.side as 'Buy' | 'Sell';
    const baseAmount = BigInt(order.baseAmount);
    const makerQuoteAmount = await trading.makerQuoteAmount(pair, side, baseAmount);
    const fill =
      makerQuoteAmount === null
        ? null
        : triggerFill({
            side,
            baseAmount,
            escrowAmount: BigInt(order.escrowAmount!),
            trigger,
            maxSlippageBps: order.maxSlippageBps ?? 0,
            baseDecimals: pair.base.decimals,
            quoteDecimals: pair.quote.decimals,
            makerQuoteAmount,
          });
    if (!fill) {
      const makerPrice =
        makerQuoteAmount === null
          ? null
          : new Dec(makerQuoteAmount.toString())
              .div(new Dec(10).pow(pair.quote.decimals))
              .div(new Dec(order.quantity));
      changed(await repo.setStatusReason(order.id, slippageReason(order, trigger, makerPrice)));
      return false;
    }
    const { escrowed, settled } = tokensOf(order, pair);
    if (!(await deps.canReceive(order, settled))) {
      // As for limits: the wallet closed the account the fill pays into; refund rather than pay its rent.
      if (await deps.canReceive(order, escrowed)) await deps.settle(order, 'cancel');
      return false;
    }
    if (fill.refund > 0n && !(await deps.canReceive(order, escrowed))) return false;
    return (await deps.settle(order, 'fill', fill)) !== undefined;
  }

  /** Fires every pending trigger order the market reached; returns how many filled. */
  async function fireTriggered(): Promise<number> {
    const pending = (await repo.listOrdersByStatus(['Pending'])).filter((order) =>
      isTriggerOrderType(order.orderType),
    );
    const priceOf = pricer();
    let filled = 0;
    for (const pendingOrder of pending) {
      try {
        const priced = await priceOf(pendingOrder.symbol);
        if (!priced) continue;
        let order = pendingOrder;
        let trigger = new Dec(order.triggerPrice!);
        if (order.orderType === 'TrailingStop') ({ order, trigger } = await follow(order, priced.mid));
        const direction = triggerDirection(order.orderType as SpotTriggerKind, order.side as 'Buy' | 'Sell');
        if (!triggerCrossed(direction, trigger, priced.mid)) {
          // The market went back before the bound could be met: nothing to explain any more.
          if (order.statusReason) changed(await repo.setStatusReason(order.id, null));
          continue;
        }
        if (await fire(order, priced.pair, trigger)) filled++;
      } catch (error) {
        deps.log.error({ err: error, order: pendingOrder.id }, 'trigger order execution failed');
      }
    }
    return filled;
  }

  /** Refunds every open order whose one-cancels-the-other partner filled; returns how many. */
  async function cancelOcoPartners(): Promise<number> {
    const pending = (await repo.listOrdersByStatus(['Pending'])).filter(isEscrowedOrder);
    const linked = await repo.ocoLinked(
      pending.filter((order) => order.ocoWith).map((order) => order.ocoWith!),
    );
    const backLinked = await repo.ocoLinked(pending.map((order) => order.id));
    const byId = new Map([...linked, ...backLinked].map((row) => [row.id, row]));
    let cancelled = 0;
    for (const order of pending) {
      const partners = [...byId.values()].filter(
        (row) => row.id !== order.id && (row.id === order.ocoWith || row.ocoWith === order.id),
      );
      if (!partners.some((row) => row.status === 'Filled')) continue;
      try {
        const pair = await trading.resolvePair(order.symbol);
        // A refund into a closed token account would have the escrow pay its rent: kept (it cannot fill).
        if (!(await deps.canReceive(order, tokensOf(order, pair).escrowed))) continue;
        if (await deps.settle(order, 'cancel')) cancelled++;
      } catch (error) {
        deps.log.error({ err: error, order: order.id }, 'one-cancels-the-other refund failed');
      }
    }
    return cancelled;
  }

  return { fireTriggered, cancelOcoPartners };
}
