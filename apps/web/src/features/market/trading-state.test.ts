import { describe, expect, it } from 'vitest';
import { USDC_MINT, WRAPPED_SOL_MINT } from '@solterm/contracts';
import {
  createTradingStore,
  DEFAULT_SELECTION,
  getPairId,
  selectionFromPair,
  selectionFromToken,
} from './trading-state';

const BONK_MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const OTHER_MINT = 'CzLSujWBLFsSjncfkh59rUFqvafWcY5tzedWJSuypump';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('pair selections', () => {
  it('reads a pair text with the identity map and friendly names', () => {
    expect(selectionFromPair('btc/sol')).toMatchObject({
      pair: 'BTC/SOL',
      base: 'BTC',
      quote: 'SOL',
      baseName: 'Bitcoin',
      quoteAddress: WRAPPED_SOL_MINT,
      chainId: 'solana',
    });
    expect(selectionFromPair(`${BONK_MINT}/${USDC_MINT}`)).toMatchObject({
      pair: 'BONK/USDC',
      baseAddress: BONK_MINT,
      baseName: 'Bonk',
    });
    expect(selectionFromPair('SOL')).toBeNull();
    expect(selectionFromPair('SOL/SOL')).toBeNull();
    expect(DEFAULT_SELECTION.pair).toBe('SOL/USDC');
  });

  it('builds SYMBOL/QUOTE from a search result or trending token', () => {
    expect(
      selectionFromToken(
        { symbol: 'goat', name: 'Goatseus Maximus', address: OTHER_MINT, chain_id: 'solana' },
        'usdt',
      ),
    ).toEqual({
      pair: 'GOAT/USDT',
      base: 'GOAT',
      quote: 'USDT',
      baseAddress: OTHER_MINT,
      quoteAddress: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
      baseName: 'Goatseus Maximus',
      chainId: 'solana',
    });
  });

  it('names the pair by symbols, or by the mint for a token that is not the symbol usual one', () => {
    expect(getPairId(selectionFromPair('SOL/USDC')!)).toBe('SOL/USDC');
    expect(getPairId(selectionFromToken({ symbol: 'BONK', name: 'Bonk', address: BONK_MINT }, 'SOL'))).toBe(
      'BONK/SOL',
    );
    expect(getPairId(selectionFromToken({ symbol: 'GOAT', name: 'Goat', address: OTHER_MINT }, 'SOL'))).toBe(
      `${OTHER_MINT}/SOL`,
    );
    // A token on another chain has no Solana mint to name it by.
    expect(
      getPairId(
        selectionFromToken(
          {
            symbol: 'PEPE',
            name: 'Pepe',
            address: '0x6982508145454ce325ddbe47a25d4ec3d2311933',
            chain_id: 'ethereum',
          },
          'SOL',
        ),
      ),
    ).toBe('PEPE/SOL');
  });
});

describe('trading store', () => {
  it('keeps a selection per context', () => {
    const store = createTradingStore({ storage: null, now: () => 0 });
    store.switchPair('dashboard', selectionFromPair('BTC/SOL')!);
    expect(store.getSelection('dashboard').pair).toBe('BTC/SOL');
    expect(store.getSelection('trade').pair).toBe('SOL/USDC');
    expect(store.getSelection('futures').pair).toBe('SOL/USDC');
  });

  it('ignores a switch within 100 ms of the previous one', () => {
    let now = 1_000;
    const store = createTradingStore({ storage: null, now: () => now });
    expect(store.switchPair('trade', selectionFromPair('BTC/SOL')!)).toBe(true);
    now += 99;
    expect(store.switchPair('trade', selectionFromPair('ETH/SOL')!)).toBe(false);
    expect(store.getSelection('trade').pair).toBe('BTC/SOL');
    now += 1;
    expect(store.switchPair('trade', selectionFromPair('ETH/SOL')!)).toBe(true);
    expect(store.getSelection('trade').pair).toBe('ETH/SOL');
    expect(store.getSwitchCount()).toBe(2);
  });

  it('lets one switch toast through per 100 ms', () => {
    let now = 5_000;
    const store = createTradingStore({ storage: null, now: () => now });
    expect(store.claimToast()).toBe(true);
    now += 50;
    expect(store.claimToast()).toBe(false);
    now += 50;
    expect(store.claimToast()).toBe(true);
  });

  it('notifies subscribers and survives a reload through storage', () => {
    const storage = memoryStorage();
    const store = createTradingStore({ storage, now: () => 0 });
    let calls = 0;
    store.subscribe(() => (calls += 1));
    store.setSelection('futures', selectionFromPair('ETH/USDC')!);
    expect(calls).toBe(1);
    const reloaded = createTradingStore({ storage, now: () => 0 });
    expect(reloaded.getSelection('futures').pair).toBe('ETH/USDC');
    expect(reloaded.getSelection('trade').pair).toBe('SOL/USDC');
  });

  it('starts from the defaults when storage holds garbage', () => {
    const storage = memoryStorage();
    storage.setItem('solterm.trading_state', '{not json');
    expect(createTradingStore({ storage }).getSelection('trade')).toEqual(DEFAULT_SELECTION);
  });
});
