import type { CandleSeries } from '../market/candle-series';
import { Dec, fromBaseUnits } from '../money/decimal';
import { exactOf, roundHalfUp, toDec, type Exact } from '../money/exact';

/**
 * A price level a lot is closed at: a double for the per-candle comparison, the exact level (18
 * digits) computed only when a price comes within rounding distance of it or the lot closes there.
 */
export class Threshold {
  private level: Dec | undefined;
  private levelExact: Exact | undefined;
  private fast: Exact | null | undefined;

  /**
   * The level `entry × (100 + signedPercent) / 100` of a lot that cost `cost` quote units for
   * `baseAmount` base units.
   */
  constructor(
    readonly approx: number,
    private readonly cost: bigint,
    private readonly baseAmount: bigint,
    private readonly signedPercent: Dec,
    private readonly decimals: { baseDecimals: number; quoteDecimals: number },
  ) {}

  /**
   * The level as decimal.js computes it: the entry cost / amount (18 digits, half up), times
   * 100 + signedPercent (18 digits, half up), over 100 (exact).
   */
  get exact(): Dec {
    if (this.level === undefined) {
      const fast = this.fastLevel();
      this.level = fast !== null ? toDec(fast) : this.decimalLevel();
    }
    return this.level;
  }

  /** exactOf(exact): the level's exact value, its scale its count of decimals (no trailing zero). */
  get exactLevel(): Exact {
    return (this.levelExact ??= this.fastLevel() ?? exactOf(this.exact));
  }

  /** levelOf's level (at most 18 digits: toDec of it is exact), or null. */
  private fastLevel(): Exact | null {
    if (this.fast === undefined) {
      this.fast = levelOf(this.cost, this.baseAmount, this.signedPercent, this.decimals);
    }
    return this.fast;
  }

  private decimalLevel(): Dec {
    const entry = fromBaseUnits(this.cost, this.decimals.quoteDecimals).div(
      fromBaseUnits(this.baseAmount, this.decimals.baseDecimals),
    );
    return entry.times(this.signedPercent.plus(100)).div(100);
  }

  /** −1, 0 or 1 as `price` is below, at or above the level. */
  compare(price: number): number {
    if (Math.abs(price - this.approx) > NEAR * Math.abs(this.approx)) return price < this.approx ? -1 : 1;
    return new Dec(String(price)).comparedTo(this.exact);
  }
}

/** 100 + each signed percent (decimal.js's plus), exact; null when not above zero. */
const factors = new WeakMap<Dec, Exact | null>();

/**
 * Threshold.exact's level on bigints (each step correctly rounded as decimal.js's div and times
 * are, half up to Dec.precision digits; the last division by 100 exact), as exactOf gives it; null
 * when the cost, the amount or 100 + the percent is not above zero (decimal.js then).
 */
export function levelOf(
  cost: bigint,
  baseAmount: bigint,
  signedPercent: Dec,
  decimals: { baseDecimals: number; quoteDecimals: number },
): Exact | null {
  let factor = factors.get(signedPercent);
  if (factor === undefined) {
    const sum = signedPercent.plus(100);
    factor = sum.gt(0) ? exactOf(sum) : null;
    factors.set(signedPercent, factor);
  }
  if (factor === null || cost <= 0n || baseAmount <= 0n) return null;
  const entry = quotientHalfUp(
    cost * 10n ** BigInt(decimals.baseDecimals),
    baseAmount * 10n ** BigInt(decimals.quoteDecimals),
  );
  const rounded = roundHalfUp({ n: entry.n * factor.n, scale: entry.scale + factor.scale });
  return plainExact(BigInt(rounded.digits), 2 - rounded.exponent);
}

/** num / den (both above zero) rounded half up to Dec.precision digits: digits × 10^−scale. */
function quotientHalfUp(num: bigint, den: bigint): { n: bigint; scale: number } {
  const precision = Dec.precision;
  // num / den has (digits of num − digits of den) or one more digits before its point: scaled by
  // 10^shift its integer part has precision + 1 or precision + 2 digits.
  let shift = precision + 1 - (num.toString().length - den.toString().length);
  let q = shift >= 0 ? (num * 10n ** BigInt(shift)) / den : num / (den * 10n ** BigInt(-shift));
  if (q >= 10n ** BigInt(precision + 1)) {
    // floor(floor(x) / 10) = floor(x / 10).
    q /= 10n;
    shift -= 1;
  }
  // Half up: the first dropped digit decides.
  const up = q % 10n >= 5n;
  return { n: q / 10n + (up ? 1n : 0n), scale: shift - 1 };
}

