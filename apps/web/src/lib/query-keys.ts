import type { QueryClient } from '@tanstack/react-query';
import type { ChartInterval, THolderType } from '@solterm/contracts';

/**
 * The one registry of query keys. Every page reads the same endpoint under the same key, so a trade
 * anywhere (dashboard quick trade, /trade order form, a cancel, an order_update pushed by the server)
 * refreshes every view of orders, fills, positions and balances.
 */
export const queryKeys = {
  /** Alerts, their notifications, the webhook and its delivery log. */
  alerts: {
    all: ['alerts'] as const,
    list: ['alerts', 'list'] as const,
    notifications: ['alerts', 'notifications'] as const,
    webhook: ['alerts', 'webhook'] as const,
    deliveries: ['alerts', 'deliveries'] as const,
  },
  /** Everything under `trading.all` reads the user's orders, fills, positions or balances of a pair. */
  trading: {
    all: ['trading'] as const,
    orders: ['trading', 'orders'] as const,
    positions: ['trading', 'positions'] as const,
    trades: (limit: number) => ['trading', 'trades', limit] as const,
    tradeHistory: (limit: number, offset: number) => ['trading', 'trades-history', limit, offset] as const,
    /** Balances the suggestion read for a pair id (`SOL/USDC`). */
    suggestion: (pairId: string) => ['trading', 'suggestion', pairId] as const,
    orderBook: (pairId: string) => ['trading', 'orderbook', pairId] as const,
    /** The user's fills on a pair from a chart's first candle (its markers). */
    chartFills: (pairId: string, from: number) => ['trading', 'chart-fills', pairId, from] as const,
    tradable: (pairs: readonly string[]) => ['trading', 'tradable', pairs] as const,
  },
  /** The user's bots and the built-in strategies. */
  bots: {
    all: ['bots'] as const,
    list: ['bots', 'list'] as const,
    strategies: ['bots', 'strategies'] as const,
    /** The bot key's balance and the user's delegations (on-chain bots). */
    balance: ['bots', 'balance'] as const,
    delegations: ['bots', 'delegations'] as const,
    /** One bot's detail view (every page and run of it under this prefix). */
    detail: (id: string) => ['bots', 'detail', id] as const,
    detailPage: (id: string, runId: string | null, offset: number) =>
      ['bots', 'detail', id, runId ?? 'newest', offset] as const,
  },
  /** The bot marketplace: pages by search, risk and page; a bot's detail. */
  marketplace: {
    all: ['marketplace'] as const,
    list: (query: string, risk: string, page: number) => ['marketplace', 'list', query, risk, page] as const,
    detail: (id: string) => ['marketplace', 'detail', id] as const,
  },
  /** Perpetual futures: public market data by symbol, and the user's account, orders, positions, fills. */
  futures: {
    all: ['futures'] as const,
    pairs: ['futures', 'pairs'] as const,
    /** Every market's prices and book (a fill moves them all). */
    markets: ['futures', 'market'] as const,
    market: (symbol: string) => ['futures', 'market', symbol] as const,
    funding: (symbol: string) => ['futures', 'funding', symbol] as const,
    user: ['futures', 'user'] as const,
    account: ['futures', 'user', 'account'] as const,
    orders: ['futures', 'user', 'orders'] as const,
    positions: ['futures', 'user', 'positions'] as const,
    trades: ['futures', 'user', 'trades'] as const,
  },
  /** Market data: prices, charts, trending tokens, holders (public, shared by every page). */
  market: {
    dashboardCoins: ['market', 'dashboard-coins'] as const,
    history: (symbol: string, limit: number) => ['market', 'history', symbol.toUpperCase(), limit] as const,
    marketData: (symbol: string) => ['market', 'data', symbol.toUpperCase()] as const,
    pairPriceAll: ['market', 'pair-price'] as const,
    pairPrice: (pairId: string) => ['market', 'pair-price', pairId] as const,
    chartToken: (pair: string, address: string | null) => ['market', 'chart-token', pair, address] as const,
    chart: (pairId: string, interval: ChartInterval) => ['market', 'chart', pairId, interval] as const,
    /** A backtest's pair over its tested period (a still chart of past candles). */
    periodChart: (pair: string, interval: ChartInterval, from: number, to: number) =>
      ['market', 'period-chart', pair, interval, from, to] as const,
    search: (symbol: string) => ['market', 'search', symbol.toUpperCase()] as const,
    trending: ['market', 'trending-enhanced'] as const,
    holders: (token: string, holderType: THolderType) => ['market', 'holders', token, holderType] as const,
    holderStats: (token: string) => ['market', 'holder-stats', token] as const,
    tokenLookup: (symbol: string) => ['market', 'token-lookup', symbol.toUpperCase()] as const,
    tokenSafety: (mint: string) => ['market', 'token-safety', mint] as const,
  },
  /** GET /health (the chain network the server runs on). */
  health: ['health'] as const,
  /** Wallet reads (balances come from the chain). */
  wallet: {
    all: ['wallet'] as const,
    /** The account wallet's portfolio; the address keeps two accounts' data apart. */
    portfolio: (walletAddress: string | null) => ['wallet', 'portfolio', walletAddress] as const,
    balance: ['wallet', 'balance'] as const,
    status: ['wallet', 'status'] as const,
  },
};

/**
 * Refetches everything a trade changes: balances, portfolio, orders, fills, positions.
 * `keepOrders` leaves Your Orders alone (the caller has just written the fresh list itself).
 */
export function invalidateAfterTrade(queryClient: QueryClient, { keepOrders = false } = {}): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.wallet.all }),
    keepOrders
      ? queryClient.invalidateQueries({
          predicate: ({ queryKey }) =>
            queryKey[0] === queryKeys.trading.all[0] && queryKey[1] !== queryKeys.trading.orders[1],
        })
      : queryClient.invalidateQueries({ queryKey: queryKeys.trading.all }),
  ]).then(() => undefined);
}
