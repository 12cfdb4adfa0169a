import { useMemo, useState } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  candlesChannel,
  COIN_CARDS_POLL_MS,
  DASHBOARD_POLL_MS,
  PRICES_CHANNEL,
  type SpecDecimal,
  type TDashboardCoins,
} from '@solterm/contracts';
import { useChannel, useIsRealtimeLive } from '../../../lib/ws-client';
import { marketApi, marketKeys } from '../api/market-api';
import { readCandleTick, readPricesTick } from '../market-ticks';
import { toDecimal } from '../market-values';
import { lookupPairPrice, type PairPrice, type PriceSources } from '../price-lookup';
import { getPairId, type PairSelection } from '../trading-state';

/** Cached reads shared by the price lookup and the widgets. */
export function createPriceSources(queryClient: QueryClient): PriceSources {
  return {
    getPairPrice: (pairId) => marketApi.getPairPrice(pairId),
    getDashboardCoins: () =>
      queryClient.fetchQuery({
        queryKey: marketKeys.dashboardCoins,
        queryFn: ({ signal }) => marketApi.getDashboardCoins(signal),
        staleTime: 30_000,
      }),
    getMarketData: (symbol) =>
      queryClient.fetchQuery({
        queryKey: marketKeys.marketData(symbol),
        queryFn: ({ signal }) => marketApi.getMarketData(symbol, signal),
        staleTime: 30_000,
      }),
  };
}

/**
 * BTC, ETH and SOL prices with 24 h change (GET /market/dashboard-coins), kept live by the `prices`
 * channel; polled every 120 s only while the socket is down (spec part 1 §4).
 */
export function useDashboardCoins() {
  const queryClient = useQueryClient();
  const isLive = useIsRealtimeLive();
  const query = useQuery({
    queryKey: marketKeys.dashboardCoins,
    queryFn: ({ signal }) => marketApi.getDashboardCoins(signal),
    refetchInterval: isLive ? false : COIN_CARDS_POLL_MS,
    staleTime: 5_000,
  });
  useChannel(PRICES_CHANNEL, (data) => {
    const prices = readPricesTick(data);
    if (!prices) return;
    queryClient.setQueryData<TDashboardCoins>(marketKeys.dashboardCoins, (current) => {
      if (!current) return current;
      const next = { ...current };
      let isChanged = false;
      for (const key of ['btc', 'eth', 'sol'] as const) {
        const tick = prices[key];
        if (!tick) continue;
        next[key] = { ...next[key], price: tick.price, change_24h: tick.change_24h };
        isChanged = true;
      }
      return isChanged ? next : current;
    });
  });
  return query;
}

export interface LivePairPrice extends Partial<PairPrice> {
  isLoading: boolean;
  isError: boolean;
}

/**
 * The selected pair's price by the lookup chain of spec part 1 §4, refetched every 30 s while the
 * socket is down. While it is up, the pair's one-minute candle channel moves the price every
 * second, and the 24 h change follows from the reference price 24 h ago.
 */
export function usePairPrice(selection: PairSelection): LivePairPrice {
  const queryClient = useQueryClient();
  const isLive = useIsRealtimeLive();
  const pairId = getPairId(selection);
  const query = useQuery({
    queryKey: marketKeys.pairPrice(pairId),
    queryFn: () => lookupPairPrice(createPriceSources(queryClient), selection),
    refetchInterval: isLive ? false : DASHBOARD_POLL_MS,
    staleTime: 5_000,
  });
  const [live, setLive] = useState<{ pairId: string; close: SpecDecimal } | null>(null);
  const isPairSource = query.data?.source === 'pair';
  useChannel(isPairSource ? candlesChannel(pairId, '1M') : null, (data) => {
    const tick = readCandleTick(data);
    if (tick?.kind !== 'candle' || !(tick.candle.close > 0)) return;
    const close = toDecimal(tick.candle.close);
    if (close) setLive({ pairId, close });
  });

  return useMemo(() => {
    const data = query.data;
    if (!data) return { isLoading: query.isPending, isError: query.isError };
    if (!live || live.pairId !== pairId || data.source !== 'pair') {
      return { ...data, isLoading: false, isError: query.isError };
    }
    let change24h = data.change24h;
    if (change24h && !data.price.isZero()) {
      // The price 24 h ago implied by the last full answer; the live close is measured against it.
      const reference = data.price.div(change24h.div(100).plus(1));
      if (!reference.isZero()) change24h = live.close.div(reference).minus(1).times(100);
    }
    const baseUsd =
      data.baseUsd && !data.price.isZero() ? data.baseUsd.times(live.close.div(data.price)) : null;
    return { ...data, price: live.close, change24h, baseUsd, isLoading: false, isError: query.isError };
  }, [query.data, query.isPending, query.isError, live, pairId]);
}
