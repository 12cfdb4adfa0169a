import { USDC_MINT, USDT_MINT, type TTokenSafety } from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import type { ChainService } from '../chain/chain.service';
import { assessTokenSafety } from './safety-flags';

/** How long a mint's answer is served from memory. */
export const TOKEN_SAFETY_CACHE_MS = 60_000;
/** Mints kept in the cache at most (the oldest go first). */
const MAX_CACHED_MINTS = 2_000;

/** Mints whose authorities are known to be their issuer's (on any cluster: the mint names the issuer). */
const ISSUER_OF_MINT: Readonly<Record<string, string>> = { [USDC_MINT]: 'Circle', [USDT_MINT]: 'Tether' };

export interface TokenSafetyDeps {
  chain: ChainService;
  now: () => Date;
  /** Wallets the app itself runs (the venue's maker, escrow, vault), by address, with their labels. */
  knownAccounts: ReadonlyMap<string, string>;
  /** Authorities known to be the issuer's (the embedded cluster's treasury mints every listed token). */
  knownIssuers: ReadonlyMap<string, string>;
  cacheMs?: number;
}

/**
 * Token safety from the chain the app uses: the mint (program, authorities, Token-2022 extensions)
 * and its largest token accounts with their owners, assessed into flags and a level. Each mint's
 * answer is kept for a minute; concurrent requests for one mint share one read.
 */
export function createTokenSafetyService(deps: TokenSafetyDeps) {
  const cacheMs = deps.cacheMs ?? TOKEN_SAFETY_CACHE_MS;
  const cache = new Map<string, { at: number; value: Promise<TTokenSafety> }>();

  async function compute(mintAddress: string): Promise<TTokenSafety> {
    const mint = await deps.chain.getParsedMint(mintAddress);
    if (!mint) throw new AppError('MARKET__NOT_A_MINT', `No token mint at ${mintAddress}`);
    const largest = await deps.chain.getLargestTokenAccounts(mintAddress);
    const issuer =
      ISSUER_OF_MINT[mintAddress] ??
      [mint.mintAuthority, mint.freezeAuthority]
        .map((authority) => (authority ? deps.knownIssuers.get(authority) : undefined))
        .find((label) => label !== undefined);
    const assessed = assessTokenSafety({ mint, largest, knownAccounts: deps.knownAccounts, issuer });
    return {
      mint: mintAddress,
      token_program: mint.program,
      decimals: mint.decimals,
      supply: mint.supply.toString(),
      mint_authority: mint.mintAuthority,
      freeze_authority: mint.freezeAuthority,
      extensions: mint.extensions.map((entry) => entry.extension),
      top_holders: assessed.topHolders,
      top10_share: assessed.top10Share,
      flags: assessed.flags,
      level: assessed.level,
      checked_at: deps.now().toISOString(),
    };
  }

  return {
    /** The mint's safety, at most a minute old. */
    getSafety(mint: string): Promise<TTokenSafety> {
      const at = deps.now().getTime();
      const cached = cache.get(mint);
      if (cached && at - cached.at < cacheMs) return cached.value;
      const value = compute(mint);
      cache.delete(mint);
      if (cache.size >= MAX_CACHED_MINTS) cache.delete(cache.keys().next().value!);
      cache.set(mint, { at, value });
      // A failed read is not kept: the next request asks the chain again.
      value.catch(() => {
        if (cache.get(mint)?.value === value) cache.delete(mint);
      });
      return value;
    },
  };
}

export type TokenSafetyService = ReturnType<typeof createTokenSafetyService>;
