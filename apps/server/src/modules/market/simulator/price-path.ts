/** Units and shapes of a simulated token's price path (see price-process.ts for how it is drawn). */

/** Seconds per hour and minute. */
export const HOUR = 3600;
export const MINUTE = 60;

/** Quantises a positive float to `digits` significant digits (toPrecision rounds half up). */
export function quantise(value: number, digits: number): number {
  return Number(value.toPrecision(digits));
}

/** The parameters of one token's path. */
export interface PathParams {
  /** Hash stream of the token (from its mint). */
  readonly key: number;
  /** ln(base price in USD). */
  readonly logBase: number;
  /** Hourly volatility of log price. */
  readonly sigmaHour: number;
  /** Loading on the market factor, 0..1. */
  readonly marketBeta: number;
  /** Significant digits prices are quantised to. */
  readonly significantDigits: number;
  /** Price band [min, max] (stablecoins), applied after exp. */
  readonly band?: readonly [number, number];
  /** Follow another token's path: price = ref × exp(logRatio + own small drift, linear per hour). */
  readonly peg?: { readonly ref: PathParams; readonly logRatio: number };
  /** Mean traded value per minute, in US cents. */
  readonly minuteVolumeCents: number;
}

/**
 * One hour of a token's path: log prices at the 61 minute boundaries, and for each minute the
 * bridge shape and scale of its seconds.
 */
export interface HourPath {
  readonly hour: number;
  readonly logs: Float64Array;
  readonly secondShapes: Int32Array;
  readonly secondSigma: number;
}
