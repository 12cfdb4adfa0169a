import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_CHART_FILLS_WINDOW_SECONDS } from '@solterm/contracts';
import { queryKeys } from '../../../lib/query-keys';
import { useRealtimeEvent } from '../../../lib/ws-client';
import type { ChartMarker, ChartPriceLine, ChartWindow } from '../../market';
import { fillsToMarkers, spotPriceLines } from '../chart-marks';
import { tradingApi } from '../trading-api';
import { usePositions, useSpotOrders } from './use-spot-data';

/**
 * The signed-in user's marks on a price chart: fills on the chart's pair since its first loaded
 * candle (GET /trading/fills) as markers, and — with `withSpotLines` — the pair's open limit orders
 * and the spot position's average entry as price lines. Live: an `order_update` reads everything
 * under `trading` again (fills included); a futures fill (`futures_update`) or a bot's pass
 * (`bot_timing_update`) reads the fills again.
 */
export function useChartMarks(options: { isSignedIn: boolean; withSpotLines: boolean }) {
  const { isSignedIn, withSpotLines } = options;
  const queryClient = useQueryClient();
  const [window, setWindow] = useState<ChartWindow | null>(null);
  const enabled = isSignedIn && window !== null;
  const fills = useQuery({
    queryKey: queryKeys.trading.chartFills(window?.pairId ?? '', window?.from ?? 0),
    queryFn: ({ signal }) =>
      tradingApi.getChartFills(
        { pair: window!.pairId, from: window!.from, to: window!.from + MAX_CHART_FILLS_WINDOW_SECONDS },
        signal,
      ),
    enabled,
    staleTime: 30_000,
  });
  const refreshFills = () =>
    void queryClient.invalidateQueries({
      queryKey: queryKeys.trading.chartFills(window?.pairId ?? '', window?.from ?? 0),
    });
  useRealtimeEvent('futures_update', ({ data }) => {
    if (data.reason === 'fill' || data.reason === 'liquidation') refreshFills();
  });
  useRealtimeEvent('bot_timing_update', refreshFills);

  const orders = useSpotOrders();
  const positions = usePositions();
  const pair = fills.data?.pair ?? window?.pairId ?? null;
  const markers = useMemo<ChartMarker[]>(() => fillsToMarkers(fills.data?.fills ?? []), [fills.data]);
  const priceLines = useMemo<ChartPriceLine[]>(
    () => (withSpotLines && isSignedIn && pair ? spotPriceLines(pair, orders.data, positions.data) : []),
    [withSpotLines, isSignedIn, pair, orders.data, positions.data],
  );
  return { markers, priceLines, onWindowChange: setWindow, truncated: fills.data?.truncated ?? false };
}
