import { describe, expect, it } from 'vitest';
import { getListedToken, LISTED_TOKENS } from './listed-tokens';
import { isSolanaAddress, TOKEN_IDENTITIES } from './token-identity';

describe('LISTED_TOKENS', () => {
  it('holds the identity map first, then unique symbols and mints that are Solana addresses', () => {
    expect(LISTED_TOKENS.slice(0, TOKEN_IDENTITIES.length)).toEqual(TOKEN_IDENTITIES);
    expect(new Set(LISTED_TOKENS.map((token) => token.symbol.toUpperCase())).size).toBe(LISTED_TOKENS.length);
    expect(new Set(LISTED_TOKENS.map((token) => token.mint)).size).toBe(LISTED_TOKENS.length);
    for (const token of LISTED_TOKENS) {
      expect(isSolanaAddress(token.mint), token.symbol).toBe(true);
      expect(Number.isInteger(token.decimals) && token.decimals >= 0 && token.decimals <= 9).toBe(true);
    }
  });

  it('looks a token up by symbol in any case or by mint', () => {
    expect(getListedToken('goat')?.decimals).toBe(6);
    expect(getListedToken('JITOSOL')?.symbol).toBe('jitoSOL');
    expect(getListedToken('CzLSujWBLFsSjncfkh59rUFqvafWcY5tzedWJSuypump')?.symbol).toBe('GOAT');
    expect(getListedToken('NOPE')).toBeUndefined();
  });
});
