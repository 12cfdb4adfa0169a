import { getListedToken } from '@solterm/contracts';

/**
 * One token of the simulated market: identity (real mainnet mint and decimals), plausible market
 * facts (price, supplies, volume, liquidity, launch date) and the parameters of its price process.
 * Prices and supplies are decimal strings; only the process parameters are floats.
 */
export interface UniverseToken {
  readonly symbol: string;
  readonly name: string;
  readonly mint: string;
  readonly decimals: number;
  /** Centre of the mean-reverting price process, USD. */
  readonly basePrice: string;
  readonly circulatingSupply: string;
  readonly totalSupply: string;
  /** Annualised volatility of log price (0.75 = 75 %). */
  readonly annualVolatility: number;
  /** Loading on the shared market factor at hourly and longer scales (0 = independent). */
  readonly marketBeta: number;
  /** Typical traded value per day, USD. */
  readonly dailyVolumeUsd: number;
  /** Typical pooled liquidity, USD. */
  readonly liquidityUsd: number;
  /** The DEX of the token's main pool. */
  readonly dex: 'raydium' | 'orca' | 'meteora' | 'pumpswap';
  /** Launch date of the token on Solana (ISO date). */
  readonly launchedAt: string;
  /** CoinGecko id, used by the live adapter; null when the coin has none we could confirm. */
  readonly coingeckoId: string | null;
  /** Other names the lookup accepts (`BITCOIN` for BTC, `SOLANA` for SOL). */
  readonly aliases: readonly string[];
  /** Tracks another token's path times a ratio (liquid-staking tokens, bridged ether). */
  readonly peg?: { readonly symbol: string; readonly ratio: number };
  /** A US-dollar stablecoin: the price stays at 1 within a band of ±0.1 %. */
  readonly isStable?: boolean;
}

export type TokenFacts = Omit<UniverseToken, 'mint' | 'decimals' | 'name'> & { name?: string };

/**
 * A listed token with its market facts. Mint, decimals (and the name unless given) come from the listed tokens of @solterm/contracts,
 * the one list the local cluster's genesis also creates: a token the simulator shows is a token
 * the embedded chain holds.
 */
export function listed(facts: TokenFacts): UniverseToken {
  const known = getListedToken(facts.symbol);
  if (!known) throw new Error(`${facts.symbol} is not a listed token (@solterm/contracts LISTED_TOKENS)`);
  return { ...facts, name: facts.name ?? known.name, mint: known.mint, decimals: known.decimals };
}
