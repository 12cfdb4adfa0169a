import { describe, it, expect } from 'vitest';
import {
  DASHBOARD_COIN_PAIRS,
  formatPair,
  getDashboardCoinPair,
  getTradingContext,
  parsePair,
  parsePairOrDefault,
} from './pair';
import { DEFAULT_PAIR } from './constants';
import { USDC_MINT, WRAPPED_SOL_MINT } from './token-identity';

const BONK_MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const UNKNOWN_MINT = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

describe('parsePair', () => {
  it('reads a symbol pair and fills known mints', () => {
    expect(parsePair('SOL/USDC')).toEqual({
      base: 'SOL',
      quote: 'USDC',
      baseMint: WRAPPED_SOL_MINT,
      quoteMint: USDC_MINT,
    });
  });

  it('upper-cases symbols and trims sides', () => {
    expect(parsePair(' bonk / sol ')).toMatchObject({ base: 'BONK', quote: 'SOL', baseMint: BONK_MINT });
  });

  it('leaves unknown symbols without mints', () => {
    expect(parsePair('FOO/USDC')).toEqual({ base: 'FOO', quote: 'USDC', quoteMint: USDC_MINT });
  });

  it('reads a mint pair and resolves known mints to symbols', () => {
    expect(parsePair(`${BONK_MINT}/${WRAPPED_SOL_MINT}`)).toEqual({
      base: 'BONK',
      quote: 'SOL',
      baseMint: BONK_MINT,
      quoteMint: WRAPPED_SOL_MINT,
    });
  });

  it('keeps an unknown mint as the side and its mint, case preserved', () => {
    expect(parsePair(`${UNKNOWN_MINT}/${USDC_MINT}`)).toEqual({
      base: UNKNOWN_MINT,
      quote: 'USDC',
      baseMint: UNKNOWN_MINT,
      quoteMint: USDC_MINT,
    });
  });

  it('accepts a mixed pair', () => {
    expect(parsePair(`${UNKNOWN_MINT}/SOL`)).toMatchObject({
      base: UNKNOWN_MINT,
      quote: 'SOL',
      quoteMint: WRAPPED_SOL_MINT,
    });
  });

  it.each([[''], ['SOL'], ['SOL/'], ['/USDC'], ['SOL/USDC/USDT'], [' / '], ['SOL-USDC']])(
    'returns null for %j',
    (text) => {
      expect(parsePair(text)).toBeNull();
    },
  );
});

describe('parsePairOrDefault', () => {
  it.each([[null], [undefined], [''], ['nonsense']])('falls back to SOL/USDC for %j', (text) => {
    expect(parsePairOrDefault(text)).toEqual(parsePair(DEFAULT_PAIR));
    expect(DEFAULT_PAIR).toBe('SOL/USDC');
  });

  it('reads a valid pair', () => {
    expect(parsePairOrDefault('BTC/SOL').base).toBe('BTC');
  });
});

describe('formatPair', () => {
  it('upper-cases symbols and keeps mints as written', () => {
    expect(formatPair('sol', 'usdc')).toBe('SOL/USDC');
    expect(formatPair(UNKNOWN_MINT, 'sol')).toBe(`${UNKNOWN_MINT}/SOL`);
  });

  it('round-trips through parsePair', () => {
    const pair = parsePair('wif/usdt');
    expect(pair && formatPair(pair.base, pair.quote)).toBe('WIF/USDT');
  });
});

describe('getTradingContext', () => {
  it.each([
    ['/trade', 'trade'],
    ['/trade?pair=SOL/USDC', 'trade'],
    ['/dashboard', 'dashboard'],
    ['/dashboardd', 'dashboard'],
    ['/futures', 'futures'],
    ['/Dashboard', 'dashboard'],
    ['/future', 'trade'], // the futures page route does not contain "futures"
    ['/bots', 'trade'],
    ['/', 'trade'],
    ['', 'trade'],
  ] as const)('%j → %s', (pathname, context) => {
    expect(getTradingContext(pathname)).toBe(context);
  });
});

describe('dashboard coin pairs', () => {
  it('maps the coin cards to their pairs', () => {
    expect(DASHBOARD_COIN_PAIRS).toEqual({ btc: 'BTC/SOL', eth: 'ETH/SOL', sol: 'SOL/USDC' });
  });

  it.each([
    ['btc', 'BTC/SOL'],
    ['ETH', 'ETH/SOL'],
    [' Sol ', 'SOL/USDC'],
    ['doge', undefined],
    ['constructor', undefined],
  ] as const)('getDashboardCoinPair(%j) = %s', (symbol, pair) => {
    expect(getDashboardCoinPair(symbol)).toBe(pair);
  });
});
