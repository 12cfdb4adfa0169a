import type { Dec } from '../money/decimal';
import { decOfRounded, roundHalfUp, textOfRounded, type Exact } from '../money/exact';

/** One point of an equity curve. */
export interface EquityPoint {
  /** Unix seconds at the end of the period. */
  readonly time: number;
  /** Cash plus open lots at the period's last close, whole quote tokens. */
  readonly equity: Dec;
}

/**
 * An equity curve made from exact values: each point's decimal (toDec: 18 digits, half up) and the
 * same value as a double (the decimal's toNumber) for the metrics, both from its rounded digits
 * rather than through decimal.js arithmetic or parsing. A point whose value is the previous flat one (cash
 * only, unchanged) reuses its decimal.
 */
export class EquityCurve {
  readonly points: EquityPoint[] = [];
  readonly values: number[] = [];
  private flatUnits = -1n;
  private flatEquity: Dec | undefined;
  private flatValue = 0;

  /** A point of a known decimal (the initial cash). */
  pushDec(time: number, equity: Dec): void {
    this.points.push({ time, equity });
    this.values.push(equity.toNumber());
  }

  push(time: number, equity: Exact): void {
    const rounded = roundHalfUp(equity);
    this.points.push({ time, equity: decOfRounded(rounded) });
    this.values.push(Number(textOfRounded(rounded)));
  }

  /** A point of cash alone: `units` quote base units (≥ 0), `decimals` their decimals. */
  pushCash(time: number, units: bigint, decimals: number): void {
    if (units !== this.flatUnits || this.flatEquity === undefined) {
      const rounded = roundHalfUp({ n: units, scale: decimals });
      this.flatUnits = units;
      this.flatEquity = decOfRounded(rounded);
      this.flatValue = Number(textOfRounded(rounded));
    }
    this.points.push({ time, equity: this.flatEquity });
    this.values.push(this.flatValue);
  }

  get last(): EquityPoint | undefined {
    return this.points[this.points.length - 1];
  }
}
