import type {
  ChartInterval,
  TEnhancedTrendingToken,
  TMarketSource,
  TPool,
  TTokenMarketData,
  TTokenSearchResult,
  TTrendingToken,
} from '@solterm/contracts';
import type { RawCandle } from './candle-aggregation';

/** A token as the market module knows it. */
export interface MarketToken {
  symbol: string;
  name: string;
  /** Solana mint; null for a live coin without one (e.g. a CoinGecko-only asset). */
  mint: string | null;
  decimals: number | null;
}

/**
 * The current USD price of a token and its 24 h change (percent, two decimals). Internal: decimal
 * strings that the service computes with; it turns them into wire numbers (`toWireNumber`) last.
 */
export interface TokenQuote {
  token: MarketToken;
  /** USD price, decimal string. */
  price: string;
  /** USD price 24 hours ago, decimal string (for pair changes). */
  price24hAgo: string;
  change24h: string;
  volume24h: string | null;
  /** When the quote was observed, unix milliseconds. */
  observedAt: number;
}

/** Which search source a query is for: GET /trading/dexscreener (primary) or /trading/solscan (fallback). */
export type SearchSource = 'primary' | 'fallback';

/** A request for USD candles of one token. Open times are aligned to the interval. */
export interface CandleRequest {
  token: MarketToken;
  interval: ChartInterval;
  /** Open time of the first candle, unix seconds. */
  fromOpen: number;
  /** Open time of the last candle, unix seconds (the forming candle when it contains now). */
  toOpen: number;
  /**
   * `chart` (default): the history charts show (the simulator keeps 7 days of minutes and a year of
   * hours). `all`: everything the source can give, for backtests (the simulator computes any past
   * second since the token's launch; live providers have their own limits).
   */
  history?: 'chart' | 'all';
}

/**
 * Where market data comes from. Two implementations, chosen by MARKET_DATA:
 * `simulator` (the default: a deterministic market with stored history, no network) and `live`
 * (CoinGecko, DexScreener and Jupiter). The market service applies the spec's rules (truncated
 * symbols, search ordering and limits, pair arithmetic, decimals fallback) on top, identically for
 * both; implementations only fetch or generate.
 *
 * Expected failures (provider time-out, rate limit, unavailability) are thrown as `AppError`s with
 * MARKET__* codes; a token that does not exist is `undefined`, not an error.
 */
export interface MarketData {
  readonly source: TMarketSource;
  /** Starts background work (warm caches). Resolves when the data can be served. */
  start(): Promise<void>;
  /** Stops background work; pending work is abandoned. */
  stop(): Promise<void>;
  /** Every listed token's market data, largest market cap first. */
  listMarkets(): Promise<TTokenMarketData[]>;
  /** Every listed token's price and 24 h change only, as decimal strings (the `prices` channel, every second). */
  listPrices(): Promise<Array<{ symbol: string; price: string; change24h: string }>>;
  /** Finds a token by symbol, alias, full name or mint (case-insensitive except mints). */
  findToken(query: string): Promise<MarketToken | undefined>;
  /** Market data of one token. */
  getMarket(token: MarketToken): Promise<TTokenMarketData | undefined>;
  /** Current USD quote of a token; `undefined` when the source has no price for it. */
  getQuote(token: MarketToken): Promise<TokenQuote | undefined>;
  /** USD candles of a token, oldest first; the last may be forming. */
  getCandles(request: CandleRequest): Promise<RawCandle[]>;
  /** Raw search results of one source, in the source's order (the service sorts, filters and limits). */
  searchTokens(query: string, limit: number, source: SearchSource): Promise<TTokenSearchResult[]>;
  /** Pools of a token mint, or the pool at a pool address. */
  getPools(address: string): Promise<TPool[]>;
  getTrending(): Promise<TTrendingToken[]>;
  getEnhancedTrending(): Promise<TEnhancedTrendingToken[]>;
  /**
   * The simulator only (dev hook POST /api/dev/market/shift): multiplies the token's price by
   * `factor` from the current second on. Absent on the live market, whose prices are not ours.
   */
  shiftPrice?(token: MarketToken, factor: number): PriceShift | undefined;
}

/** A token's price after a dev shift, and its total factor over the unshifted simulation. */
export interface PriceShift {
  readonly token: MarketToken;
  readonly price: string;
  readonly factor: number;
  /** Shift steps the token holds now (each a breakpoint the price process checks). */
  readonly steps: number;
}
