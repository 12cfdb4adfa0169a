import type { CandleSeries, CandleView, PositionView } from '@solterm/engine';

/** Doubles per candle in a sandbox's candle buffer: time, open, high, low, close, volume. */
export const CANDLE_FIELDS = 6;

/** A series as the flat buffer both sandboxes read (no object per candle crosses into them). */
export function packCandles(series: CandleSeries): Float64Array<ArrayBuffer> {
  const candles = new Float64Array(series.length * CANDLE_FIELDS);
  for (let i = 0; i < series.length; i += 1) {
    const k = i * CANDLE_FIELDS;
    candles[k] = series.time[i]!;
    candles[k + 1] = series.open[i]!;
    candles[k + 2] = series.high[i]!;
    candles[k + 3] = series.low[i]!;
    candles[k + 4] = series.close[i]!;
    candles[k + 5] = series.volume[i]!;
  }
  return candles;
}

/**
 * One live step's arguments as the sandboxes take them: the candle, then the position (a flat
 * position's last entry price is NaN, sent as null: Python reads None).
 */
export function stepValues(
  candle: CandleView,
  position: PositionView,
): [number, number, number, number, number, number, number, number, number | null] {
  return [
    candle.time,
    candle.open,
    candle.high,
    candle.low,
    candle.close,
    candle.volume,
    position.openLots,
    position.maxPositions,
    Number.isNaN(position.lastEntryPrice) ? null : position.lastEntryPrice,
  ];
}
