import type { CandleSeries, CandleView, PositionView } from '@solterm/engine';

/** Doubles per candle in a sandbox's candle buffer: time, open, high, low, close, volume. */
export const CANDLE_FIELDS = 6;
export const CANDLE_BYTES = CANDLE_FIELDS * 8;
/** First byte of a frame of backtest candles to the Python sandbox (a JSON frame starts with `{`). */
export const CANDLE_FRAME_TAG = 1;
/** Candles in one such frame: its body (tag and candles) within 64 KiB. */
export const CANDLES_PER_FRAME = Math.floor((64 * 1024 - 1) / CANDLE_BYTES);

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
 * Candles [from, to) of `series` as frames for the Python sandbox (CANDLE_FRAME_TAG, then the
 * candles' doubles), CANDLES_PER_FRAME at most each.
 */
export function candleFrames(series: CandleSeries, from: number, to: number): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (let start = from; start < to; start += CANDLES_PER_FRAME) {
    const end = Math.min(to, start + CANDLES_PER_FRAME);
    const bytes = new Uint8Array(1 + (end - start) * CANDLE_BYTES);
    bytes[0] = CANDLE_FRAME_TAG;
    const view = new DataView(bytes.buffer);
    for (let i = start; i < end; i += 1) {
      const k = 1 + (i - start) * CANDLE_BYTES;
      view.setFloat64(k, series.time[i]!, true);
      view.setFloat64(k + 8, series.open[i]!, true);
      view.setFloat64(k + 16, series.high[i]!, true);
      view.setFloat64(k + 24, series.low[i]!, true);
      view.setFloat64(k + 32, series.close[i]!, true);
      view.setFloat64(k + 40, series.volume[i]!, true);
    }
    frames.push(bytes);
  }
  return frames;
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
