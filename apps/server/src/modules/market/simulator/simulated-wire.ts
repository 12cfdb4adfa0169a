import type { TTokenMarketData, TTokenSearchResult, TTrendingToken } from '@solterm/contracts';
import { centsToUsd, toWireNumber } from '../../../lib/wire-decimal';
import type { SearchSource } from '../market-data';
import type { SimulatedPool } from './simulated-pools';
import type { TokenSnapshot } from './simulated-snapshot';
import { estimateHolderCount, type SimulatedToken } from './simulated-tokens';
import { formatAge } from './token-art';

/** A token's market data on the wire, as of the snapshot taken at `snapshotSecond`. */
export function marketWire(
  entry: TokenSnapshot,
  rank: number | null,
  snapshotSecond: number,
): TTokenMarketData {
  const { token } = entry;
  return {
    symbol: token.symbol,
    name: token.name,
    address: token.mint,
    decimals: token.decimals,
    price: entry.price,
    change_24h: toWireNumber(entry.change24h),
    market_cap: toWireNumber(entry.marketCap.toFixed(2)),
    market_cap_rank: rank,
    volume_24h: toWireNumber(centsToUsd(entry.volume24hCents)),
    high_24h: entry.high24h,
    low_24h: entry.low24h,
    liquidity_usd: toWireNumber(centsToUsd(entry.liquidityCents)),
    circulating_supply: toWireNumber(token.circulatingSupply),
    total_supply: toWireNumber(token.totalSupply),
    last_updated: new Date(snapshotSecond * 1000).toISOString(),
    source: 'simulator',
  };
}

export function searchResultWire(
  entry: TokenSnapshot,
  mainPool: SimulatedPool | undefined,
): TTokenSearchResult {
  const { token } = entry;
  return {
    id: token.mint,
    name: token.name,
    symbol: token.symbol,
    current_price: entry.price,
    price: entry.price,
    market_cap: toWireNumber(entry.marketCap.toFixed(2)),
    price_change_24h: toWireNumber(entry.change24h),
    address: token.mint,
    decimals: token.decimals,
    source: 'simulator',
    pair_address: mainPool?.address ?? null,
    dex_id: mainPool?.dex ?? null,
    chain_id: 'solana',
    liquidity_usd: toWireNumber(centsToUsd(entry.liquidityCents)),
    volume_24h: toWireNumber(centsToUsd(entry.volume24hCents)),
  };
}

export function trendingWire(
  entry: TokenSnapshot,
  score: number,
  context: { rank: number | null; nowSeconds: number; thumb: string | null },
): TTrendingToken {
  const { token } = entry;
  return {
    symbol: token.symbol,
    name: token.name,
    address: token.mint,
    age: formatAge(context.nowSeconds - token.launchedAtSeconds),
    created_at: new Date(token.launchedAtSeconds * 1000).toISOString(),
    total_volume: toWireNumber(centsToUsd(entry.volume24hCents)),
    market_cap: toWireNumber(entry.marketCap.toFixed(2)),
    holders: estimateHolderCount(token),
    price_change_24h: toWireNumber(entry.change24h),
    price: entry.price,
    market_cap_rank: context.rank,
    score,
    thumb: context.thumb,
  };
}

/** Whether a search query finds a token: by mint, symbol, name or alias (and mint prefix as fallback). */
export function matchesQuery(token: SimulatedToken, query: string, source: SearchSource): boolean {
  if (token.mint === query) return true;
  const upper = query.toUpperCase();
  const symbol = token.symbol.toUpperCase();
  const name = token.name.toUpperCase();
  if (symbol.startsWith(upper) || name.startsWith(upper) || symbol.includes(upper) || name.includes(upper))
    return true;
  if (token.aliases.some((alias) => alias.toUpperCase().includes(upper))) return true;
  // The fallback source also finds tokens by the start of their mint address.
  return source === 'fallback' && query.length >= 4 && token.mint.startsWith(query);
}
