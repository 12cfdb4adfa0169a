import { Dec, fromBaseUnits } from '../money/decimal';

/**
 * A price level a lot is closed at: a double for the per-candle comparison, the exact level (18
 * digits) computed only when a price comes within rounding distance of it or the lot closes there.
 */
export class Threshold {
  private level: Dec | undefined;

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

  get exact(): Dec {
    if (this.level === undefined) {
      const entry = fromBaseUnits(this.cost, this.decimals.quoteDecimals).div(
        fromBaseUnits(this.baseAmount, this.decimals.baseDecimals),
      );
      this.level = entry.times(this.signedPercent.plus(100)).div(100);
    }
    return this.level;
  }

  /** −1, 0 or 1 as `price` is below, at or above the level. */
  compare(price: number): number {
    if (Math.abs(price - this.approx) > NEAR * Math.abs(this.approx)) return price < this.approx ? -1 : 1;
    return new Dec(String(price)).comparedTo(this.exact);
  }
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
