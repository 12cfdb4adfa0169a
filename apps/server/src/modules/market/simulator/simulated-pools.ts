import type { TPool } from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { deriveAddress } from '../../../lib/derived-address';
import { centsToUsd, decimalString, toSignificant, toWireNumber } from '../../../lib/wire-decimal';
import type { SimulatedToken } from './simulated-tokens';
import type { TokenSnapshot } from './simulated-snapshot';

const DAY_MS = 86_400_000;

export interface SimulatedPool {
  address: string;
  dex: string;
  quote: SimulatedToken;
  liquidityShare: number;
  volumeShare: number;
  createdAt: string;
}

export interface SimulatedPools {
  /** A token's pools by its mint, the main pool first. */
  readonly byToken: Map<string, SimulatedPool[]>;
  readonly byAddress: Map<string, { token: SimulatedToken; pool: SimulatedPool }>;
}

/**
 * Two pools per token: the main one on its own DEX against SOL (USDC for SOL, SOL-pegged tokens and
 * stablecoins) with 70 % of the liquidity, and a second against the other quote on another DEX.
 */
export function buildSimulatedPools(
  tokens: readonly SimulatedToken[],
  bySymbol: ReadonlyMap<string, SimulatedToken>,
): SimulatedPools {
  const sol = bySymbol.get('SOL')!;
  const usdc = bySymbol.get('USDC')!;
  const byToken = new Map<string, SimulatedPool[]>();
  const byAddress = new Map<string, { token: SimulatedToken; pool: SimulatedPool }>();
  for (const token of tokens) {
    const launched = Date.parse(`${token.launchedAt}T00:00:00Z`);
    const mainQuote = token === sol || token.peg?.symbol === 'SOL' || token.isStable ? usdc : sol;
    const secondQuote = mainQuote === usdc ? (token === usdc ? bySymbol.get('USDT')! : sol) : usdc;
    const secondDex = token.dex === 'orca' ? 'raydium' : 'orca';
    const list: SimulatedPool[] = [
      {
        address: deriveAddress(`solterm-sim-pool:${token.mint}:${mainQuote.mint}:${token.dex}`),
        dex: token.dex,
        quote: mainQuote,
        liquidityShare: 0.7,
        volumeShare: 0.75,
        createdAt: new Date(launched + 3_600_000).toISOString(),
      },
    ];
    if (secondQuote !== token) {
      list.push({
        address: deriveAddress(`solterm-sim-pool:${token.mint}:${secondQuote.mint}:${secondDex}`),
        dex: secondDex,
        quote: secondQuote,
        liquidityShare: 0.3,
        volumeShare: 0.25,
        createdAt: new Date(launched + 9 * DAY_MS).toISOString(),
      });
    }
    byToken.set(token.mint, list);
    for (const pool of list) byAddress.set(pool.address, { token, pool });
  }
  return { byToken, byAddress };
}

function dexLabels(dex: string): string[] {
  if (dex === 'orca') return ['CLMM'];
  if (dex === 'meteora') return ['DLMM'];
  if (dex === 'raydium') return ['CPMM'];
  return [];
}

/** A pool on the wire, priced from the snapshots of its base and quote tokens. */
export function poolWire(pool: SimulatedPool, base: TokenSnapshot, quote: TokenSnapshot): TPool {
  const token = base.token;
  const priceNative = new Dec(decimalString(base.price)).div(decimalString(quote.price));
  return {
    pair_address: pool.address,
    dex_id: pool.dex,
    chain_id: 'solana',
    url: null,
    labels: dexLabels(pool.dex),
    base_token: { address: token.mint, name: token.name, symbol: token.symbol },
    quote_token: { address: pool.quote.mint, name: pool.quote.name, symbol: pool.quote.symbol },
    price_usd: base.price,
    price_native: toWireNumber(toSignificant(priceNative)),
    liquidity_usd: toWireNumber(centsToUsd(Math.round(base.liquidityCents * pool.liquidityShare))),
    volume_24h: toWireNumber(centsToUsd(Math.round(base.volume24hCents * pool.volumeShare))),
    price_change_24h: toWireNumber(base.change24h),
    fdv: toWireNumber(new Dec(decimalString(base.price)).times(token.totalSupply).toFixed(2)),
    market_cap: toWireNumber(base.marketCap.toFixed(2)),
    pair_created_at: pool.createdAt,
  };
}
