import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CHART_INTERVAL_SECONDS, MARKET_MESSAGES, type ChartInterval } from '@solterm/contracts';
import { marketApi, marketKeys } from '../api/market-api';
import { resolveChartToken } from '../chart-token';
import { readCandle, type CandlePoint } from '../market-ticks';
import type { PairSelection } from '../trading-state';
import {
  CHART_INITIAL_CANDLES,
  getChartPairId,
  statusOfChartError,
  type ChartStatus,
} from './price-chart-data';

/** The price chart's token (the spec's chart token lookup), its candles for the interval, and its status. */
export function useChartCandles(selection: PairSelection, interval: ChartInterval) {
  const queryClient = useQueryClient();
  // Which token the chart is for (the spec's chart token lookup).
  const tokenQuery = useQuery({
    queryKey: marketKeys.chartToken(selection.pair, selection.baseAddress),
    queryFn: () =>
      resolveChartToken(selection, {
        search: (symbol) =>
          queryClient.fetchQuery({
            queryKey: marketKeys.search(symbol),
            queryFn: ({ signal }) => marketApi.searchPrimary(symbol, signal),
            staleTime: 5 * 60_000,
          }),
      }),
    staleTime: Infinity,
    retry: false,
  });
  const token = tokenQuery.data ?? null;
  const pairId = token && token.chain === 'solana' ? getChartPairId(selection, token) : null;

  // Its candles for the chosen interval.
  const chartQuery = useQuery({
    queryKey: marketKeys.chart(pairId ?? '', interval),
    enabled: pairId !== null,
    queryFn: async ({ signal }) => {
      const step = CHART_INTERVAL_SECONDS[interval];
      const to = Math.floor(Date.now() / 1000);
      const from = to - (CHART_INITIAL_CANDLES - 1) * step;
      const chart = await marketApi.getChart(pairId as string, { interval, from, to }, signal);
      return (Array.isArray(chart?.candles) ? chart.candles : [])
        .map(readCandle)
        .filter((candle): candle is CandlePoint => candle !== null);
    },
    staleTime: 0,
    retry: false,
  });

  let status: ChartStatus;
  if (tokenQuery.isPending) status = { kind: 'loading' };
  else if (tokenQuery.isError) status = { kind: 'error', message: MARKET_MESSAGES.chartTokenInfoFailed };
  else if (!pairId) status = { kind: 'error', message: MARKET_MESSAGES.chartTokenNotSupported };
  else if (chartQuery.isPending) status = { kind: 'loading' };
  else if (chartQuery.isError) status = { kind: 'error', message: statusOfChartError(chartQuery.error) };
  else if (chartQuery.data.length === 0) status = { kind: 'error', message: MARKET_MESSAGES.chartLoadFailed };
  else status = { kind: 'ready', candles: chartQuery.data };
  const isRefreshing = status.kind === 'ready' && chartQuery.isFetching;
  const readyCandles = status.kind === 'ready' ? status.candles : null;

  return { tokenQuery, chartQuery, token, pairId, status, isRefreshing, readyCandles };
}
