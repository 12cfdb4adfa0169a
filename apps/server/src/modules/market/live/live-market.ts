import type { FastifyBaseLogger } from 'fastify';
import {
  CHART_INTERVAL_SECONDS,
  isSolanaAddress,
  type TEnhancedTrendingToken,
  type TTokenMarketData,
  type TTokenSearchResult,
  type TTrendingToken,
} from '@solterm/contracts';
import { AppError } from '../../../lib/app-error';
import type { RawCandle } from '../candle-aggregation';
import type { CandleRequest, MarketData, MarketToken, TokenQuote } from '../market-data';
import { Dec } from '@solterm/engine';
import { decimalString } from '../../../lib/wire-decimal';
import { formatAge } from '../simulator/token-art';
import { TOKEN_UNIVERSE, type UniverseToken } from '../simulator/token-universe';
import { createCoinGecko, type TCoinMarket } from './coingecko';
import { createDexScreener, type TDexPair } from './dexscreener';
import { createJupiter } from './jupiter';
import { createProviderClient } from './provider-client';
import {
  providerNumberOf,
  numberFromText,
  usdText,
  usdOf,
  percentOf,
  usdFromText,
  priceFromText,
  bestPair,
  poolOf,
} from './provider-values';

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

  function marketFromCoin(coin: TCoinMarket, token: UniverseToken): TTokenMarketData {
    return {
      symbol: token.symbol,
      name: token.name,
      address: token.mint,
      decimals: token.decimals,
      price: providerNumberOf(coin.current_price) ?? 0,
      change_24h: percentOf(coin.price_change_percentage_24h),
      market_cap: usdOf(coin.market_cap),
      market_cap_rank: coin.market_cap_rank ?? null,
      volume_24h: usdOf(coin.total_volume),
      high_24h: providerNumberOf(coin.high_24h),
      low_24h: providerNumberOf(coin.low_24h),
      liquidity_usd: null,
      circulating_supply: providerNumberOf(coin.circulating_supply),
      total_supply: providerNumberOf(coin.total_supply),
      last_updated: coin.last_updated ?? options.now().toISOString(),
      source: 'coingecko',
    };
  }

  function marketFromPair(pair: TDexPair, token: MarketToken): TTokenMarketData {
    return {
      symbol: token.symbol,
      name: token.name,
      address: token.mint,
      decimals: token.decimals,
      price: numberFromText(pair.priceUsd) ?? 0,
      change_24h: percentOf(pair.priceChange?.h24),
      market_cap: usdOf(pair.marketCap ?? pair.fdv),
      market_cap_rank: null,
      volume_24h: usdOf(pair.volume?.h24),
      high_24h: null,
      low_24h: null,
      liquidity_usd: usdOf(pair.liquidity?.usd),
      circulating_supply: null,
      total_supply: null,
      last_updated: options.now().toISOString(),
      source: 'dexscreener',
    };
  }

  function searchResultOfPair(pair: TDexPair): TTokenSearchResult {
    const price = numberFromText(pair.priceUsd) ?? 0;
    return {
      id: pair.baseToken.address,
      name: pair.baseToken.name,
      symbol: pair.baseToken.symbol,
      current_price: price,
      price,
      market_cap: usdOf(pair.marketCap ?? pair.fdv) ?? 0,
      price_change_24h: percentOf(pair.priceChange?.h24),
      address: pair.baseToken.address,
      decimals: byMint.get(pair.baseToken.address)?.decimals ?? null,
      source: 'dexscreener',
      pair_address: pair.pairAddress,
      dex_id: pair.dexId,
      chain_id: pair.chainId,
      liquidity_usd: usdOf(pair.liquidity?.usd),
      volume_24h: usdOf(pair.volume?.h24),
    };
  }

  return {
    source: 'coingecko',

    async start() {},
    async stop() {},

    async listMarkets() {
      const coins = await coingecko.coinMarkets(coingeckoIds);
      return coins.flatMap((coin) => {
        const token = byCoingeckoId.get(coin.id);
        return token ? [marketFromCoin(coin, token)] : [];
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
        if (coin) return marketFromCoin(coin, known);
      }
      if (!token.mint) return undefined;
      const pair = bestPair(await dexscreener.tokenPairs('solana', token.mint));
      return pair ? marketFromPair(pair, token) : undefined;
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
      const volumes = chart.total_volumes ?? [];
      const out: RawCandle[] = [];
      let volumeIndex = 0;
      for (const [ms, price] of chart.prices) {
        const time = Math.floor(ms / 1000);
        const bucket = Math.floor(time / step) * step;
        if (bucket < request.fromOpen || bucket > request.toOpen) continue;
        while (volumeIndex + 1 < volumes.length && volumes[volumeIndex + 1]![0] <= ms) volumeIndex += 1;
        // CoinGecko's volumes are rolling 24 h totals: a bucket's share is its length over a day.
        const volumeCents = Math.round(((volumes[volumeIndex]?.[1] ?? 0) * 100 * Math.min(step, DAY)) / DAY);
        const last = out[out.length - 1];
        if (last && last.time === bucket) {
          last.high = Math.max(last.high, price);
          last.low = Math.min(last.low, price);
          last.close = price;
        } else {
          out.push({ time: bucket, open: price, high: price, low: price, close: price, volumeCents });
        }
      }
      return out;
    },

    async searchTokens(query, _limit, source) {
      if (source === 'fallback') {
        return (await jupiter.searchTokens(query)).map((token) => {
          const price = providerNumberOf(token.usdPrice) ?? 0;
          const volume = (token.stats24h?.buyVolume ?? 0) + (token.stats24h?.sellVolume ?? 0);
          return {
            id: token.id,
            name: token.name,
            symbol: token.symbol,
            current_price: price,
            price,
            market_cap: usdOf(token.mcap ?? token.fdv) ?? 0,
            price_change_24h: percentOf(token.stats24h?.priceChange),
            address: token.id,
            decimals: token.decimals,
            source: 'jupiter' as const,
            pair_address: null,
            dex_id: null,
            chain_id: 'solana',
            liquidity_usd: usdOf(token.liquidity),
            volume_24h: token.stats24h ? usdOf(volume) : null,
          };
        });
      }
      // One result per token: its deepest pool.
      const byToken = new Map<string, TDexPair>();
      for (const pair of await dexscreener.search(query)) {
        const key = `${pair.chainId}:${pair.baseToken.address}`;
        const current = byToken.get(key);
        if (!current || (pair.liquidity?.usd ?? 0) > (current.liquidity?.usd ?? 0)) byToken.set(key, pair);
      }
      return [...byToken.values()].map(searchResultOfPair);
    },

    async getPools(address) {
      const pools = await dexscreener.tokenPairs('solana', address);
      if (pools.length > 0) return pools.map(poolOf);
      return (await dexscreener.pair('solana', address)).map(poolOf);
    },

    async getTrending(): Promise<TTrendingToken[]> {
      const trending = await coingecko.trending();
      return (trending?.coins ?? []).slice(0, TRENDING_SIZE).map(({ item }) => {
        const known = byCoingeckoId.get(item.id);
        const price = item.data?.price;
        return {
          symbol: item.symbol.toUpperCase(),
          name: item.name,
          address: known?.mint ?? null,
          age: null,
          created_at: null,
          total_volume: usdFromText(item.data?.total_volume),
          market_cap: usdFromText(item.data?.market_cap),
          holders: null,
          price_change_24h:
            item.data?.price_change_percentage_24h?.usd === undefined
              ? null
              : percentOf(item.data.price_change_percentage_24h.usd),
          price:
            price === undefined
              ? null
              : typeof price === 'number'
                ? providerNumberOf(price)
                : priceFromText(price),
          market_cap_rank: item.market_cap_rank ?? null,
          score: item.score,
          thumb: item.thumb ?? null,
        };
      });
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
        const createdAt = pair.pairCreatedAt ? Math.floor(pair.pairCreatedAt / 1000) : null;
        return [
          {
            symbol: pair.baseToken.symbol,
            name: pair.baseToken.name,
            address: boost.tokenAddress,
            age: createdAt === null ? null : formatAge(now - createdAt),
            created_at: createdAt === null ? null : new Date(createdAt * 1000).toISOString(),
            total_volume: usdOf(pair.volume?.h24),
            market_cap: usdOf(pair.marketCap ?? pair.fdv),
            holders: null,
            price_change_24h: percentOf(pair.priceChange?.h24),
            price: numberFromText(pair.priceUsd),
            market_cap_rank: null,
            score: index,
            thumb: boost.icon ?? pair.info?.imageUrl ?? null,
            liquidity_usd: usdOf(pair.liquidity?.usd),
            pair_address: pair.pairAddress,
            dex_id: pair.dexId,
            chain_id: pair.chainId,
            decimals: byMint.get(boost.tokenAddress)?.decimals ?? null,
          },
        ];
      });
    },
  };
}
