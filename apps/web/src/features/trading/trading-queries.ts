import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DASHBOARD_POLL_MS,
  QUICK_TRADE_REFRESH_DELAY_MS,
  RECENT_TRADES_LIMIT,
  type TSpotOrder,
} from '@solterm/contracts';
import { invalidateAfterTrade, queryKeys } from '../../lib/query-keys';
import { tradingApi } from './trading-api';

/**
 * Puts an order the server just answered into Your Spot Orders (new first, or replaced in place). An
 * order placed `oco_with` another links that one back too, as the server's list does: the partner
 * shows its OCO mark at once, not at the next read.
 */
export function mergeOrder(orders: readonly TSpotOrder[] | undefined, order: TSpotOrder): TSpotOrder[] {
  const list = (orders ?? []).map((existing) =>
    order.oco_with && existing.id === order.oco_with && !existing.oco_with
      ? { ...existing, oco_with: order.id }
      : existing,
  );
  return list.some((existing) => existing.id === order.id)
    ? list.map((existing) => (existing.id === order.id ? order : existing))
    : [order, ...list];
}

/**
 * A function to call after a trade or a cancel: the order the server answered (if any) shows at once,
 * and after `delayMs` (the chain's reads settle first: 1 s for the quick trade, part 1 §4; 2 s on
 * /trade, part 2 §4) orders, positions, balances, fills and the book are read again. Pending
 * refreshes are dropped when the component unmounts.
 */
export function useRefreshAfterTrade(
  delayMs: number = QUICK_TRADE_REFRESH_DELAY_MS,
): (order?: TSpotOrder | null) => void {
  const queryClient = useQueryClient();
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  return useCallback(
    (order?: TSpotOrder | null) => {
      if (order) {
        queryClient.setQueryData<TSpotOrder[]>(queryKeys.trading.orders, (orders) =>
          mergeOrder(orders, order),
        );
      }
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        void invalidateAfterTrade(queryClient);
      }, delayMs);
      timers.current.add(timer);
    },
    [queryClient, delayMs],
  );
}

/** The user's latest fills, newest first (GET /trading/trades?limit=10 on the dashboard), polled every 30 s. */
export function useRecentTrades({
  limit = RECENT_TRADES_LIMIT,
  isEnabled = true,
}: { limit?: number; isEnabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.trading.trades(limit),
    queryFn: ({ signal }) => tradingApi.getTrades(limit, signal),
    enabled: isEnabled,
    refetchInterval: DASHBOARD_POLL_MS,
    // Newest first and at most `limit`, whatever order the server used.
    select: (trades) =>
      [...trades]
        .sort((a, b) => Date.parse(b.timestamp || b.created_at) - Date.parse(a.timestamp || a.created_at))
        .slice(0, limit),
  });
}

/** Available balances for a pair and the side they allow (POST /trading/suggestion). */
export function useTradingSuggestion(pairId: string, isEnabled: boolean) {
  return useQuery({
    queryKey: queryKeys.trading.suggestion(pairId),
    queryFn: () => tradingApi.suggestion(pairId),
    enabled: isEnabled,
    staleTime: 15_000,
    refetchInterval: DASHBOARD_POLL_MS,
  });
}
