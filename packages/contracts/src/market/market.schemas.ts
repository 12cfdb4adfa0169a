import { z } from 'zod';
import {
  CHART_INTERVALS,
  DEFAULT_SEARCH_LIMIT,
  HOLDER_ANALYSIS_LIMIT,
  MARKET_HISTORY_LIMIT,
  SEARCH_FALLBACK_LIMIT,
} from '../rules/constants';
import { isSolanaAddress } from '../rules/token-identity';
import { CHART_INTERVAL_SPELLINGS, MAX_CHART_CANDLES, parseChartInterval } from './chart-interval';

// Every price, USD value, percentage and token quantity is a JSON number, as CoinGecko- and
// DexScreener-style APIs send them. The server computes and rounds every one of them in decimal
// arithmetic (decimal.js, 18 significant digits, ROUND_HALF_UP) and converts only the rounded
// decimal to a number at the edge: prices to 10 significant digits, USD values and percentages to
// two decimals, so a number's shortest text is exactly the decimal the server computed. Decimals
// longer than the 15 significant digits a double carries exactly (a huge supply or balance) are
// rounded half up to 15 first. Clients that compute with these values should parse them into
// decimals too (`parseSpecDecimal`). Times are ISO 8601 strings, except candle `time`, which is
// unix seconds (UTC) as charting libraries expect.

/**
 * A price as a JSON number: USD per token, or quote units per base unit for pairs and pools, e.g.
 * `187.42` or `0.00002134`. Rounded in decimal arithmetic (10 significant digits for computed
 * prices); providers' prices pass through as they sent them.
 */
export const ZPriceNumberSchema = z
  .number()
  .describe('price as a JSON number, rounded in decimal arithmetic (10 significant digits)');

/** A US-dollar value (market cap, volume, liquidity, FDV) as a JSON number with at most two decimals, e.g. `1612345678.5`. */
export const ZUsdNumberSchema = z
  .number()
  .describe('USD value as a JSON number, rounded half up to two decimals in decimal arithmetic');

/** A percentage as a JSON number with at most two decimals, e.g. `-3.25` for −3.25 %. */
export const ZPercentNumberSchema = z
  .number()
  .describe('percentage as a JSON number, rounded half up to two decimals in decimal arithmetic');

/**
 * A token quantity in whole tokens (decimals applied: a supply, a balance) as a JSON number, e.g.
 * `88000000000000` or `1234.56789`. Rounded in decimal arithmetic; exact up to 15 significant digits.
 */
export const ZTokenQuantityNumberSchema = z
  .number()
  .describe('token quantity in whole tokens as a JSON number, rounded in decimal arithmetic');

/** The longest search query accepted; longer ones are refused with a 400. */
export const MAX_SEARCH_QUERY_LENGTH = 200;
/** The most results one search may ask for. */
export const MAX_SEARCH_LIMIT = 100;
/** The most history points one request may ask for. */
export const MAX_HISTORY_LIMIT = 1000;
/** The most holders one holder-analysis request may ask for. */
export const MAX_HOLDER_LIMIT = 100;
/** The longest symbol, name or mint accepted in a path. */
export const MAX_SYMBOL_LENGTH = 64;

/** Holder categories of the holder analysis tabs (All, Smart, KOL/VC, Remarks, Tracking). */
export const HOLDER_TYPES = ['all', 'smart', 'kol', 'remarks', 'tracking'] as const;
export type THolderType = (typeof HOLDER_TYPES)[number];

/** Where market data came from: the embedded simulator or a named live provider. */
export const MARKET_SOURCES = ['simulator', 'coingecko', 'dexscreener', 'jupiter'] as const;
/** The `source` of market answers. */
export const ZMarketSourceSchema = z.enum(MARKET_SOURCES);
export type TMarketSource = z.infer<typeof ZMarketSourceSchema>;

/**
 * A `limit` query parameter: an integer from 1 to `max`, `defaultValue` when absent. Out-of-range
 * values (-1, 10^9) are refused with a 400 rather than clamped, so a caller learns its mistake.
 */
export function limitParam(defaultValue: number, max: number) {
  return z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be an integer' })
    .min(1, { message: `limit must be between 1 and ${max}` })
    .max(max, { message: `limit must be between 1 and ${max}` })
    .default(defaultValue);
}

