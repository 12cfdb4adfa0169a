import {
  CHART_INTERVAL_SECONDS,
  type ChartInterval,
  type TBacktestResult,
  type TBacktestTrade,
} from '@solterm/contracts';
import type { ChartMarker } from '../market';

/**
 * Candles the backtest's price chart draws at most: the interval coarsens until the period fits
 * (a chart half a screen wide shows about this many candles readably, about 1 px each at least).
 */
export const MAX_BACKTEST_CHART_CANDLES = 500;

const CHART_STEPS: readonly ChartInterval[] = ['1M', '5M', '15M', '1H', '4H', '12H', '1D'];

/** The tested period in unix seconds: from the first candle's open to the last one's close. */
export function backtestPeriod(result: Pick<TBacktestResult, 'start_date' | 'end_date'>) {
  return {
    from: Math.floor(Date.parse(result.start_date) / 1000),
    to: Math.ceil(Date.parse(result.end_date) / 1000),
  };
}

/**
 * The candles of the price chart: the backtest's own interval when the period fits in
 * {@link MAX_BACKTEST_CHART_CANDLES} of them, else the first coarser one that does (a year of 1M
 * candles is drawn as 1D ones).
 *
 * @example
 * backtestChartInterval({ interval: '1M', start_date: '2025-01-01', end_date: '2025-01-02' }); // '5M'
 */
export function backtestChartInterval(
  result: Pick<TBacktestResult, 'interval' | 'start_date' | 'end_date'>,
): ChartInterval {
  const { from, to } = backtestPeriod(result);
  const start = Math.max(0, CHART_STEPS.indexOf(result.interval));
  for (const interval of CHART_STEPS.slice(start)) {
    if ((to - from) / CHART_INTERVAL_SECONDS[interval] <= MAX_BACKTEST_CHART_CANDLES) return interval;
  }
  return '1D';
}

/** The strategy's fills as markers: a buy under its candle, a sell over it, at the fill's price. */
export function backtestTradeMarkers(trades: readonly TBacktestTrade[]): ChartMarker[] {
  const markers: ChartMarker[] = [];
  for (const trade of trades) {
    const time = Date.parse(trade.time) / 1000;
    if (!Number.isFinite(time)) continue;
    markers.push({
      time: Math.floor(time),
      tone: trade.side === 'Buy' ? 'buy' : 'sell',
      text: trade.side,
      ...(trade.price > 0 ? { price: trade.price } : {}),
    });
  }
  return markers;
}
