import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { BACKTEST_CHART_HEIGHT_PX, type TBacktestResult } from '@solterm/contracts';
import { CandleChart, marketApi, marketKeys, readCandle, type CandlePoint } from '../../market';
import { backtestChartInterval, backtestPeriod, backtestTradeMarkers } from '../backtest-trades-model';

/**
 * The backtest's pair over its tested period (GET /market/chart) with the strategy's trades as buy
 * and sell markers on their candles; beside the equity chart, at its height.
 */
export function BacktestTradesChart({ result }: { result: TBacktestResult }) {
  const interval = backtestChartInterval(result);
  const { from, to } = backtestPeriod(result);
  const candles = useQuery({
    queryKey: marketKeys.periodChart(result.symbol, interval, from, to),
    queryFn: async ({ signal }) => {
      const chart = await marketApi.getChart(result.symbol, { interval, from, to }, signal);
      return (Array.isArray(chart?.candles) ? chart.candles : [])
        .map(readCandle)
        .filter((candle): candle is CandlePoint => candle !== null);
    },
    staleTime: Infinity,
    retry: false,
  });
  const markers = useMemo(() => backtestTradeMarkers(result.trades), [result.trades]);

  if (candles.isPending || candles.isError || candles.data.length === 0) {
    return (
      <div
        className="grid place-items-center rounded-panel bg-canvas text-sm text-muted"
        style={{ height: BACKTEST_CHART_HEIGHT_PX }}
        data-testid="candle-chart"
        data-state={candles.isPending ? 'loading' : 'error'}
      >
        {candles.isPending
          ? 'Loading the price of the period...'
          : 'The price of this period could not be loaded'}
      </div>
    );
  }
  return (
    <CandleChart
      candles={candles.data}
      interval={interval}
      markers={markers}
      heightPx={BACKTEST_CHART_HEIGHT_PX}
      label={`${result.symbol} ${interval} candles with the strategy's trades`}
    />
  );
}
