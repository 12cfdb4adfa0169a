import { describe, expect, it, vi } from 'vitest';
import { WRAPPED_SOL_MINT } from '@solterm/contracts';
import { resolveChartToken } from './chart-token';
import { makeSearchResult } from './test/market-test-utils';
import { selectionFromPair, selectionFromToken, type PairSelection } from './trading-state';

const GOAT = 'CzLSujWBLFsSjncfkh59rUFqvafWcY5tzedWJSuypump';

function bare(pair: string): PairSelection {
  // A selection with no address known, as for a symbol outside the identity map.
  return { ...selectionFromPair(pair)!, baseAddress: null };
}

describe('chart token lookup (spec order)', () => {
  it('1. takes an address written in the pair text', async () => {
    const search = vi.fn();
    const token = await resolveChartToken(selectionFromPair(`${GOAT}/SOL`)!, { search });
    expect(token).toMatchObject({ address: GOAT, via: 'pair' });
    expect(search).not.toHaveBeenCalled();
  });

  it('2. takes the token picked from the search results', async () => {
    const search = vi.fn();
    const selection = selectionFromToken({ symbol: 'GOAT', name: 'Goatseus Maximus', address: GOAT }, 'SOL');
    expect(await resolveChartToken(selection, { search })).toMatchObject({ address: GOAT, via: 'selection' });
    expect(search).not.toHaveBeenCalled();
  });

  it('3. searches for the symbol, taking a Solana result with exactly that symbol', async () => {
    const search = vi.fn(async () => [
      makeSearchResult({ symbol: 'GOATX', address: 'So11111111111111111111111111111111111111112' }),
      makeSearchResult({ symbol: 'GOAT', chain_id: 'ethereum', address: '0xabc' }),
      makeSearchResult({ symbol: 'goat', address: GOAT, name: 'Goatseus Maximus' }),
    ]);
    expect(await resolveChartToken(bare('GOAT/SOL'), { search })).toMatchObject({
      address: GOAT,
      name: 'Goatseus Maximus',
      via: 'search',
    });
    expect(search).toHaveBeenCalledWith('GOAT');
  });

  it('4. falls back to the essential SOL and USDC mappings, then 5. the identity map', async () => {
    const search = vi.fn(async () => []);
    expect(await resolveChartToken(bare('SOL/USDC'), { search })).toMatchObject({
      address: WRAPPED_SOL_MINT,
      via: 'essential',
    });
    expect(await resolveChartToken(bare('JUP/SOL'), { search })).toMatchObject({
      address: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN',
      via: 'identity',
    });
  });

  it('returns null for an unknown token, and throws only when the search failed too', async () => {
    expect(await resolveChartToken(bare('NOPE/SOL'), { search: async () => [] })).toBeNull();
    const failing = { search: vi.fn(async () => Promise.reject(new Error('offline'))) };
    await expect(resolveChartToken(bare('NOPE/SOL'), failing)).rejects.toThrow('offline');
    // A failed search is not fatal when a mapping knows the token.
    expect(await resolveChartToken(bare('SOL/USDC'), failing)).toMatchObject({ via: 'essential' });
  });
});
