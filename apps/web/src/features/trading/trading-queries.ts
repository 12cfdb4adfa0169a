import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DASHBOARD_POLL_MS, QUICK_TRADE_REFRESH_DELAY_MS, RECENT_TRADES_LIMIT } from '@solterm/contracts';
import { invalidateAfterTrade, queryKeys } from '../../lib/query-keys';
import { tradingApi } from './trading-api';

/**
 * A function that refreshes portfolio, recent trades and balances 1 s after a trade (part 1 §4:
 * the chain's reads settle first); timers stop when the component unmounts.
 */
export function useRefreshAfterTrade(delayMs: number = QUICK_TRADE_REFRESH_DELAY_MS): () => void {
  const queryClient = useQueryClient();
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  return useCallback(() => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      void invalidateAfterTrade(queryClient);
    }, delayMs);
    timers.current.add(timer);
  }, [queryClient, delayMs]);
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
