import type { FastifyBaseLogger } from 'fastify';
import {
  CHART_INTERVAL_SECONDS,
  getFullNameForTruncatedSymbol,
  getTokenDecimals,
  isSolanaAddress,
  MIN_TRUNCATED_PREFIX_LENGTH,
  SEARCH_MIN_CHARS,
  type ChartInterval,
  type TCandle,
  type TDashboardCoins,
  type TEnhancedTrendingToken,
  type THistoricalChart,
  type THistoricalTimeframe,
  type TMarketHistory,
  type TPairPrice,
  type TPool,
  type TPricesTick,
  type TPriceTick,
  type TTokenDecimals,
  type TTokenDecimalsRequest,
  type TTokenMarketData,
  type TTokenSearchResult,
  type TTrendingToken,
} from '@solterm/contracts';
import { AppError, isAppError } from '../../lib/app-error';
import type { MarketData, MarketToken, SearchSource, TokenQuote } from './market-data';
import { byMarketCapDescending, formatCandle, HISTORICAL_SPANS, USD } from './market-wire';
import type { RawCandle } from './candle-aggregation';
import { chartRange, divideCandles } from './pair-candles';
import { createChartParts } from './chart-windows';
import { Dec } from '@solterm/engine';
import { centsToUsd, percentChange, toSignificant, toWireNumber } from '../../lib/wire-decimal';

/** A resolved pair: its two tokens (the quote may be USD itself). */
interface ResolvedPair {
  text: string;
  base: MarketToken;
  quote: MarketToken;
}

