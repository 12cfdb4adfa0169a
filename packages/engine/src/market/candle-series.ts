import type { WireCandle } from './candle';

/**
 * Candles in columns of doubles, oldest first: what strategies and backtests loop over (a year of
 * minutes is 525,600 candles; one object each would cost more than the strategy). Each number carries
 * a decimal of at most 15 significant digits, as on the wire; money is computed from
 * `new Dec(String(x))`, which is that decimal exactly.
 */
export interface CandleSeries {
  readonly length: number;
  /** Unix seconds of each candle's open. */
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  /** USD volume traded in each candle. */
  readonly volume: Float64Array;
}

/**
 * The series of wire candles, checked: finite prices above zero, low ≤ open, close ≤ high, times
 * strictly increasing.
 *
 * @throws RangeError naming the first bad candle.
 */
export function candleSeriesOf(candles: readonly WireCandle[]): CandleSeries {
  const n = candles.length;
  const series = {
    length: n,
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  for (let i = 0; i < n; i += 1) {
    const c = candles[i]!;
    const ok =
      Number.isFinite(c.time) &&
      c.low > 0 &&
      c.low <= Math.min(c.open, c.close) &&
      Math.max(c.open, c.close) <= c.high &&
      Number.isFinite(c.high) &&
      c.volume >= 0 &&
      (i === 0 || c.time > candles[i - 1]!.time);
    if (!ok)
      throw new RangeError(`candle ${i} (time ${c.time}) is not a valid candle after the previous one`);
    series.time[i] = c.time;
    series.open[i] = c.open;
    series.high[i] = c.high;
    series.low[i] = c.low;
    series.close[i] = c.close;
    series.volume[i] = c.volume;
  }
  return series;
}