/** A token given by symbol, name or mint in a path (`SOL`, `solana`, `So111…112`). */
export const ZTokenPathParamsSchema = z.object({
  symbol: z
    .string()
    .trim()
    .min(1, { message: 'symbol is required' })
    .max(MAX_SYMBOL_LENGTH, { message: `symbol must be at most ${MAX_SYMBOL_LENGTH} characters` }),
});

/** A token given by symbol or mint in a path, as `/holder-analysis/{token}` names it. */
export const ZHolderTokenParamsSchema = z.object({
  token: z
    .string()
    .trim()
    .min(1, { message: 'token is required' })
    .max(MAX_SYMBOL_LENGTH, { message: `token must be at most ${MAX_SYMBOL_LENGTH} characters` }),
});

// ── Prices ──────────────────────────────────────────────────────────────────────────────────────

/** A headline coin price: `price` in USD and `change_24h` in percent. */
export const ZCoinPriceSchema = z.object({ price: ZPriceNumberSchema, change_24h: ZPercentNumberSchema });
export type TCoinPrice = z.infer<typeof ZCoinPriceSchema>;

/** GET /market/dashboard-coins: the dashboard cards, keyed by lower-case symbol. */
export const ZDashboardCoinsSchema = z.object({
  btc: ZCoinPriceSchema,
  eth: ZCoinPriceSchema,
  sol: ZCoinPriceSchema,
});
export type TDashboardCoins = z.infer<typeof ZDashboardCoinsSchema>;

/** Market data of one token (GET /market/data, /market/data/{symbol}). `price` is in USD. */
export const ZTokenMarketDataSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  /** Mint address on Solana; null for a live token without one. */
  address: z.string().nullable(),
  decimals: z.number().int().nullable(),
  price: ZPriceNumberSchema,
  change_24h: ZPercentNumberSchema,
  market_cap: ZUsdNumberSchema.nullable(),
  market_cap_rank: z.number().int().nullable(),
  volume_24h: ZUsdNumberSchema.nullable(),
  high_24h: ZPriceNumberSchema.nullable(),
  low_24h: ZPriceNumberSchema.nullable(),
  liquidity_usd: ZUsdNumberSchema.nullable(),
  /** Whole tokens. */
  circulating_supply: ZTokenQuantityNumberSchema.nullable(),
  /** Whole tokens. */
  total_supply: ZTokenQuantityNumberSchema.nullable(),
  last_updated: z.string(),
  source: ZMarketSourceSchema,
});
export type TTokenMarketData = z.infer<typeof ZTokenMarketDataSchema>;

/** GET /market/data/{symbol}/history?limit (default 100): hourly closes, oldest first. */
export const ZMarketHistoryQuerySchema = z.object({
  limit: limitParam(MARKET_HISTORY_LIMIT, MAX_HISTORY_LIMIT),
});
/** One point of a token's price history. */
export const ZMarketHistoryPointSchema = z.object({
  /** Start of the hour, ISO 8601. */
  timestamp: z.string(),
  /** Start of the hour, unix seconds. */
  time: z.number().int(),
  /** Close of the hour in USD (the latest price for the hour in progress). */
  price: ZPriceNumberSchema,
  /** Traded value in the hour, USD. */
  volume: ZUsdNumberSchema,
});
/** GET /market/data/{symbol}/history: hourly points, oldest first. */
export const ZMarketHistorySchema = z.object({
  symbol: z.string(),
  interval: z.literal('1H'),
  points: z.array(ZMarketHistoryPointSchema),
});
export type TMarketHistory = z.infer<typeof ZMarketHistorySchema>;

/** GET /trading/pair/{id}: the price of one base unit in quote units (`SOL/USDC` or `baseMint/quoteMint`). */
export const ZPairPriceSchema = z.object({
  pair: z.string(),
  base: z.string(),
  quote: z.string(),
  base_mint: z.string().nullable(),
  quote_mint: z.string().nullable(),
  /** Quote units per base unit, 10 significant digits. */
  price: ZPriceNumberSchema,
  base_price_usd: ZPriceNumberSchema,
  quote_price_usd: ZPriceNumberSchema,
  /** 24 h change of the pair price, percent. */
  change_24h: ZPercentNumberSchema,
  timestamp: z.string(),
  source: ZMarketSourceSchema,
});
export type TPairPrice = z.infer<typeof ZPairPriceSchema>;

