import { hashString } from '../../../lib/counter-hash';
import type { PathParams } from './price-process';
import { TOKEN_UNIVERSE, type UniverseToken } from './token-universe';

const HOURS_PER_YEAR = 8760;
/** Stablecoins stay within ±0.1 % of one dollar. */
const STABLE_BAND: readonly [number, number] = [0.999, 1.001];

/** A universe token with the parameters of its price path. */
export interface SimulatedToken extends UniverseToken {
  readonly params: PathParams;
  /** Unix seconds of the launch: no candles exist before it. */
  readonly launchedAtSeconds: number;
}

function paramsOf(token: UniverseToken, bySymbol: Map<string, PathParams>): PathParams {
  const base = {
    key: hashString(token.mint),
    logBase: Math.log(Number(token.basePrice)),
    sigmaHour: token.annualVolatility / Math.sqrt(HOURS_PER_YEAR),
    marketBeta: token.marketBeta,
    significantDigits: token.isStable ? 6 : 10,
    minuteVolumeCents: (token.dailyVolumeUsd * 100) / 1440,
  };
  if (token.isStable) return { ...base, band: STABLE_BAND };
  if (token.peg) {
    const ref = bySymbol.get(token.peg.symbol);
    if (!ref) throw new Error(`${token.symbol} is pegged to ${token.peg.symbol}, which must come first`);
    return { ...base, peg: { ref, logRatio: Math.log(token.peg.ratio) } };
  }
  return base;
}

/** The simulator's tokens with their path parameters, in universe order. */
export function buildSimulatedTokens(universe: readonly UniverseToken[] = TOKEN_UNIVERSE): SimulatedToken[] {
  const bySymbol = new Map<string, PathParams>();
  return universe.map((token) => {
    const params = paramsOf(token, bySymbol);
    bySymbol.set(token.symbol, params);
    return {
      ...token,
      params,
      launchedAtSeconds: Math.floor(Date.parse(`${token.launchedAt}T00:00:00Z`) / 1000),
    };
  });
}

/** Facts about a simulated token that other simulations (holders) build on. */
export interface SimulatedTokenFacts {
  symbol: string;
  decimals: number;
  /** Whole tokens. */
  totalSupply: string;
  basePrice: string;
  dex: string;
  holderCount: number;
}

/** Deterministic estimate of how many wallets hold a token, from its typical market cap. */
export function estimateHolderCount(token: UniverseToken): number {
  const marketCap = Number(token.basePrice) * Number(token.circulatingSupply);
  const memeFactor = token.annualVolatility >= 1.2 ? 3 : 1;
  return Math.max(50, Math.round(12 * memeFactor * marketCap ** 0.42));
}

/** Looks up the facts of a universe token by mint (undefined for any other mint). */
export function createTokenFactsLookup(universe: readonly UniverseToken[] = TOKEN_UNIVERSE) {
  const byMint = new Map(universe.map((token) => [token.mint, token]));
  return (mint: string): SimulatedTokenFacts | undefined => {
    const token = byMint.get(mint);
    return token
      ? {
          symbol: token.symbol,
          decimals: token.decimals,
          totalSupply: token.totalSupply,
          basePrice: token.basePrice,
          dex: token.dex,
          holderCount: estimateHolderCount(token),
        }
      : undefined;
  };
}
