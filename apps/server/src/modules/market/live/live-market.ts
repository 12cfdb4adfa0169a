import type { FastifyBaseLogger } from 'fastify';
import {
  CHART_INTERVAL_SECONDS,
  isSolanaAddress,
  type TEnhancedTrendingToken,
  type TTrendingToken,
} from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { AppError } from '../../../lib/app-error';
import { decimalString } from '../../../lib/wire-decimal';
import type { RawCandle } from '../candle-aggregation';
import type { CandleRequest, MarketData, MarketToken, TokenQuote } from '../market-data';
import { TOKEN_UNIVERSE, type UniverseToken } from '../simulator/token-universe';
import { createCoinGecko } from './coingecko';
import { createDexScreener, type TDexPair } from './dexscreener';
import { createJupiter } from './jupiter';
import {
  candlesFromChart,
  enhancedTrendingOf,
  marketFromCoin,
  marketFromPair,
  searchResultOfJupiterToken,
  searchResultOfPair,
  trendingOfCoin,
} from './live-wire';
import { createProviderClient } from '../../../lib/provider-client';
import { bestPair, poolOf, usdText } from './provider-values';

export interface LiveMarketOptions {
  coingeckoUrl: string;
  coingeckoApiKey?: string;
  dexscreenerUrl: string;
  jupiterPriceUrl: string;
  jupiterTokensUrl: string;
  jupiterApiKey?: string;
  timeoutMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
  fetch?: typeof fetch;
}

const DAY = 86_400;
const TRENDING_SIZE = 15;

/**
 * Live market data: CoinGecko for prices, markets, charts and trending; DexScreener for search,
 * pools and Solana trending; Jupiter for prices of any mint and the fallback search. Known tokens
 * (the simulator's universe, with their CoinGecko ids and mints) resolve offline; others through the
 * providers. Every call is cached (see each provider's TTLs) and time-limited.
 */
