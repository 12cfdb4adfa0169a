import { CHART_INTERVAL_VALUES, CHART_INTERVALS, type ChartInterval } from '../rules/constants';

/** Length of one candle of each chart interval, in seconds. */
export const CHART_INTERVAL_SECONDS: Readonly<Record<ChartInterval, number>> = {
  '1S': 1,
  '1M': 60,
  '5M': 300,
  '15M': 900,
  '1H': 3600,
  '4H': 14_400,
  '12H': 43_200,
  '1D': 86_400,
};

/** The most candles one chart request may return. A year of hourly candles (8,760) fits. */
export const MAX_CHART_CANDLES = 10_000;

/** Candles a chart request returns when it names no `from`. */
export const DEFAULT_CHART_CANDLES = 300;

/** Every spelling {@link parseChartInterval} accepts, for error messages: labels, then chart-service values. */
export const CHART_INTERVAL_SPELLINGS: readonly string[] = [
  ...CHART_INTERVALS,
  ...new Set(
    Object.values(CHART_INTERVAL_VALUES).filter(
      (value) => !(CHART_INTERVALS as readonly string[]).includes(value),
    ),
  ),
];

const BY_SPELLING: ReadonlyMap<string, ChartInterval> = new Map([
  ...CHART_INTERVALS.map((label) => [label, label] as const),
  ...CHART_INTERVALS.map((label) => [CHART_INTERVAL_VALUES[label].toUpperCase(), label] as const),
]);

/**
 * Reads a chart interval written as its label (`1S`, `1M`, `5M`, `15M`, `1H`, `4H`, `12H`, `1D`) or
 * as the chart service's value (`1S`, `1`, `5`, `15`, `60`, `240`, `720`, `1D`), case-insensitively.
 * In this product `1M` is one minute, never one month. Returns `undefined` for anything else.
 *
 * @example
 * parseChartInterval('60');  // '1H'
 * parseChartInterval('15m'); // '15M'
 * parseChartInterval('2H');  // undefined
 */
export function parseChartInterval(text: string): ChartInterval | undefined {
  return BY_SPELLING.get(text.trim().toUpperCase());
}

/**
 * The candle open time that contains `unixSeconds` for an interval: intervals are aligned to UTC
 * (a 4H candle opens at 00:00, 04:00 … UTC; a 1D candle at 00:00 UTC).
 *
 * @example
 * alignToInterval(1_700_000_123, '1M'); // 1_700_000_100
 */
export function alignToInterval(unixSeconds: number, interval: ChartInterval): number {
  const step = CHART_INTERVAL_SECONDS[interval];
  return Math.floor(unixSeconds / step) * step;
}
