import type { CandleSeries } from '../market/candle-series';
import type { CandleView } from './strategy';

/** A candle of a series as a strategy sees it, at an index that moves. */
export interface SeriesCandle {
  readonly series: CandleSeries;
  readonly view: CandleView;
  readonly at: { i: number };
}

/**
 * A view of candle `at.i` of `series`: own enumerable getters reading its columns (a strategy sees
 * the fields of a plain candle, spread and JSON included).
 */
export function seriesCandle(series: CandleSeries): SeriesCandle {
  const at = { i: 0 };
  const field = (column: Float64Array) => ({ enumerable: true, get: () => column[at.i]! });
  const view = Object.defineProperties({} as CandleView, {
    time: field(series.time),
    open: field(series.open),
    high: field(series.high),
    low: field(series.low),
    close: field(series.close),
    volume: field(series.volume),
  });
  return { series, view, at };
}
