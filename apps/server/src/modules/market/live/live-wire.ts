import type {
  TEnhancedTrendingToken,
  TTokenMarketData,
  TTokenSearchResult,
  TTrendingToken,
} from '@solterm/contracts';
import type { RawCandle } from '../candle-aggregation';
import type { MarketToken } from '../market-data';
import { formatAge } from '../simulator/token-art';
import type { TCoinMarket, TMarketChart, TTrending } from './coingecko';
import type { TDexPair, TTokenBoost } from './dexscreener';
import type { TJupiterToken } from './jupiter';
import {
  numberFromText,
  percentOf,
  priceFromText,
  providerNumberOf,
  usdFromText,
  usdOf,
} from './provider-values';

const DAY = 86_400;

/** The providers' answers in the spec's wire shapes (a live token's identity comes from the universe). */

export function marketFromCoin(coin: TCoinMarket, token: MarketToken, now: Date): TTokenMarketData {
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
    last_updated: coin.last_updated ?? now.toISOString(),
    source: 'coingecko',
  };
}

export function marketFromPair(pair: TDexPair, token: MarketToken, now: Date): TTokenMarketData {
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
    last_updated: now.toISOString(),
    source: 'dexscreener',
  };
}

export function searchResultOfPair(pair: TDexPair, decimals: number | null): TTokenSearchResult {
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
    decimals,
    source: 'dexscreener',
    pair_address: pair.pairAddress,
    dex_id: pair.dexId,
    chain_id: pair.chainId,
    liquidity_usd: usdOf(pair.liquidity?.usd),
    volume_24h: usdOf(pair.volume?.h24),
  };
}

export function searchResultOfJupiterToken(token: TJupiterToken): TTokenSearchResult {
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
    source: 'jupiter',
    pair_address: null,
    dex_id: null,
    chain_id: 'solana',
    liquidity_usd: usdOf(token.liquidity),
    volume_24h: token.stats24h ? usdOf(volume) : null,
  };
}

type TrendingItem = NonNullable<TTrending['coins']>[number]['item'];

export function trendingOfCoin(item: TrendingItem, mint: string | null): TTrendingToken {
  const price = item.data?.price;
  return {
    symbol: item.symbol.toUpperCase(),
    name: item.name,
    address: mint,
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
      price === undefined ? null : typeof price === 'number' ? providerNumberOf(price) : priceFromText(price),
    market_cap_rank: item.market_cap_rank ?? null,
    score: item.score,
    thumb: item.thumb ?? null,
  };
}

export function enhancedTrendingOf(
  boost: TTokenBoost,
  pair: TDexPair,
  context: { score: number; nowSeconds: number; decimals: number | null },
): TEnhancedTrendingToken {
  const createdAt = pair.pairCreatedAt ? Math.floor(pair.pairCreatedAt / 1000) : null;
  return {
    symbol: pair.baseToken.symbol,
    name: pair.baseToken.name,
    address: boost.tokenAddress,
    age: createdAt === null ? null : formatAge(context.nowSeconds - createdAt),
    created_at: createdAt === null ? null : new Date(createdAt * 1000).toISOString(),
    total_volume: usdOf(pair.volume?.h24),
    market_cap: usdOf(pair.marketCap ?? pair.fdv),
    holders: null,
    price_change_24h: percentOf(pair.priceChange?.h24),
    price: numberFromText(pair.priceUsd),
    market_cap_rank: null,
    score: context.score,
    thumb: boost.icon ?? pair.info?.imageUrl ?? null,
    liquidity_usd: usdOf(pair.liquidity?.usd),
    pair_address: pair.pairAddress,
    dex_id: pair.dexId,
    chain_id: pair.chainId,
    decimals: context.decimals,
  };
}

/**
 * Candles of `step` seconds opening in [fromOpen, toOpen] from CoinGecko's price points (open, high,
 * low and close are the points inside each bucket).
 */
export function candlesFromChart(
  chart: TMarketChart,
  step: number,
  fromOpen: number,
  toOpen: number,
): RawCandle[] {
  const volumes = chart.total_volumes ?? [];
  const out: RawCandle[] = [];
  let volumeIndex = 0;
  for (const [ms, price] of chart.prices) {
    const time = Math.floor(ms / 1000);
    const bucket = Math.floor(time / step) * step;
    if (bucket < fromOpen || bucket > toOpen) continue;
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
}