export interface MarketServiceDeps {
  data: MarketData;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * The market rules of the spec over whichever MarketData is configured: token lookup with the
 * truncated-name retry, pair prices and pair candles in decimals, chart ranges and limits, search
 * ordering and failure mapping, the decimals fallback table, and the real-time tick payloads.
 */
export function createMarketService(deps: MarketServiceDeps) {
  const { data } = deps;
  const nowSeconds = () => Math.floor(deps.now().getTime() / 1000);
  let dashboardCache: { second: number; value: Promise<TDashboardCoins> } | undefined;
  let pricesCache: { second: number; value: Promise<TPricesTick> } | undefined;

  /** Looks a token up by symbol, alias, name or mint; retries with a full name when the symbol looks truncated. */
  async function findToken(text: string): Promise<MarketToken | undefined> {
    const query = text.trim();
    if (!query) return undefined;
    const direct = await data.findToken(query);
    if (direct) return direct;
    const fullName = getFullNameForTruncatedSymbol(query);
    if (fullName) {
      const retried = await data.findToken(fullName);
      if (retried) return retried;
    }
    if (query.length >= MIN_TRUNCATED_PREFIX_LENGTH && !isSolanaAddress(query)) {
      // A longer ticker or name cut short: the largest token whose symbol or name starts with it.
      const upper = query.toUpperCase();
      const candidates = (await data.searchTokens(query, 10, 'primary')).filter(
        (result) =>
          result.symbol.toUpperCase().startsWith(upper) || result.name.toUpperCase().startsWith(upper),
      );
      candidates.sort(byMarketCapDescending);
      const best = candidates[0];
      if (best) return data.findToken(best.address);
    }
    return undefined;
  }

  async function resolveToken(text: string): Promise<MarketToken> {
    const token = await findToken(text);
    if (!token) throw new AppError('MARKET__TOKEN_NOT_FOUND', `Token not found: ${text.trim()}`);
    return token;
  }

  async function quoteOf(token: MarketToken): Promise<TokenQuote> {
    if (token === USD) {
      return {
        token,
        price: '1',
        price24hAgo: '1',
        change24h: '0.00',
        volume24h: null,
        observedAt: deps.now().getTime(),
      };
    }
    const quote = await data.getQuote(token);
    if (!quote) throw new AppError('MARKET__NO_DATA', `No market data for ${token.symbol}`);
    return quote;
  }

  /** Reads `BASE/QUOTE` (symbols or mints; `-` also separates when there is no `/`); a bare token is quoted in USD. */
  async function resolvePair(text: string): Promise<ResolvedPair> {
    const trimmed = text.trim();
    const parts = trimmed.includes('/')
      ? trimmed.split('/')
      : trimmed.includes('-')
        ? trimmed.split('-')
        : [trimmed];
    if (parts.length > 2 || parts.some((part) => part.trim() === '')) {
      throw new AppError(
        'MARKET__INVALID_PAIR',
        `Invalid pair: ${trimmed}. Write it as BASE/QUOTE, e.g. SOL/USDC`,
      );
    }
    const [baseText, quoteText] = parts.map((part) => part.trim()) as [string, string | undefined];
    const base = await resolveToken(baseText);
    if (quoteText === undefined || quoteText.toUpperCase() === 'USD') {
      return { text: `${base.symbol}/USD`, base, quote: USD };
    }
    const quote = await findToken(quoteText);
    if (!quote) {
      throw new AppError(
        'MARKET__PAIR_NOT_FOUND',
        `Trading pair ${base.symbol}/${quoteText} is not available`,
      );
    }
    return { text: `${base.symbol}/${quote.symbol}`, base, quote };
  }

  const chartRangeOf = (interval: ChartInterval, from: number | undefined, to: number | undefined) =>
    chartRange(interval, from, to, nowSeconds());

  /** Candles of a pair: USD candles of the base, divided by the quote's candles unless the quote is USD. */
  async function pairCandles(
    pair: ResolvedPair,
    interval: ChartInterval,
    fromOpen: number,
    toOpen: number,
    history: 'chart' | 'all' = 'chart',
  ): Promise<TCandle[]> {
    if (toOpen < fromOpen) return [];
    const base = await data.getCandles({ token: pair.base, interval, fromOpen, toOpen, history });
    if (pair.quote === USD) return base.map(formatCandle);
    const quote = await data.getCandles({ token: pair.quote, interval, fromOpen, toOpen, history });
    return divideCandles(base, quote);
  }

  const chartParts = createChartParts({
    resolvePair,
    pairCandles,
    nowSeconds,
    range: chartRangeOf,
    source: data.source,
    nowMs: () => deps.now().getTime(),
  });

  async function search(query: string, limit: number, source: SearchSource): Promise<TTokenSearchResult[]> {
    const text = query.trim();
    if (text.length < SEARCH_MIN_CHARS) return [];
    let results: TTokenSearchResult[];
    try {
      results = await data.searchTokens(text, limit, source);
    } catch (error) {
      const reason = isAppError(error) ? error.message : 'unexpected error';
      if (!isAppError(error)) deps.log.error({ err: error }, 'token search failed');
      // Only the reason: clients put the spec's 'Search failed: ' in front themselves.
      throw new AppError('MARKET__SEARCH_FAILED', reason);
    }
    return results
      .filter((result) => result.symbol.trim() !== '')
      .sort(byMarketCapDescending)
      .slice(0, limit);
  }

  return {
    resolveToken,
    findToken,
    resolvePair,

    /** A token's current USD price as a decimal string (throws MARKET__NO_DATA without one). */
    async getUsdPrice(token: MarketToken): Promise<string> {
      return (await quoteOf(token)).price;
    },

    /** GET /market/dashboard-coins: BTC, ETH and SOL, computed once per second. */
    getDashboardCoins(): Promise<TDashboardCoins> {
      const second = nowSeconds();
      if (dashboardCache && dashboardCache.second === second) return dashboardCache.value;
      const value = (async () => {
        const [btc, eth, sol] = await Promise.all(
          ['BTC', 'ETH', 'SOL'].map(async (symbol) => quoteOf(await resolveToken(symbol))),
        );
        const card = (quote: TokenQuote) => ({
          price: toWireNumber(quote.price),
          change_24h: toWireNumber(quote.change24h),
        });
        return { btc: card(btc!), eth: card(eth!), sol: card(sol!) };
      })();
      dashboardCache = { second, value };
      value.catch(() => {
        if (dashboardCache?.value === value) dashboardCache = undefined;
      });
      return value;
    },

    listMarkets(): Promise<TTokenMarketData[]> {
      return data.listMarkets();
    },

    async getMarketData(symbol: string): Promise<TTokenMarketData> {
      const token = await resolveToken(symbol);
      const market = await data.getMarket(token);
      if (!market) throw new AppError('MARKET__NO_DATA', `No market data for ${token.symbol}`);
      return market;
    },

    /** Hourly closes, oldest first, the last one for the hour in progress. */
    async getHistory(symbol: string, limit: number): Promise<TMarketHistory> {
      const token = await resolveToken(symbol);
      const { fromOpen, toOpen } = chartRangeOf('1H', nowSeconds() - (limit - 1) * 3600, undefined);
      const candles = await data.getCandles({ token, interval: '1H', fromOpen, toOpen });
      return {
        symbol: token.symbol,
        interval: '1H',
        points: candles.slice(-limit).map((candle) => ({
          timestamp: new Date(candle.time * 1000).toISOString(),
          time: candle.time,
          price: candle.close,
          volume: toWireNumber(centsToUsd(candle.volumeCents)),
        })),
      };
    },

    /**
     * The closed candles of a pair for a strategy (backtests, bots): `interval` candles opening in
     * [fromOpen, toOpen], never the one still forming, from all the history the source has (not only
     * what charts show). No per-request candle limit: callers bound it.
     */
    async getClosedPairCandles(
      symbolOrPair: string,
      interval: ChartInterval,
      fromOpen: number,
      toOpen: number,
    ): Promise<{ pair: ResolvedPair; candles: TCandle[] }> {
      const pair = await resolvePair(symbolOrPair);
      const step = CHART_INTERVAL_SECONDS[interval];
      const lastClosed = Math.floor(nowSeconds() / step) * step - step;
      const from = Math.ceil(fromOpen / step) * step;
      const to = Math.min(Math.floor(toOpen / step) * step, lastClosed);
      return { pair, candles: await pairCandles(pair, interval, from, to, 'all') };
    },

    /**
     * The same closed candles as getClosedPairCandles, as the pair's two USD legs, not yet divided
     * (`quote` null for a USD quote): backtests divide them with pair-candles.ts's divideCandles in
     * their worker thread, since a year of hours is ~35,000 decimal divisions (~0.4 s of event loop).
     */
    async getClosedPairLegs(
      symbolOrPair: string,
      interval: ChartInterval,
      fromOpen: number,
      toOpen: number,
    ): Promise<{ pair: ResolvedPair; base: RawCandle[]; quote: RawCandle[] | null }> {
      const pair = await resolvePair(symbolOrPair);
      const step = CHART_INTERVAL_SECONDS[interval];
      const lastClosed = Math.floor(nowSeconds() / step) * step - step;
      const from = Math.ceil(fromOpen / step) * step;
      const to = Math.min(Math.floor(toOpen / step) * step, lastClosed);
      if (to < from) return { pair, base: [], quote: pair.quote === USD ? null : [] };
      const legOf = (token: MarketToken) =>
        data.getCandles({ token, interval, fromOpen: from, toOpen: to, history: 'all' });
      const base = await legOf(pair.base);
      return { pair, base, quote: pair.quote === USD ? null : await legOf(pair.quote) };
    },

    /**
     * GET /market/chart/{symbol} (a symbol in USD, or a pair) in parts: what describes it, its closed
     * candles (shared by every request of the window until its next candle closes, see
     * chart-windows.ts) and the forming one, if the window reaches now.
     */
    getChartParts: chartParts,

    async getHistoricalChart(
      symbol: string,
      timeframe: THistoricalTimeframe,
      format: 'line' | 'ohlc',
    ): Promise<THistoricalChart> {
      const token = await resolveToken(symbol);
      const span = HISTORICAL_SPANS[timeframe];
      const { fromOpen, toOpen } = chartRangeOf(span.interval, nowSeconds() - span.seconds, undefined);
      const candles = (await data.getCandles({ token, interval: span.interval, fromOpen, toOpen })).map(
        formatCandle,
      );
      return {
        symbol: token.symbol,
        timeframe,
        format,
        interval: span.interval,
        ...(format === 'line'
          ? { points: candles.map((candle) => ({ time: candle.time, value: candle.close })) }
          : { candles }),
        source: data.source,
      };
    },

    /** GET /trading/pair/{id}: one base unit in quote units. */
    async getPairPrice(id: string): Promise<TPairPrice> {
      const pair = await resolvePair(id);
      const [base, quote] = await Promise.all([quoteOf(pair.base), quoteOf(pair.quote)]);
      const price = new Dec(base.price).div(quote.price);
      const price24hAgo = new Dec(base.price24hAgo).div(quote.price24hAgo);
      return {
        pair: pair.text,
        base: pair.base.symbol,
        quote: pair.quote.symbol,
        base_mint: pair.base.mint,
        quote_mint: pair.quote.mint,
        price: toWireNumber(toSignificant(price)),
        base_price_usd: toWireNumber(base.price),
        quote_price_usd: toWireNumber(quote.price),
        change_24h: toWireNumber(percentChange(price, price24hAgo)),
        timestamp: new Date(Math.max(base.observedAt, quote.observedAt)).toISOString(),
        source: data.source,
      };
    },

    search,

    async getPools(address: string): Promise<TPool[]> {
      return data.getPools(address);
    },

    getTrending(): Promise<TTrendingToken[]> {
      return data.getTrending();
    },

    getEnhancedTrending(): Promise<TEnhancedTrendingToken[]> {
      return data.getEnhancedTrending();
    },

    /** POST /api/tokens/decimals: a known token's decimals, else the spec's fallback table (then 6). */
    async getTokenDecimals(request: TTokenDecimalsRequest): Promise<TTokenDecimals> {
      const known =
        (request.mint ? await data.findToken(request.mint) : undefined) ??
        (request.symbol ? await data.findToken(request.symbol) : undefined);
      if (known && known.decimals !== null) {
        return { symbol: known.symbol, mint: known.mint, decimals: known.decimals, source: 'known' };
      }
      const key = request.symbol ?? request.mint!;
      return {
        symbol: request.symbol ?? null,
        mint: request.mint ?? null,
        decimals: getTokenDecimals(key),
        source: 'fallback',
      };
    },

    // ── Real-time payloads ────────────────────────────────────────────────────────────────────

    /** The `prices` channel payload: every listed token, computed once per second. */
    getPricesTick(): Promise<TPricesTick> {
      const second = nowSeconds();
      if (pricesCache && pricesCache.second === second) return pricesCache.value;
      const value = (async () => {
        const prices: TPricesTick['prices'] = {};
        for (const quote of await data.listPrices()) {
          // Keyed by the token's own symbol case (`jitoSOL`), see market-channels.ts.
          prices[quote.symbol] = {
            price: toWireNumber(quote.price),
            change_24h: toWireNumber(quote.change24h),
          };
        }
        return { timestamp: new Date(second * 1000).toISOString(), prices };
      })();
      pricesCache = { second, value };
      value.catch(() => {
        if (pricesCache?.value === value) pricesCache = undefined;
      });
      return value;
    },

    async getPriceTick(symbol: string): Promise<TPriceTick> {
      const quote = await quoteOf(await resolveToken(symbol));
      return {
        symbol: quote.token.symbol,
        price: toWireNumber(quote.price),
        change_24h: toWireNumber(quote.change24h),
        volume_24h: quote.volume24h === null ? null : toWireNumber(quote.volume24h),
        timestamp: new Date(nowSeconds() * 1000).toISOString(),
      };
    },

    /**
     * Candles of a pair from the candle opening at `sinceOpen` (or the forming one) to the forming
     * one: the stream sends all but the last as closed.
     */
    async getRecentCandles(
      pair: ResolvedPair,
      interval: ChartInterval,
      sinceOpen: number | undefined,
    ): Promise<TCandle[]> {
      const step = CHART_INTERVAL_SECONDS[interval];
      const formingOpen = Math.floor(nowSeconds() / step) * step;
      const fromOpen = sinceOpen === undefined ? formingOpen : Math.max(sinceOpen, formingOpen - step);
      return pairCandles(pair, interval, fromOpen, formingOpen);
    },
  };
}

export type MarketService = ReturnType<typeof createMarketService>;
export type { ResolvedPair, RawCandle };
export type { ChartParts } from './chart-windows';