// ── Charts ──────────────────────────────────────────────────────────────────────────────────────

/** A time bound: unix seconds, unix milliseconds (13+ digits) or an ISO 8601 date. */
const ZTimeBoundSchema = z
  .string()
  .trim()
  .max(40, { message: 'must be unix seconds or an ISO 8601 date' })
  .transform((text, context) => {
    let seconds: number;
    if (/^\d{1,12}$/.test(text)) seconds = Number(text);
    else if (/^\d{13,16}$/.test(text)) seconds = Math.floor(Number(text) / 1000);
    else seconds = Math.floor(Date.parse(text) / 1000);
    if (!Number.isFinite(seconds) || seconds < 0) {
      context.addIssue({ code: 'custom', message: 'must be unix seconds or an ISO 8601 date' });
      return z.NEVER;
    }
    return seconds;
  });

/** An interval label or chart-service value; the error lists the valid ones. */
export const ZChartIntervalParamSchema = z
  .string()
  .trim()
  .max(8, { message: `interval must be one of ${CHART_INTERVAL_SPELLINGS.join(', ')}` })
  .transform((text, context) => {
    const interval = parseChartInterval(text);
    if (!interval) {
      context.addIssue({
        code: 'custom',
        message: `interval must be one of ${CHART_INTERVAL_SPELLINGS.join(', ')}`,
      });
      return z.NEVER;
    }
    return interval;
  });

/** How a chart's candles are laid out: the spec's rows of objects, or one array per field. */
export const CHART_LAYOUTS = ['rows', 'columns'] as const;
export type ChartLayout = (typeof CHART_LAYOUTS)[number];

/**
 * GET /market/chart/{symbol}?interval=&from=&to=&limit=&layout=. `interval` defaults to 15M; `to` to
 * now; `from` to `to` minus 300 candles. At most 10,000 candles per request (a wider range is a 400);
 * `limit` keeps the latest candles of the range. `layout=columns` (this app's web client) answers the
 * candles as `columns` of arrays, about half the bytes of the spec's rows.
 */
export const ZChartQuerySchema = z
  .object({
    interval: ZChartIntervalParamSchema.default('15M'),
    from: ZTimeBoundSchema.optional(),
    to: ZTimeBoundSchema.optional(),
    limit: z.coerce
      .number({ message: 'limit must be a number' })
      .int({ message: 'limit must be an integer' })
      .min(1, { message: `limit must be between 1 and ${MAX_CHART_CANDLES}` })
      .max(MAX_CHART_CANDLES, { message: `limit must be between 1 and ${MAX_CHART_CANDLES}` })
      .optional(),
    layout: z.enum(CHART_LAYOUTS, { message: 'layout must be rows or columns' }).default('rows'),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, {
    message: 'from must not be after to',
    path: ['from'],
  });
export type TChartQuery = z.output<typeof ZChartQuerySchema>;

/** One OHLCV candle. `time` is the open time in unix seconds (UTC); `volume` is traded value in USD. */
export const ZCandleSchema = z.object({
  time: z.number().int(),
  open: ZPriceNumberSchema,
  high: ZPriceNumberSchema,
  low: ZPriceNumberSchema,
  close: ZPriceNumberSchema,
  volume: ZUsdNumberSchema,
});
export type TCandle = z.infer<typeof ZCandleSchema>;

/** A chart: candles oldest first; the last one may still be forming. */
export const ZChartSchema = z.object({
  /** What was charted: a symbol (priced in USD) or a pair `BASE/QUOTE`. */
  symbol: z.string(),
  quote: z.string(),
  interval: z.enum(CHART_INTERVALS),
  /** The chart-service value of the interval (`1S`, `1`, `5`, `15`, `60`, `240`, `720`, `1D`). */
  interval_value: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  candles: z.array(ZCandleSchema),
  source: ZMarketSourceSchema,
});
export type TChart = z.infer<typeof ZChartSchema>;

/** A chart with `layout=columns`: the candles as one array per field, all the same length, oldest first. */
export const ZChartColumnsSchema = ZChartSchema.omit({ candles: true }).extend({
  columns: z.object({
    time: z.array(z.number().int()),
    open: z.array(ZPriceNumberSchema),
    high: z.array(ZPriceNumberSchema),
    low: z.array(ZPriceNumberSchema),
    close: z.array(ZPriceNumberSchema),
    volume: z.array(ZUsdNumberSchema),
  }),
});
export type TChartColumns = z.infer<typeof ZChartColumnsSchema>;

/** The candle fields, in the order `columns` lists them. */
export const CANDLE_FIELDS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/** Rows of candles from a chart's columns (the web client asks for columns and draws rows). */
export function candlesOfColumns(columns: TChartColumns['columns']): TCandle[] {
  return columns.time.map((time, index) => ({
    time,
    open: columns.open[index]!,
    high: columns.high[index]!,
    low: columns.low[index]!,
    close: columns.close[index]!,
    volume: columns.volume[index]!,
  }));
}

/** Spans of GET /chart/historical/{symbol}?timeframe. */
export const HISTORICAL_TIMEFRAMES = ['1h', '4h', '1d', '7d', '30d', '90d', '1y'] as const;
export type THistoricalTimeframe = (typeof HISTORICAL_TIMEFRAMES)[number];

/** GET /chart/historical/{symbol}?timeframe=1d&format=line: the span to show and the shape of points. */
export const ZHistoricalChartQuerySchema = z.object({
  timeframe: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(
      z.enum(HISTORICAL_TIMEFRAMES, {
        message: `timeframe must be one of ${HISTORICAL_TIMEFRAMES.join(', ')}`,
      }),
    )
    .default('1d'),
  format: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['line', 'ohlc'], { message: 'format must be line or ohlc' }))
    .default('line'),
});