export function createLiveMarket(options: LiveMarketOptions): MarketData {
  const common = {
    timeoutMs: options.timeoutMs,
    log: options.log,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  const coingecko = createCoinGecko(
    createProviderClient({
      ...common,
      name: 'CoinGecko',
      baseUrl: options.coingeckoUrl,
      headers: options.coingeckoApiKey
        ? {
            [options.coingeckoUrl.includes('pro-api') ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key']:
              options.coingeckoApiKey,
          }
        : {},
    }),
  );
  const dexscreener = createDexScreener(
    createProviderClient({ ...common, name: 'DexScreener', baseUrl: options.dexscreenerUrl }),
  );
  const jupiterHeaders: Record<string, string> = options.jupiterApiKey
    ? { 'x-api-key': options.jupiterApiKey }
    : {};
  const jupiter = createJupiter(
    createProviderClient({
      ...common,
      name: 'Jupiter',
      baseUrl: options.jupiterPriceUrl,
      headers: jupiterHeaders,
    }),
    createProviderClient({
      ...common,
      name: 'Jupiter',
      baseUrl: options.jupiterTokensUrl,
      headers: jupiterHeaders,
    }),
  );

  const bySymbol = new Map(TOKEN_UNIVERSE.map((token) => [token.symbol.toUpperCase(), token]));
  const byMint = new Map(TOKEN_UNIVERSE.map((token) => [token.mint, token]));
  const byAlias = new Map<string, UniverseToken>();
  for (const token of TOKEN_UNIVERSE) {
    byAlias.set(token.name.toUpperCase(), token);
    for (const alias of token.aliases) byAlias.set(alias.toUpperCase(), token);
  }
  // One market row per CoinGecko id: the first universe token using it (ETH before WETH).
  const byCoingeckoId = new Map<string, UniverseToken>();
  for (const token of TOKEN_UNIVERSE) {
    if (token.coingeckoId && !byCoingeckoId.has(token.coingeckoId))
      byCoingeckoId.set(token.coingeckoId, token);
  }
  const coingeckoIds = [...byCoingeckoId.keys()];

  const toToken = (token: UniverseToken): MarketToken => ({
    symbol: token.symbol,
    name: token.name,
    mint: token.mint,
    decimals: token.decimals,
  });
  const universeOf = (token: MarketToken) =>
    (token.mint ? byMint.get(token.mint) : undefined) ?? bySymbol.get(token.symbol.toUpperCase());

  return {
    source: 'coingecko',

    async start() {},
    async stop() {},

    async listMarkets() {
      const coins = await coingecko.coinMarkets(coingeckoIds);
      return coins.flatMap((coin) => {
        const token = byCoingeckoId.get(coin.id);
        return token ? [marketFromCoin(coin, toToken(token), options.now())] : [];
      });
    },

    async listPrices() {
      return (await this.listMarkets()).map((market) => ({
        symbol: market.symbol,
        price: decimalString(market.price),
        change24h: new Dec(decimalString(market.change_24h)).toFixed(2),
      }));
    },

    async findToken(query) {
      const text = query.trim();
      const known = byMint.get(text) ?? bySymbol.get(text.toUpperCase()) ?? byAlias.get(text.toUpperCase());
      if (known) return toToken(known);
      if (isSolanaAddress(text)) {
        const found = (await jupiter.searchTokens(text)).find((token) => token.id === text);
        if (found)
          return { symbol: found.symbol, name: found.name, mint: found.id, decimals: found.decimals };
        const pair = bestPair(await dexscreener.tokenPairs('solana', text));
        return pair
          ? { symbol: pair.baseToken.symbol, name: pair.baseToken.name, mint: text, decimals: null }
          : undefined;
      }
      const upper = text.toUpperCase();
      const pair = bestPair(
        (await dexscreener.search(text)).filter(
          (candidate) => candidate.chainId === 'solana' && candidate.baseToken.symbol.toUpperCase() === upper,
        ),
      );
      return pair
        ? {
            symbol: pair.baseToken.symbol,
            name: pair.baseToken.name,
            mint: pair.baseToken.address,
            decimals: null,
          }
        : undefined;
    },

    async getMarket(token) {
      const known = universeOf(token);
      if (known?.coingeckoId) {
        const coin = (await coingecko.coinMarkets(coingeckoIds)).find(
          (candidate) => candidate.id === known.coingeckoId,
        );
        if (coin) return marketFromCoin(coin, toToken(known), options.now());
      }
      if (!token.mint) return undefined;
      const pair = bestPair(await dexscreener.tokenPairs('solana', token.mint));
      return pair ? marketFromPair(pair, token, options.now()) : undefined;
    },

    async getQuote(token): Promise<TokenQuote | undefined> {
      const known = universeOf(token);
      const observedAt = options.now().getTime();
      let price: number | undefined;
      let change: number | null | undefined;
      let volume: number | null | undefined;
      if (known?.coingeckoId) {
        const entry = (await coingecko.simplePrice(coingeckoIds))?.[known.coingeckoId];
        price = entry?.usd;
        change = entry?.usd_24h_change;
        volume = entry?.usd_24h_vol;
      }
      if (price === undefined && token.mint) {
        const entry = (await jupiter.prices([token.mint]))[token.mint];
        price = entry?.usdPrice;
        change = entry?.priceChange24h;
      }
      if (price === undefined || !Number.isFinite(price)) return undefined;
      const current = new Dec(decimalString(price));
      const changePercent = new Dec(decimalString(change ?? 0));
      // The provider gives the change, not the old price: price24hAgo = price / (1 + change / 100).
      const before = current.div(changePercent.div(100).plus(1));
      return {
        token: known ? toToken(known) : token,
        price: current.toFixed(),
        price24hAgo: before.toSignificantDigits(10).toFixed(),
        change24h: changePercent.toFixed(2),
        volume24h: usdText(volume),
        observedAt,
      };
    },

    async getCandles(request: CandleRequest): Promise<RawCandle[]> {
      const step = CHART_INTERVAL_SECONDS[request.interval];
      if (step === 1) {
        throw new AppError(
          'MARKET__INTERVAL_UNAVAILABLE',
          'The 1S interval is not available from the live market data providers',
        );
      }
      const known = universeOf(request.token);
      if (!known?.coingeckoId) {
        throw new AppError(
          'MARKET__NO_DATA',
          `No chart data for ${request.token.symbol} from the live market data providers`,
        );
      }
      const now = Math.floor(options.now().getTime() / 1000);
      const days = Math.min(365, Math.max(1, Math.ceil((now - request.fromOpen) / DAY)));
      const chart = await coingecko.marketChart(known.coingeckoId, days);
      if (!chart) return [];
      return candlesFromChart(chart, step, request.fromOpen, request.toOpen);
    },

    async searchTokens(query, _limit, source) {
      if (source === 'fallback') {
        return (await jupiter.searchTokens(query)).map(searchResultOfJupiterToken);
      }
      // One result per token: its deepest pool.
      const byToken = new Map<string, TDexPair>();
      for (const pair of await dexscreener.search(query)) {
        const key = `${pair.chainId}:${pair.baseToken.address}`;
        const current = byToken.get(key);
        if (!current || (pair.liquidity?.usd ?? 0) > (current.liquidity?.usd ?? 0)) byToken.set(key, pair);
      }
      return [...byToken.values()].map((pair) =>
        searchResultOfPair(pair, byMint.get(pair.baseToken.address)?.decimals ?? null),
      );
    },

    async getPools(address) {
      const pools = await dexscreener.tokenPairs('solana', address);
      if (pools.length > 0) return pools.map(poolOf);
      return (await dexscreener.pair('solana', address)).map(poolOf);
    },

    async getTrending(): Promise<TTrendingToken[]> {
      const trending = await coingecko.trending();
      return (trending?.coins ?? [])
        .slice(0, TRENDING_SIZE)
        .map(({ item }) => trendingOfCoin(item, byCoingeckoId.get(item.id)?.mint ?? null));
    },

    async getEnhancedTrending(): Promise<TEnhancedTrendingToken[]> {
      const boosts = (await dexscreener.topBoosts())
        .filter((boost) => boost.chainId === 'solana')
        .slice(0, TRENDING_SIZE);
      const pairs = await dexscreener.tokens(
        'solana',
        boosts.map((boost) => boost.tokenAddress),
      );
      const now = Math.floor(options.now().getTime() / 1000);
      return boosts.flatMap((boost, index) => {
        const pair = bestPair(
          pairs.filter((candidate) => candidate.baseToken.address === boost.tokenAddress),
        );
        if (!pair) return [];
        return [
          enhancedTrendingOf(boost, pair, {
            score: index,
            nowSeconds: now,
            decimals: byMint.get(boost.tokenAddress)?.decimals ?? null,
          }),
        ];
      });
    },
  };
}
