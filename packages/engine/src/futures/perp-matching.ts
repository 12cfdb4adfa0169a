import type { BookOrder } from './order-book';
import { equityChange, equityOf, healthChange, healthOf } from './perp-margin';
import { breaksMaintenanceUnits } from './perp-margin-units';
import { feeOf, notionalOf, PERP_MAKER_FEE_BPS, PERP_TAKER_FEE_BPS, type PerpSide } from './perp-math';
import { fillRestingOrder, unrestOrder } from './perp-open-orders';
import { applyFill, applyFillUnits } from './perp-settlement';
import {
  bigOf,
  pend,
  type MarketState,
  type Account,
  type PerpFill,
  type PerpVenueState,
} from './perp-state';
import { feeUnits, MAX_UNITS, notionalUnits, unitsOf } from './perp-units';

const TAKER_FEE_BPS = Number(PERP_TAKER_FEE_BPS);
const MAKER_FEE_BPS = Number(PERP_MAKER_FEE_BPS);

/** An order (or a liquidation's close) taking liquidity from a book. */
export interface TakerOrder {
  readonly market: MarketState;
  readonly taker: Account;
  readonly side: PerpSide;
  /** Lots (a safe integer). */
  readonly size: number;
  /** The worst price it takes (a safe integer: no price in a book is larger). */
  readonly limit: number;
  readonly orderId: number;
  readonly at: number;
  readonly liquidation: boolean;
  /** What no fill may take the taker below: its maintenance margin, or (a liquidation) zero equity. */
  readonly guard: 'none' | 'maintenance' | 'equity';
}

export interface MatchOutcome {
  /** Lots not filled. */
  remaining: number;
  /** Matching stopped because the taker's next fill would have broken its guard. */
  halted: boolean;
}

/**
 * Matches a taker against the opposite side of its market's book, best price first, down to its
 * limit. Fills go to `fills`; resting orders that could not be filled (self-trade prevention, a
 * reduce-only order with nothing to reduce, outside the oracle band, past what their owner's margin
 * carries) are cancelled into `cancelled`. Amounts are exact numbers (perp-units.ts); a fill whose
 * amounts leave the safe range is made in bigint ({@link matchOneExact}).
 */
export function matchAgainstBook(
  venue: PerpVenueState,
  order: TakerOrder,
  fills: PerpFill[],
  cancelled: number[],
): MatchOutcome {
  const { market, taker, side, limit } = order;
  const { book, spec } = market;
  const buy = side === 'buy';
  const opposite: PerpSide = buy ? 'sell' : 'buy';
  // As Drift bounds every fill by the oracle: none more than the band above or below it,
  // whichever side rests (an order the oracle has moved away from cannot be filled; it goes).
  const { bandLow, bandHigh } = market;
  const guard = order.guard === 'none' ? undefined : new TakerGuard(venue, order);
  let remaining = order.size;
  // The fills' fees and notionals, added to the venue's totals once (below 2^53, else flushed).
  let fees = 0;
  let volume = 0;
  let halted = false;
  while (remaining > 0) {
    const maker = book.best(opposite);
    if (maker === undefined || (buy ? maker.px > limit : maker.px < limit)) break;
    const makerAccount = maker.owner!;
    const makerLots = fillableLots(market, makerAccount, maker);
    const lots = remaining < makerLots ? remaining : makerLots;
    const notional = notionalUnits(lots, maker.px, market.scaleUnits);
    const takerFee = feeUnits(notional, TAKER_FEE_BPS);
    if (takerFee !== takerFee) {
      const filled = matchOneExact(venue, order, guard, maker, makerLots, lots, fills, cancelled);
      if (filled < 0) {
        halted = true;
        break;
      }
      remaining -= filled;
      continue;
    }
    const makerFee = feeUnits(notional, MAKER_FEE_BPS);
    const takerSigned = buy ? lots : -lots;
    // No fill may take either side below maintenance at the oracle (or, for an account already
    // there, make it worse): the maker's order goes, the taker stops.
    if (
      makerAccount === taker ||
      makerLots === 0 ||
      maker.px > bandHigh ||
      maker.px < bandLow ||
      breaksMaintenance(venue, market, makerAccount, -takerSigned, notional, makerFee)
    ) {
      // Self-trade prevention (the resting order goes; its owner is the taker's account object), a reduce-only order with nothing left to
      // reduce, or an order that can no longer be filled: outside the band, or past what its
      // owner's margin carries.
      unrestOrder(venue, makerAccount, maker);
      cancelled.push(maker.id);
      continue;
    }
    if (guard && !guard.mayTake(BigInt(takerSigned), BigInt(notional), BigInt(takerFee))) {
      halted = true;
      break;
    }
    const takerRealized = applyFillUnits(venue, market, taker, takerSigned, notional, takerFee);
    const makerRealized = applyFillUnits(venue, market, makerAccount, -takerSigned, notional, makerFee);
    if (fees > MAX_UNITS - notional || volume > MAX_UNITS - notional) {
      venue.fees += BigInt(fees);
      market.volume += BigInt(volume);
      fees = volume = 0;
    }
    fees += takerFee + makerFee;
    volume += notional;
    fillRestingOrder(venue, market, makerAccount, maker, lots);
    if (maker.rem > 0 && maker.reduceOnly && lots === makerLots) {
      // The reduce-only rest has nothing left to reduce.
      unrestOrder(venue, makerAccount, maker);
      cancelled.push(maker.id);
    }
    market.lastPrice = maker.price;
    remaining -= lots;
    fills.push(
      new UnitsFill(
        spec.symbol,
        order.orderId,
        maker.id,
        taker.id,
        makerAccount.id,
        side,
        maker.price,
        lots,
        notional,
        takerFee,
        makerFee,
        takerRealized,
        makerRealized,
        order.liquidation,
        order.at,
      ),
    );
  }
  addTotals(venue, market, fees, volume);
  return { remaining, halted };
}

