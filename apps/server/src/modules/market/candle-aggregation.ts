/** A candle in doubles: prices carry decimals (only compared, never computed with); volume is whole cents. */
export interface RawCandle {
  /** Open time, unix seconds. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Traded value in whole US cents (integers add exactly in doubles up to 2^53). */
  volumeCents: number;
}

/**
 * Aggregates candles (oldest first) into candles of `intervalSeconds`, aligned to UTC multiples of
 * the interval: open of the first, close of the last, highest high, lowest low, summed volume.
 * A bucket may be partial (the forming candle, or a range edge).
 *
 * @example
 * aggregateCandles(minuteCandles, 300); // five-minute candles
 */
export function aggregateCandles(candles: readonly RawCandle[], intervalSeconds: number): RawCandle[] {
  const out: RawCandle[] = [];
  let current: RawCandle | undefined;
  for (const candle of candles) {
    const bucket = Math.floor(candle.time / intervalSeconds) * intervalSeconds;
    if (!current || current.time !== bucket) {
      current = { ...candle, time: bucket };
      out.push(current);
      continue;
    }
    if (candle.high > current.high) current.high = candle.high;
    if (candle.low < current.low) current.low = candle.low;
    current.close = candle.close;
    current.volumeCents += candle.volumeCents;
  }
  return out;
}