/** A line-chart point: `time` unix seconds, `value` the close in USD. */
export const ZLinePointSchema = z.object({ time: z.number().int(), value: ZPriceNumberSchema });

/** A historical chart: `points` for format=line, `candles` for format=ohlc. */
export const ZHistoricalChartSchema = z.object({
  symbol: z.string(),
  timeframe: z.enum(HISTORICAL_TIMEFRAMES),
  format: z.enum(['line', 'ohlc']),
  /** The candle interval chosen for the span (1d → 5M, 7d → 1H, 30d → 4H, 90d → 12H, 1y → 1D). */
  interval: z.enum(CHART_INTERVALS),
  points: z.array(ZLinePointSchema).optional(),
  candles: z.array(ZCandleSchema).optional(),
  source: ZMarketSourceSchema,
});
export type THistoricalChart = z.infer<typeof ZHistoricalChartSchema>;

// ── Search and pools ────────────────────────────────────────────────────────────────────────────

function searchQuery(defaultLimit: number) {
  return z.object({
    query: z
      .string()
      .max(MAX_SEARCH_QUERY_LENGTH, {
        message: `query must be at most ${MAX_SEARCH_QUERY_LENGTH} characters`,
      })
      .default(''),
    limit: limitParam(defaultLimit, MAX_SEARCH_LIMIT),
  });
}

/** GET /trading/dexscreener?query&limit (default 20). A query under 2 characters gives empty data. */
export const ZDexScreenerSearchQuerySchema = searchQuery(DEFAULT_SEARCH_LIMIT);
/** GET /trading/solscan?query&limit (default 15), the fallback source. */
export const ZSolscanSearchQuerySchema = searchQuery(SEARCH_FALLBACK_LIMIT);

/** A token search result (spec part 1 §3). Sorted by market cap, largest first. */
export const ZTokenSearchResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  symbol: z.string(),
  current_price: ZPriceNumberSchema,
  /** The same value as `current_price` (both names are read). */
  price: ZPriceNumberSchema,
  market_cap: ZUsdNumberSchema,
  price_change_24h: ZPercentNumberSchema,
  /** Token address (the mint on Solana). */
  address: z.string(),
  decimals: z.number().int().nullable(),
  source: ZMarketSourceSchema,
  pair_address: z.string().nullable(),
  dex_id: z.string().nullable(),
  /** `solana` for Solana tokens; other chains are tagged in the dropdown. */
  chain_id: z.string(),
  liquidity_usd: ZUsdNumberSchema.nullable(),
  volume_24h: ZUsdNumberSchema.nullable(),
});
export type TTokenSearchResult = z.infer<typeof ZTokenSearchResultSchema>;

/** GET /trading/dexscreener/pools/{address}: a token mint (its pools) or a pool address (that pool). */
export const ZPoolsParamsSchema = z.object({
  address: z
    .string()
    .trim()
    .refine((text) => isSolanaAddress(text), {
      message: 'address must be a Solana address (32–44 base58 characters)',
    }),
});

