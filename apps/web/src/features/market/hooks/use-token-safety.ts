import { useQuery } from '@tanstack/react-query';
import { isSolanaAddress, WRAPPED_SOL_MINT, getListedToken } from '@solterm/contracts';
import { marketApi, marketKeys } from '../api/market-api';

/** The server keeps a mint's answer a minute: so does the browser. */
const SAFETY_STALE_MS = 60_000;

/** The mint of a token shown by symbol (`SOL` is wrapped SOL), or null when it has none on Solana. */
export function mintOfToken(symbolOrMint: string, address?: string | null): string | null {
  if (address && isSolanaAddress(address)) return address;
  if (isSolanaAddress(symbolOrMint)) return symbolOrMint;
  if (symbolOrMint.toUpperCase() === 'SOL') return WRAPPED_SOL_MINT;
  return getListedToken(symbolOrMint)?.mint ?? null;
}

/** GET /api/tokens/{mint}/safety for one mint (nothing asked without a mint). */
export function useTokenSafety(mint: string | null) {
  return useQuery({
    queryKey: marketKeys.tokenSafety(mint ?? ''),
    queryFn: ({ signal }) => marketApi.getTokenSafety(mint!, signal),
    enabled: mint !== null,
    staleTime: SAFETY_STALE_MS,
    retry: false,
  });
}
