import type { RestingOrder } from './order-book';
import { equityChange, equityOf, healthChange, healthOf } from './perp-margin';
import {
  BPS,
  feeOf,
  notionalOf,
  PERP_MAKER_FEE_BPS,
  PERP_PRICE_BAND_BPS,
  PERP_TAKER_FEE_BPS,
  type PerpSide,
} from './perp-math';
import { fillRestingOrder, unrestOrder } from './perp-open-orders';
import { applyFill } from './perp-settlement';
import {
  abs,
  sign,
  type MarketState,
  type PerpAccount,
  type PerpFill,
  type PerpVenueState,
} from './perp-state';

/** An order (or a liquidation's close) taking liquidity from a book. */
export interface TakerOrder {
  readonly market: MarketState;
  readonly taker: PerpAccount;
  readonly side: PerpSide;
  /** Lots. */
  readonly size: bigint;
  /** The worst price it takes. */
  readonly limit: bigint;
  readonly orderId: number;
  readonly at: number;
  readonly liquidation: boolean;
  /** What no fill may take the taker below: its maintenance margin, or (a liquidation) zero equity. */
  readonly guard: 'none' | 'maintenance' | 'equity';
}

export interface MatchOutcome {
  /** Lots not filled. */
  remaining: bigint;
  /** Matching stopped because the taker's next fill would have broken its guard. */
  halted: boolean;
}

/**
 * Matches a taker against the opposite side of its market's book, best price first, down to its
 * limit. Fills go to `fills`; resting orders that could not be filled (self-trade prevention, a
 * reduce-only order with nothing to reduce, outside the oracle band, past what their owner's margin
 * carries) are cancelled into `cancelled`.
 */
export function matchAgainstBook(
  venue: PerpVenueState,
  order: TakerOrder,
  fills: PerpFill[],
  cancelled: number[],
): MatchOutcome {
  const { market, taker, side, limit } = order;
  const { book, spec, oracle } = market;
  const opposite: PerpSide = side === 'buy' ? 'sell' : 'buy';
  // As Drift bounds every fill by the oracle: none more than the band above or below it,
  // whichever side rests (an order the oracle has moved away from cannot be filled; it goes).
  const band = (oracle * PERP_PRICE_BAND_BPS) / BPS;
  const guard = order.guard === 'none' ? undefined : new TakerGuard(venue, order);
  let remaining = order.size;
  while (remaining > 0n) {
    const maker = book.best(opposite);
    if (!maker || (side === 'buy' ? maker.price > limit : maker.price < limit)) break;
    const makerAccount = venue.accounts.get(maker.account)!;
    const makerLots = fillableLots(market, makerAccount, maker);
    const lots = remaining < makerLots ? remaining : makerLots;
    const notional = notionalOf(lots, maker.price, spec.sizeDecimals);
    const takerFee = feeOf(notional, PERP_TAKER_FEE_BPS);
    const makerFee = feeOf(notional, PERP_MAKER_FEE_BPS);
    const takerSigned = side === 'buy' ? lots : -lots;
    // No fill may take either side below maintenance at the oracle (or, for an account already
    // there, make it worse): the maker's order goes, the taker stops.
    if (
      maker.account === taker.id ||
      makerLots === 0n ||
      maker.price > oracle + band ||
      maker.price < oracle - band ||
      breaksMaintenance(venue, market, makerAccount, -takerSigned, notional, makerFee)
    ) {
      // Self-trade prevention (the resting order goes), a reduce-only order with nothing left to
      // reduce, or an order that can no longer be filled: outside the band, or past what its
      // owner's margin carries.
      unrestOrder(venue, makerAccount, maker);
      cancelled.push(maker.id);
      continue;
    }
    if (guard && !guard.mayTake(takerSigned, notional, takerFee)) return { remaining, halted: true };
    const takerRealized = applyFill(venue, market, taker, takerSigned, notional, takerFee);
    const makerRealized = applyFill(venue, market, makerAccount, -takerSigned, notional, makerFee);
    fillRestingOrder(venue, makerAccount, maker, lots);
    if (maker.remaining > 0n && maker.reduceOnly && lots === makerLots) {
      // The reduce-only rest has nothing left to reduce.
      unrestOrder(venue, makerAccount, maker);
      cancelled.push(maker.id);
    }
    market.lastPrice = maker.price;
    market.volume += notional;
    remaining -= lots;
    fills.push({
      market: spec.symbol,
      takerOrderId: order.orderId,
      makerOrderId: maker.id,
      taker: taker.id,
      maker: makerAccount.id,
      side,
      price: maker.price,
      size: lots,
      notional,
      takerFee,
      makerFee,
      takerRealized,
      makerRealized,
      liquidation: order.liquidation,
      at: order.at,
    });
  }
  return { remaining, halted: false };
}

/** Lots a resting order can fill now: a reduce-only order no more than its owner's position there. */
function fillableLots(market: MarketState, owner: PerpAccount, maker: RestingOrder): bigint {
  if (!maker.reduceOnly) return maker.remaining;
  const held = owner.positions.get(market.spec.symbol);
  const reducible = held && sign(held.size) === (maker.side === 'buy' ? -1n : 1n) ? abs(held.size) : 0n;
  return reducible < maker.remaining ? reducible : maker.remaining;
}

/** Whether a fill lowers the account's health below zero (or lowers it further below). */
function breaksMaintenance(
  venue: PerpVenueState,
  market: MarketState,
  account: PerpAccount,
  lots: bigint,
  notional: bigint,
  fee: bigint,
): boolean {
  const change = healthChange(market, account, lots, notional, fee);
  return change < 0n && healthOf(venue.markets, account) + change < 0n;
}

/**
 * The taker's guard, fill by fill: answers whether it may take the next fill (`lots` signed, for
 * `notional`, paying `fee`) without going below what `order.guard` protects. A class rather than a
 * closure: none is made for the plain orders that have no guard.
 */
class TakerGuard {
  /** The taker's health, once a fill lowers it (kept up to date fill by fill from then on). */
  private health: bigint | undefined;

  constructor(
    private readonly venue: PerpVenueState,
    private readonly order: TakerOrder,
  ) {}

  mayTake(lots: bigint, notional: bigint, fee: bigint): boolean {
    const { market, taker, guard } = this.order;
    if (guard === 'none') return true;
    const change =
      guard === 'equity'
        ? equityChange(market, taker, lots, notional, fee)
        : healthChange(market, taker, lots, notional, fee);
    if (change < 0n && this.health === undefined)
      this.health =
        guard === 'equity' ? equityOf(this.venue.markets, taker) : healthOf(this.venue.markets, taker);
    if (this.health !== undefined) {
      if (change < 0n && this.health + change < 0n) return false;
      this.health += change;
    }
    return true;
  }
}
