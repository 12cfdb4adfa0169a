import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { DASHBOARD_POLL_MS, QUICK_TRADE_REFRESH_DELAY_MS, RECENT_TRADES_LIMIT } from '@solterm/contracts';
import { tradingApi } from './trading-api';

/** Query keys of the trading calls; everything under `tradingKeys.all` reads the user's orders or balances. */
export const tradingKeys = {
  all: ['trading'] as const,
  trades: (limit: number) => ['trading', 'trades', limit] as const,
  tradeHistory: (limit: number, offset: number) => ['trading', 'trades-history', limit, offset] as const,
  orders: ['trading', 'orders'] as const,
  positions: ['trading', 'positions'] as const,
  /** Balances the suggestion read for a pair id (`SOL/USDC`). */
  suggestion: (pairId: string) => ['trading', 'suggestion', pairId] as const,
  orderBook: (pairId: string) => ['trading', 'orderbook', pairId] as const,
};

/** Query keys of the wallet reads (balances come from the chain). */
export const walletKeys = {
  all: ['wallet'] as const,
  /** The account wallet's portfolio; the address keeps two accounts' data apart. */
  portfolio: (walletAddress: string | null) => ['wallet', 'portfolio', walletAddress] as const,
  balance: ['wallet', 'balance'] as const,
  status: ['wallet', 'status'] as const,
};

/** Refetches everything a trade or a faucet call changes: balances, portfolio, orders, trades. */
export function invalidateAfterTrade(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: walletKeys.all }),
    queryClient.invalidateQueries({ queryKey: tradingKeys.all }),
  ]).then(() => undefined);
}

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
    queryKey: tradingKeys.trades(limit),
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
    queryKey: tradingKeys.suggestion(pairId),
    queryFn: () => tradingApi.suggestion(pairId),
    enabled: isEnabled,
    staleTime: 15_000,
    refetchInterval: DASHBOARD_POLL_MS,
  });
}