const ZPoolTokenSchema = z.object({ address: z.string(), name: z.string(), symbol: z.string() });

/** A liquidity pool (a DEX pair). */
export const ZPoolSchema = z.object({
  pair_address: z.string(),
  dex_id: z.string(),
  chain_id: z.string(),
  url: z.string().nullable(),
  labels: z.array(z.string()),
  base_token: ZPoolTokenSchema,
  quote_token: ZPoolTokenSchema,
  price_usd: ZPriceNumberSchema.nullable(),
  /** Price of the base token in quote tokens. */
  price_native: ZPriceNumberSchema.nullable(),
  liquidity_usd: ZUsdNumberSchema.nullable(),
  volume_24h: ZUsdNumberSchema.nullable(),
  price_change_24h: ZPercentNumberSchema.nullable(),
  fdv: ZUsdNumberSchema.nullable(),
  market_cap: ZUsdNumberSchema.nullable(),
  pair_created_at: z.string().nullable(),
});
export type TPool = z.infer<typeof ZPoolSchema>;

// ── Trending ────────────────────────────────────────────────────────────────────────────────────

/** A trending token (spec part 2 §3), best score first. */
export const ZTrendingTokenSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  /** Time since launch, compact (`3h`, `12d`, `1y 4m`); null when unknown. */
  age: z.string().nullable(),
  created_at: z.string().nullable(),
  total_volume: ZUsdNumberSchema.nullable(),
  market_cap: ZUsdNumberSchema.nullable(),
  holders: z.number().int().nullable(),
  price_change_24h: ZPercentNumberSchema.nullable(),
  price: ZPriceNumberSchema.nullable(),
  market_cap_rank: z.number().int().nullable(),
  /** Rank in the trending list, 0 = hottest (CoinGecko's convention). */
  score: z.number().int(),
  /** Small image URL (a data: URI in the simulator). */
  thumb: z.string().nullable(),
});
export type TTrendingToken = z.infer<typeof ZTrendingTokenSchema>;

/** /trending/enhanced adds pool facts to each trending token. */
export const ZEnhancedTrendingTokenSchema = ZTrendingTokenSchema.extend({
  liquidity_usd: ZUsdNumberSchema.nullable(),
  pair_address: z.string().nullable(),
  dex_id: z.string().nullable(),
  chain_id: z.string().nullable(),
  decimals: z.number().int().nullable(),
});
export type TEnhancedTrendingToken = z.infer<typeof ZEnhancedTrendingTokenSchema>;

// ── Holder analysis ─────────────────────────────────────────────────────────────────────────────

/** GET /holder-analysis/{token}?holder_type&limit (default 10). */
export const ZHolderAnalysisQuerySchema = z.object({
  holder_type: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(HOLDER_TYPES, { message: `holder_type must be one of ${HOLDER_TYPES.join(', ')}` }))
    .default('all'),
  limit: limitParam(HOLDER_ANALYSIS_LIMIT, MAX_HOLDER_LIMIT),
});

/** One holder (spec part 2 §3), largest balance first. */
export const ZHolderSchema = z.object({
  /** Owner wallet address. */
  address: z.string(),
  /** A label when the wallet is known (smart money, KOL/VC, a remark), else the shortened address. */
  name: z.string(),
  /** Share of the supply, percent, rounded half up to four decimals in decimal arithmetic. */
  owned_percentage: z
    .number()
    .describe('share of the supply as a JSON number, percent, rounded half up to four decimals'),
  /** Balance in whole tokens (decimals applied). */
  balance: ZTokenQuantityNumberSchema,
  /** SOL balance of the owner wallet, rounded half up to four decimals (0 when unknown). */
  sol_balance: ZTokenQuantityNumberSchema,
  last_activity: z.string().nullable(),
  /** Categories the wallet belongs to: smart, kol, remarks, tracking. */
  tags: z.array(z.enum(['smart', 'kol', 'remarks', 'tracking'])),
});
export type THolder = z.infer<typeof ZHolderSchema>;

