import { Dec } from '../money/decimal';

// The perp kernel's arithmetic, shared by the venue, the liquidation job and the web's order preview.
// Units: collateral and notionals are USDC base units (bigint, 6 decimals); a size is base lots
// (bigint, `sizeDecimals` per market); a price is USDC base units per one whole base token (bigint),
// a multiple of the market's tick. `notional = size × price / 10^sizeDecimals`, floored, computed
// once per fill and applied with opposite signs to both sides so value is conserved exactly.

/** Basis points in one. */
export const BPS = 10_000n;
/** Taker fee 0.07 % and maker fee 0.04 % (spec part 2 §9), in basis points. */
export const PERP_TAKER_FEE_BPS = 7n;
export const PERP_MAKER_FEE_BPS = 4n;
/** A liquidation pays this share of the closed notional (or what equity is left, if less) to the insurance fund. */
export const PERP_LIQUIDATION_FEE_BPS = 50n;
/** Market orders (and liquidations) trade no further than 8 % from the oracle (spec §9 "max slippage"). */
export const PERP_MAX_SLIPPAGE_BPS = 800n;
/**
 * A limit order may be priced at most this far past the oracle on the side it trades at once (a buy
 * above, a sell below), and no fill is made past it: the bound market orders already have (§9 max
 * slippage). The passive side is unbounded, so a resting bid far below the market stays possible.
 */
export const PERP_PRICE_BAND_BPS = PERP_MAX_SLIPPAGE_BPS;
/** Funding is paid each hour; the hourly rate is capped at ±0.1 % (a 24th of the premium, as Drift). */
export const PERP_FUNDING_INTERVAL_MS = 3_600_000;
export const PERP_FUNDING_CAP = new Dec('0.001');

export type PerpSide = 'buy' | 'sell';
export type PerpDirection = 'Long' | 'Short';

/** 10^k for the size decimals a market may have, computed once (a power per notional was ~9 % of matching). */
const POW10: readonly bigint[] = Array.from({ length: 40 }, (_, k) => 10n ** BigInt(k));
const pow10 = (k: number) => POW10[k] ?? 10n ** BigInt(k);
const abs = (n: bigint) => (n < 0n ? -n : n);
/** Small whole numbers (leverages, their doubles) as bigints, made once rather than per order. */
const SMALL: readonly bigint[] = Array.from({ length: 1_001 }, (_, n) => BigInt(n));
/** `BigInt(n)` for a whole number, from the table when it is small. */
const bigOf = (n: number): bigint => SMALL[n] ?? BigInt(n);

/** ⌈a / b⌉ for a ≥ 0, b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return a === 0n ? 0n : (a + b - 1n) / b;
}

/** USDC base units of `size` lots at `price` (floored). */
export function notionalOf(size: bigint, price: bigint, sizeDecimals: number): bigint {
  return (abs(size) * price) / pow10(sizeDecimals);
}

/** Initial margin: ⌈notional / leverage⌉. */
export function initialMargin(notional: bigint, leverage: number): bigint {
  return ceilDiv(notional, bigOf(leverage));
}

/**
 * Maintenance margin: half the initial margin at the market's max leverage (Hyperliquid's rule), so
 * a 100x market liquidates below 0.5 % of notional and a 20x market below 2.5 %.
 */
export function maintenanceMargin(notional: bigint, maxLeverage: number): bigint {
  return ceilDiv(notional, bigOf(2 * maxLeverage));
}

/** The maintenance fraction of a market, as a decimal (1 / (2 × max leverage)). */
export function maintenanceFraction(maxLeverage: number): Dec {
  return new Dec(1).div(2 * maxLeverage);
}

/** A fee in USDC base units, rounded up (the venue never under-charges by a unit). */
export function feeOf(notional: bigint, bps: bigint): bigint {
  return ceilDiv(notional * bps, BPS);
}

/**
 * Where a position opened at `entry` with exactly its initial margin at `leverage` is liquidated
 * (isolated view: long `entry·(1 − 1/L)/(1 − m)`, short `entry·(1 + 1/L)/(1 + m)`, m the maintenance
 * fraction). Moves toward the entry as leverage grows.
 */