/** Adds a taker's fees and notional to the venue's and market's totals, pending while they stay exact numbers. */
function addTotals(venue: PerpVenueState, market: MarketState, fees: number, volume: number): void {
  if (fees !== 0) {
    const pending = pend(venue.feesPending, fees);
    if (pending === pending) venue.feesPending = pending;
    else venue.fees += BigInt(fees);
  }
  if (volume !== 0) {
    const pending = pend(market.volumePending, volume);
    if (pending === pending) market.volumePending = pending;
    else market.volume += BigInt(volume);
  }
}

/**
 * One fill of {@link matchAgainstBook} in bigint, as the venue made every fill before #28: for
 * amounts too large for exact numbers. Answers the lots filled, 0 when the maker's order went, −1
 * when the taker's guard halted it.
 */
function matchOneExact(
  venue: PerpVenueState,
  order: TakerOrder,
  guard: TakerGuard | undefined,
  maker: BookOrder,
  makerLots: number,
  lotCount: number,
  fills: PerpFill[],
  cancelled: number[],
): number {
  const { market, taker, side } = order;
  const makerAccount = maker.owner!;
  const lots = BigInt(lotCount);
  const notional = notionalOf(lots, maker.price, market.spec.sizeDecimals);
  const takerFee = feeOf(notional, PERP_TAKER_FEE_BPS);
  const makerFee = feeOf(notional, PERP_MAKER_FEE_BPS);
  const takerSigned = side === 'buy' ? lots : -lots;
  if (
    makerAccount === taker ||
    makerLots === 0 ||
    maker.px > market.bandHigh ||
    maker.px < market.bandLow ||
    breaksMaintenanceExact(venue, market, makerAccount, -takerSigned, notional, makerFee)
  ) {
    unrestOrder(venue, makerAccount, maker);
    cancelled.push(maker.id);
    return 0;
  }
  if (guard && !guard.mayTake(takerSigned, notional, takerFee)) return -1;
  const takerRealized = applyFill(venue, market, taker, takerSigned, notional, takerFee);
  const makerRealized = applyFill(venue, market, makerAccount, -takerSigned, notional, makerFee);
  fillRestingOrder(venue, market, makerAccount, maker, lotCount);
  if (maker.rem > 0 && maker.reduceOnly && lotCount === makerLots) {
    unrestOrder(venue, makerAccount, maker);
    cancelled.push(maker.id);
  }
  market.lastPrice = maker.price;
  market.volume += notional;
  fills.push({
    market: market.spec.symbol,
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
  return lotCount;
}

/**
 * A fill made in exact numbers: its size, notional, fees and realized PnL stay numbers until read (as bigints,
 * made then), so a fill nobody reads them from costs no bigint.
 */
class UnitsFill implements PerpFill {
  // Fields set in the constructor only, none as a parameter property: the bundle would emit those
  // as class fields, defined by an initializer function of their own (one more call per fill).
  declare readonly market: string;
  declare readonly takerOrderId: number;
  declare readonly makerOrderId: number;
  declare readonly taker: string;
  declare readonly maker: string;
  declare readonly side: PerpSide;
  declare readonly price: bigint;
  declare private readonly lots: number;
  declare private readonly notionalUnits: number;
  declare private readonly takerFeeUnits: number;
  declare private readonly makerFeeUnits: number;
  declare private readonly takerRealizedUnits: number | bigint;
  declare private readonly makerRealizedUnits: number | bigint;
  declare readonly liquidation: boolean;
  declare readonly at: number;

  constructor(
    market: string,
    takerOrderId: number,
    makerOrderId: number,
    taker: string,
    maker: string,
    side: PerpSide,
    price: bigint,
    lots: number,
    notionalUnits: number,
    takerFeeUnits: number,
    makerFeeUnits: number,
    takerRealizedUnits: number | bigint,
    makerRealizedUnits: number | bigint,
    liquidation: boolean,
    at: number,
  ) {
    this.market = market;
    this.takerOrderId = takerOrderId;
    this.makerOrderId = makerOrderId;
    this.taker = taker;
    this.maker = maker;
    this.side = side;
    this.price = price;
    this.lots = lots;
    this.notionalUnits = notionalUnits;
    this.takerFeeUnits = takerFeeUnits;
    this.makerFeeUnits = makerFeeUnits;
    this.takerRealizedUnits = takerRealizedUnits;
    this.makerRealizedUnits = makerRealizedUnits;
    this.liquidation = liquidation;
    this.at = at;
  }

  get size(): bigint {
    return bigOf(this.lots);
  }

  get notional(): bigint {
    return BigInt(this.notionalUnits);
  }

  get takerFee(): bigint {
    return BigInt(this.takerFeeUnits);
  }

  get makerFee(): bigint {
    return BigInt(this.makerFeeUnits);
  }

  get takerRealized(): bigint {
    return realizedOf(this.takerRealizedUnits);
  }

  get makerRealized(): bigint {
    return realizedOf(this.makerRealizedUnits);
  }

  /** The fill as a plain PerpFill (its fields in the order a fill literal has them). */
  toJSON(): PerpFill {
    const { market, takerOrderId, makerOrderId, taker, maker, side, price, size, notional } = this;
    const { takerFee, makerFee, takerRealized, makerRealized, liquidation, at } = this;
    return {
      market,
      takerOrderId,
      makerOrderId,
      taker,
      maker,
      side,
      price,
      size,
      notional,
      takerFee,
      makerFee,
      takerRealized,
      makerRealized,
      liquidation,
      at,
    };
  }
}

/** A realized PnL from {@link applyFillUnits} as a bigint (exact: a number it answers is safe). */
const realizedOf = (units: number | bigint): bigint =>
  typeof units === 'bigint' ? units : units === 0 ? 0n : BigInt(units);

/** Lots a resting order can fill now: a reduce-only order no more than its owner's position there. */
function fillableLots(market: MarketState, owner: Account, maker: BookOrder): number {
  if (!maker.reduceOnly) return maker.rem;
  const held = owner.positions.get(market.spec.symbol)?.size ?? 0n;
  if (maker.side === 'buy' ? held >= 0n : held <= 0n) return 0;
  const size = unitsOf(held);
  const reducible = size < 0 ? -size : size;
  // Past 2^53 (NaN) the position is larger than any order.
  return reducible < maker.rem ? reducible : maker.rem;
}

/** Whether a fill lowers the account's health below zero (or lowers it further below). */
function breaksMaintenance(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
  lots: number,
  notional: number,
  fee: number,
): boolean {
  return (
    breaksMaintenanceUnits(venue.markets, account, market, lots, notional, fee) ??
    breaksMaintenanceExact(venue, market, account, BigInt(lots), BigInt(notional), BigInt(fee))
  );
}

function breaksMaintenanceExact(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
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