/** GET /holder-analysis/{token}: the largest holders of one category. */
export const ZHolderAnalysisSchema = z.object({
  token: z.string(),
  mint: z.string(),
  holder_type: z.enum(HOLDER_TYPES),
  holders: z.array(ZHolderSchema),
  /** Where balances came from: the simulator now, on-chain token accounts once the chain lands. */
  source: z.string(),
});
export type THolderAnalysis = z.infer<typeof ZHolderAnalysisSchema>;

/** GET /holder-analysis/{token}/stats. */
export const ZHolderStatsSchema = z.object({
  token: z.string(),
  mint: z.string(),
  /** Share of the supply held by the top 100 holders, percent. */
  top100_owned: ZPercentNumberSchema,
  /** Balance-weighted average cost of the top 100 holders' tokens, USD; null when the source has no trade history. */
  top100_avg_cost: ZPriceNumberSchema.nullable(),
  /** Average share of what each top-100 holder acquired that it has sold, percent; null without trade history. */
  top100_avg_sold: ZPercentNumberSchema.nullable(),
  holder_count: z.number().int(),
  source: z.string(),
});
export type THolderStats = z.infer<typeof ZHolderStatsSchema>;

// ── Token decimals ──────────────────────────────────────────────────────────────────────────────

/** POST /api/tokens/decimals: `symbol` and/or `mint`. */
export const ZTokenDecimalsRequestSchema = z
  .object({
    symbol: z
      .string()
      .trim()
      .min(1)
      .max(MAX_SYMBOL_LENGTH, { message: `symbol must be at most ${MAX_SYMBOL_LENGTH} characters` })
      .optional(),
    mint: z
      .string()
      .trim()
      .refine((text) => isSolanaAddress(text), {
        message: 'mint must be a Solana address (32–44 base58 characters)',
      })
      .optional(),
  })
  .refine((body) => body.symbol !== undefined || body.mint !== undefined, {
    message: 'symbol or mint is required',
    path: ['symbol'],
  });
export type TTokenDecimalsRequest = z.infer<typeof ZTokenDecimalsRequestSchema>;

/** POST /api/tokens/decimals answer. */
export const ZTokenDecimalsSchema = z.object({
  symbol: z.string().nullable(),
  mint: z.string().nullable(),
  decimals: z.number().int(),
  /** `known`: the token's own decimals (market data); `fallback`: the spec's table (SOL 9; USDC, USDT, USD 6; BTC, ETH 8; BONK 5; others 6). */
  source: z.enum(['known', 'fallback']),
});
export type TTokenDecimals = z.infer<typeof ZTokenDecimalsSchema>;

// ── Real-time ticks (WS channel payloads) ───────────────────────────────────────────────────────

/**
 * Payload of the `prices` channel: every listed token's price and 24 h change, keyed by the token's
 * canonical symbol **as the token spells it** (`SOL`, `BONK`, `jitoSOL`, `mSOL`), unlike
 * GET /market/dashboard-coins, which keys its three cards by lower-case `btc`, `eth`, `sol`.
 * Clients that merge the two normalise the keys (e.g. `symbol.toLowerCase()`).
 *
 * @example
 * { "timestamp": "2026-02-10T09:00:20.000Z",
 *   "prices": { "SOL": { "price": 187.42, "change_24h": 4.88 }, "jitoSOL": { "price": 229.1, "change_24h": 4.91 } } }
 */
export const ZPricesTickSchema = z.object({
  timestamp: z.string(),
  /** Keyed by canonical symbol case (`jitoSOL`), not lower case. */
  prices: z.record(z.string(), ZCoinPriceSchema),
});
export type TPricesTick = z.infer<typeof ZPricesTickSchema>;

/** Payload of a `price:<SYMBOL>` channel. */
export const ZPriceTickSchema = z.object({
  symbol: z.string(),
  price: ZPriceNumberSchema,
  change_24h: ZPercentNumberSchema,
  /** Traded value of the last 24 h, USD; null when the source does not say. */
  volume_24h: ZUsdNumberSchema.nullable(),
  timestamp: z.string(),
});
export type TPriceTick = z.infer<typeof ZPriceTickSchema>;

/** Payload of a `candles:<PAIR>:<interval>` channel. */
export const ZCandleTickSchema = z.object({
  pair: z.string(),
  interval: z.enum(CHART_INTERVALS),
  candle: ZCandleSchema,
  /** True once the candle's interval has ended; it will not change again. */
  closed: z.boolean(),
});
export type TCandleTick = z.infer<typeof ZCandleTickSchema>;
