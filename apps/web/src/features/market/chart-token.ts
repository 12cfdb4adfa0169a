import {
  getTokenBySymbol,
  isSolanaAddress,
  USDC_MINT,
  WRAPPED_SOL_MINT,
  type TTokenSearchResult,
} from '@solterm/contracts';
import type { PairSelection } from './trading-state';

/** What the chart is drawn for: the base token's address and chain. */
export interface ChartToken {
  address: string;
  chain: string;
  name: string;
  /** How it was found, in the spec's order. */
  via: 'pair' | 'selection' | 'search' | 'essential' | 'identity';
}

/** The two tokens the chart always knows (spec part 1 §4 "essential mappings"). */
const ESSENTIAL: Readonly<Record<string, { address: string; name: string }>> = {
  SOL: { address: WRAPPED_SOL_MINT, name: 'Solana' },
  USDC: { address: USDC_MINT, name: 'USD Coin' },
};

export interface ChartTokenSources {
  /** The dynamic search (GET /trading/dexscreener). */
  search(symbol: string): Promise<TTokenSearchResult[]>;
}

/**
 * Resolves the chart's token (spec part 1 §4 "chart token lookup"), in order: an address written
 * in the pair text; the token picked from the search results (the selection's address); a dynamic
 * search for the symbol (a Solana result with exactly that symbol, largest market cap first);
 * the essential mappings for SOL and USDC; the fixed identity map. Returns null when none knows the
 * token. A failed dynamic search only throws when nothing after it knows the token either.
 */
export async function resolveChartToken(
  selection: PairSelection,
  sources: ChartTokenSources,
): Promise<ChartToken | null> {
  const base = selection.base;
  if (isSolanaAddress(base)) return { address: base, chain: 'solana', name: selection.baseName, via: 'pair' };
  if (selection.baseAddress) {
    return {
      address: selection.baseAddress,
      chain: selection.chainId,
      name: selection.baseName,
      via: 'selection',
    };
  }

  let searchError: unknown = null;
  try {
    const results = await sources.search(base);
    const match = results.find(
      (result) => result.symbol.toUpperCase() === base && result.chain_id === 'solana' && result.address,
    );
    if (match) return { address: match.address, chain: 'solana', name: match.name, via: 'search' };
  } catch (error) {
    searchError = error;
  }

  const essential = ESSENTIAL[base];
  if (essential) return { ...essential, chain: 'solana', via: 'essential' };
  const known = getTokenBySymbol(base);
  if (known) return { address: known.mint, chain: 'solana', name: known.name, via: 'identity' };
  if (searchError) throw searchError;
  return null;
}
