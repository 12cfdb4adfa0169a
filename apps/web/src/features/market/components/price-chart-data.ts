import {
  TickMarkType,
  type CandlestickData,
  type HistogramData,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { MARKET_MESSAGES, type ChartTheme } from '@solterm/contracts';
import { ApiError } from '../../../lib/api-client';
import type { ChartToken } from '../chart-token';
import type { CandlePoint } from '../market-ticks';
import { getPairId, type PairSelection } from '../trading-state';

// The price chart's data side: its stored theme, its pair, its error texts, candles as chart bars
// and the time axis labels.

/** Candles loaded when a chart opens or changes interval. */
export const CHART_INITIAL_CANDLES = 300;

export const THEME_STORAGE_KEY = 'chart_theme';

export function readStoredTheme(): ChartTheme {
  try {
    return window.localStorage.getItem(THEME_STORAGE_KEY) === 'light' ? 'light' : 'dark';
  } catch {
    return 'dark';
  }
}

/** The API pair of the chart: the resolved token's address when it is not the symbol's usual mint. */
export function getChartPairId(selection: PairSelection, token: ChartToken): string {
  return getPairId({ ...selection, baseAddress: token.address, chainId: token.chain });
}

export type ChartStatus =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; candles: CandlePoint[] };

export function statusOfChartError(error: unknown): string {
  // Unknown token or pair: the chart service does not carry it.
  if (error instanceof ApiError && error.status === 404) return MARKET_MESSAGES.chartTokenNotSupported;
  return MARKET_MESSAGES.chartLoadFailed;
}

export function toBars(candles: readonly CandlePoint[], colors: { up: string; down: string }) {
  const bars: CandlestickData<UTCTimestamp>[] = [];
  const volumes: HistogramData<UTCTimestamp>[] = [];
  for (const candle of candles) {
    const time = candle.time as UTCTimestamp;
    bars.push({ time, open: candle.open, high: candle.high, low: candle.low, close: candle.close });
    volumes.push({ time, value: candle.volume, color: volumeColor(candle, colors) });
  }
  return { bars, volumes };
}

export function volumeColor(candle: CandlePoint, colors: { up: string; down: string }): string {
  // 8-digit hex: the candle colour at ~35 % opacity.
  return `${candle.close >= candle.open ? colors.up : colors.down}59`;
}

export function tickMarkFormatter(time: Time, type: TickMarkType): string {
  const date = new Date((time as number) * 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  switch (type) {
    case TickMarkType.Year:
      return String(date.getFullYear());
    case TickMarkType.Month:
      return date.toLocaleString('en-US', { month: 'short' });
    case TickMarkType.DayOfMonth:
      return String(date.getDate());
    case TickMarkType.TimeWithSeconds:
      return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
    default:
      return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  }
}