/**
 * n × 10^−scale as exactOf writes it, n's digits ending in no zero (roundHalfUp's): no trailing
 * zero after the point already, and an integer with a scale of 0.
 */
function plainExact(n: bigint, scale: number): Exact {
  return scale >= 0 ? { n, scale } : { n: n * 10n ** BigInt(-scale), scale: 0 };
}

/** Relative distance under which a double comparison defers to the exact level (≫ double rounding). */
export const NEAR = 1e-9;

/** One open lot: what it cost and where the risk rules close it. */
export interface Lot {
  readonly baseAmount: bigint;
  /** Quote base units paid, fee included. */
  readonly cost: bigint;
  readonly openedAt: number;
  /** Effective price paid (cost / amount), whole quote per whole base, as a double (advisory). */
  readonly entryApprox: number;
  readonly stop: Threshold | null;
  readonly take: Threshold | null;
}

/**
 * Bounds a candle's low and high must pass for the risk rules to close none of `lots`: out[0] above
 * every stop by twice NEAR, out[1] below every take profit by twice NEAR, so a candle within them is
 * far from each level by the double test alone (−∞ and ∞ without one; NaN fails every comparison).
 */
export function riskBounds(lots: readonly Lot[], out: Float64Array): void {
  let above = -Infinity;
  let below = Infinity;
  for (let k = 0; k < lots.length; k += 1) {
    const { stop, take } = lots[k]!;
    if (stop) above = Math.max(above, stop.approx + 2 * NEAR * Math.abs(stop.approx));
    if (take) below = Math.min(below, take.approx - 2 * NEAR * Math.abs(take.approx));
  }
  out[0] = above;
  out[1] = below;
}

/**
 * Whether the risk rules close one of `lots` at candle `i` of `series` (StrategyRuntime's closeHit,
 * without closing): read from the columns, so a candle that closes nothing passes no doubles between
 * functions (each would be boxed).
 */
export function lotsAtRisk(lots: readonly Lot[], series: CandleSeries, i: number): boolean {
  const time = series.time[i]!;
  for (let k = 0; k < lots.length; k += 1) {
    const lot = lots[k]!;
    if (lot.openedAt >= time) continue;
    // Threshold.compare's double test inline (a call would box its argument); near the level, its own.
    const { stop, take } = lot;
    if (stop) {
      const low = series.low[i]!;
      const far = Math.abs(low - stop.approx) > NEAR * Math.abs(stop.approx);
      if (far ? low < stop.approx : stop.compare(low) <= 0) return true;
    }
    if (take) {
      const high = series.high[i]!;
      const far = Math.abs(high - take.approx) > NEAR * Math.abs(take.approx);
      if (far ? high > take.approx : take.compare(high) >= 0) return true;
    }
  }
  return false;
}

/** A lot's level `percent` from its entry (`entryApprox`, exact from its cost and amount); null without one. */
export function thresholdOf(
  percent: { exact: Dec; approx: number } | null,
  entryApprox: number,
  cost: bigint,
  baseAmount: bigint,
  decimals: { baseDecimals: number; quoteDecimals: number },
): Threshold | null {
  if (!percent) return null;
  const approx = entryApprox * (1 + percent.approx / 100);
  return new Threshold(approx, cost, baseAmount, percent.exact, decimals);
}

/**
 * The first candle index in [from, to) at which the risk rules would close one of `lots` (`to` when
 * none).
 */
export function nextRiskIndex(
  lots: readonly Lot[],
  series: { low: Float64Array; high: Float64Array },
  from: number,
  to: number,
): number {
  if (lots.length === 0) return to;
  for (let j = from; j < to; j += 1) {
    for (const lot of lots) {
      if (lot.stop && lot.stop.compare(series.low[j]!) <= 0) return j;
      if (lot.take && lot.take.compare(series.high[j]!) >= 0) return j;
    }
  }
  return to;
}
