import {
  HOLDER_ANALYSIS_LIMIT,
  SEARCH_FALLBACK_LIMIT,
  SEARCH_PRIMARY_LIMIT,
  SEARCH_TIMEOUT_MS,
  type ChartInterval,
  candlesOfColumns,
  type TChart,
  type TChartColumns,
  type TDashboardCoins,
  type TEnhancedTrendingToken,
  type THolderAnalysis,
  type THolderStats,
  type THolderType,
  type TMarketHistory,
  type TPairPrice,
  type TTokenMarketData,
  type TTokenSafety,
  type TTokenSearchResult,
} from '@solterm/contracts';
import { api, createApiClient } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * Token search has its own client: a 10 s time-out (spec part 1 §9) and no retries, because a
 * newer keystroke supersedes a slow search anyway.
 */
const searchClient = createApiClient({ timeoutMs: SEARCH_TIMEOUT_MS, retryDelaysMs: [] });

/** A path segment; pairs keep their slash encoded (`SOL%2FUSDC`), as the routes expect. */
const segment = (text: string) => encodeURIComponent(text.trim());

/** The market calls of spec part 1 §7 and part 2 §7 (paths after /api). */
export const marketApi = {
  /** GET /market/dashboard-coins: btc, eth, sol with price and change_24h. */
  getDashboardCoins: (signal?: AbortSignal) =>
    api.get<TDashboardCoins>('/market/dashboard-coins', { signal }),

  /** GET /market/data/{symbol}: one token's market data (`price` in USD). */
  getMarketData: (symbol: string, signal?: AbortSignal) =>
    api.get<TTokenMarketData>(`/market/data/${segment(symbol)}`, { signal }),

  /** GET /market/data/{symbol}/history?limit: hourly closes, oldest first. */
  getHistory: (symbol: string, limit: number, signal?: AbortSignal) =>
    api.get<TMarketHistory>(`/market/data/${segment(symbol)}/history?limit=${limit}`, { signal }),

  /** GET /trading/pair/{id}: the pair's price in quote units (`SOL/USDC` or `baseMint/quoteMint`). */
  getPairPrice: (pairId: string, signal?: AbortSignal) =>
    api.get<TPairPrice>(`/trading/pair/${segment(pairId)}`, { signal }),

  /**
   * GET /market/chart/{pair}?interval&from&to: OHLCV candles, oldest first. Asked as columns (about
   * half the bytes of rows, and quicker to parse) and handed to callers as rows.
   */
  getChart: async (
    pairId: string,
    { interval, from, to }: { interval: ChartInterval; from: number; to: number },
    signal?: AbortSignal,
  ): Promise<TChart> => {
    const chart = await api.get<TChart | TChartColumns>(
      `/market/chart/${segment(pairId)}?interval=${encodeURIComponent(interval)}&from=${from}&to=${to}&layout=columns`,
      { signal },
    );
    if (chart && 'columns' in chart) {
      const { columns, ...head } = chart;
      return { ...head, candles: candlesOfColumns(columns) };
    }
    return chart;
  },

  /** GET /trading/dexscreener?query&limit=20: the primary search source. */
  searchPrimary: (query: string, signal?: AbortSignal) =>
    searchClient.get<TTokenSearchResult[]>(
      `/trading/dexscreener?query=${encodeURIComponent(query)}&limit=${SEARCH_PRIMARY_LIMIT}`,
      { signal },
    ),

  /** GET /trading/solscan?query&limit=15: the fallback search source. */
  searchFallback: (query: string, signal?: AbortSignal) =>
    searchClient.get<TTokenSearchResult[]>(
      `/trading/solscan?query=${encodeURIComponent(query)}&limit=${SEARCH_FALLBACK_LIMIT}`,
      { signal },
    ),

  /** GET /trending/enhanced: trending tokens with pool facts, hottest first. */
  getEnhancedTrending: (signal?: AbortSignal) =>
    api.get<TEnhancedTrendingToken[]>('/trending/enhanced', { signal }),

  /** GET /holder-analysis/{token}?holder_type&limit=10. */
  getHolders: (token: string, holderType: THolderType, signal?: AbortSignal) =>
    api.get<THolderAnalysis>(
      `/holder-analysis/${segment(token)}?holder_type=${holderType}&limit=${HOLDER_ANALYSIS_LIMIT}`,
      { signal },
    ),

  /** GET /tokens/{mint}/safety: authorities, extensions, largest holders, flags and level. */
  getTokenSafety: (mint: string, signal?: AbortSignal) =>
    api.get<TTokenSafety>(`/tokens/${segment(mint)}/safety`, { signal }),

  /** GET /holder-analysis/{token}/stats. */
  getHolderStats: (token: string, signal?: AbortSignal) =>
    api.get<THolderStats>(`/holder-analysis/${segment(token)}/stats`, { signal }),
};

/** The market feature's keys: the market part of the one registry (lib/query-keys.ts). */
export const marketKeys = queryKeys.market;