export function isolatedLiquidationPrice(
  entry: Dec,
  leverage: number,
  direction: PerpDirection,
  maxLeverage: number,
): Dec {
  const m = maintenanceFraction(maxLeverage);
  const lev = new Dec(1).div(leverage);
  return direction === 'Long'
    ? entry.times(new Dec(1).minus(lev)).div(new Dec(1).minus(m))
    : entry.times(new Dec(1).plus(lev)).div(new Dec(1).plus(m));
}

/** What the cross-margin liquidation price of one position depends on. */
export interface CrossLiquidationInput {
  /** Signed size in lots of the position (positive long). */
  size: bigint;
  sizeDecimals: number;
  maxLeverage: number;
  /**
   * The account's equity without this position's mark value: collateral + every open quote (this
   * position's included) + the other positions at their marks.
   */
  equityExcludingMark: bigint;
  /** The other positions' maintenance margin. */
  otherMaintenance: bigint;
}

/**
 * The mark price (USDC base units per token) at which the account's equity meets its maintenance
 * margin, the other positions held at their marks: solves `E + s·P/D = |s|·P/(2·L·D) + M` for P.
 * Null when no positive price liquidates the account (a fully covered long, say).
 */
export function crossLiquidationPrice(input: CrossLiquidationInput): Dec | null {
  if (input.size === 0n) return null;
  const d = new Dec(10).pow(input.sizeDecimals);
  const s = new Dec(input.size.toString());
  const denominator = s.minus(s.abs().times(maintenanceFraction(input.maxLeverage)));
  const numerator = new Dec((input.otherMaintenance - input.equityExcludingMark).toString()).times(d);
  const price = numerator.div(denominator);
  return price.isPositive() && !price.isZero() ? price : null;
}

/**
 * The hourly funding rate from the premium of mark over oracle (time-weighted averages over the
 * hour): a 24th of the premium, capped at ±0.1 %. Positive: longs pay shorts.
 */
export function fundingRate(markTwap: Dec, oracleTwap: Dec): Dec {
  if (oracleTwap.isZero()) return new Dec(0);
  const rate = markTwap.minus(oracleTwap).div(oracleTwap).div(24);
  return Dec.max(PERP_FUNDING_CAP.negated(), Dec.min(PERP_FUNDING_CAP, rate));
}

/**
 * Splits `total` base units over `weights` in proportion, exactly (largest remainder; ties to the
 * earlier weight): the parts always sum to `total`.
 */
export function allocate(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map(() => 0n);
  const parts = weights.map((w) => (total * w) / sum);
  let rest = total - parts.reduce((a, b) => a + b, 0n);
  const order = weights
    .map((w, i) => ({ i, r: (total * w) % sum }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of order) {
    if (rest === 0n) break;
    parts[i]! += 1n;
    rest -= 1n;
  }
  return parts;
}

/** A decimal price in USDC as base units per token, rounded half up to the tick. */
export function priceUnitsOf(price: Dec | string | number, tick: bigint): bigint {
  const units = BigInt(new Dec(price).times(1_000_000).div(tick.toString()).toDecimalPlaces(0).toFixed());
  return units * tick;
}

/** Lots of a decimal size (`sizeDecimals` places), rounded down; throws RangeError on an invalid size. */
export function lotsOf(size: Dec | string | number, sizeDecimals: number): bigint {
  const dec = new Dec(size);
  if (!dec.isFinite()) throw new RangeError('size is not a number');
  return BigInt(dec.times(new Dec(10).pow(sizeDecimals)).toDecimalPlaces(0, Dec.ROUND_DOWN).toFixed());
}

/** The decimal price of base units per token. */
export function priceOfUnits(units: bigint): Dec {
  return new Dec(units.toString()).div(1_000_000);
}

/** The decimal size of lots. */
export function sizeOfLots(lots: bigint, sizeDecimals: number): Dec {
  return new Dec(lots.toString()).div(new Dec(10).pow(sizeDecimals));
}
