import {
  CHART_INTERVAL_SECONDS,
  DEFAULT_CHART_CANDLES,
  MAX_CHART_CANDLES,
  type ChartInterval,
  type TCandle,
} from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { AppError } from '../../lib/app-error';
import { centsToUsd, decimalString, toSignificant, toWireNumber } from '../../lib/wire-decimal';
import type { RawCandle } from './candle-aggregation';

/**
 * The candle opens a chart request covers: `to` (default now, never past it) back to `from` (default
 * the spec's default candle count), aligned to the interval; more than the spec's maximum is refused.
 */
export function chartRange(
  interval: ChartInterval,
  from: number | undefined,
  to: number | undefined,
  nowSeconds: number,
): { fromOpen: number; toOpen: number } {
  const step = CHART_INTERVAL_SECONDS[interval];
  const toOpen = Math.floor(Math.min(to ?? nowSeconds, nowSeconds) / step) * step;
  const fromOpen =
    from === undefined ? toOpen - (DEFAULT_CHART_CANDLES - 1) * step : Math.floor(from / step) * step;
  const count = Math.floor((toOpen - fromOpen) / step) + 1;
  if (count > MAX_CHART_CANDLES) {
    throw new AppError(
      'MARKET__RANGE_TOO_LARGE',
      `Range too large: ${count} ${interval} candles requested, at most ${MAX_CHART_CANDLES} per request. Narrow from/to or use a larger interval.`,
    );
  }
  return { fromOpen, toOpen };
}

/**
 * Candles of a cross pair: the base's USD candles divided by the quote's of the same open time (a
 * candle missing on either side is left out), in decimals.
 */
export function divideCandles(base: readonly RawCandle[], quote: readonly RawCandle[]): TCandle[] {
  const quoteByTime = new Map(quote.map((candle) => [candle.time, candle]));
  const out: TCandle[] = [];
  for (const candle of base) {
    const divisor = quoteByTime.get(candle.time);
    if (!divisor) continue;
    const open = new Dec(decimalString(candle.open)).div(decimalString(divisor.open));
    const close = new Dec(decimalString(candle.close)).div(decimalString(divisor.close));
    // Cross-pair extremes: the base's extremes over the quote's mid price, never inside open/close.
    const mid = new Dec(decimalString(divisor.open)).plus(decimalString(divisor.close)).div(2);
    const high = Dec.max(open, close, new Dec(decimalString(candle.high)).div(mid));
    const low = Dec.min(open, close, new Dec(decimalString(candle.low)).div(mid));
    out.push({
      time: candle.time,
      open: toWireNumber(toSignificant(open)),
      high: toWireNumber(toSignificant(high)),
      low: toWireNumber(toSignificant(low)),
      close: toWireNumber(toSignificant(close)),
      volume: toWireNumber(centsToUsd(candle.volumeCents)),
    });
  }
  return out;
}
