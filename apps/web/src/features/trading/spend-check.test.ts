import { SpecDecimal } from '@solterm/contracts';
import { describe, expect, it } from 'vitest';
import { getBalance, spendShortfall } from './spend-check';

const check = (token: string, decimals: number, amount: string, balances: Record<string, number>) =>
  spendShortfall({ token, decimals, amount: new SpecDecimal(amount), balances });
const text = (shortfall: ReturnType<typeof spendShortfall>) =>
  shortfall && {
    token: shortfall.token,
    required: shortfall.required.toFixed(),
    available: shortfall.available.toFixed(),
  };

describe('spendShortfall (the server rule, previewed)', () => {
  it('refuses more of a token than the wallet holds, in whole tokens', () => {
    expect(text(check('USDC', 6, '1500', { SOL: 1, USDC: 100 }))).toEqual({
      token: 'USDC',
      required: '1500',
      available: '100',
    });
    expect(check('USDC', 6, '100', { USDC: 100 })).toBeNull();
  });

  it('rounds what is paid up to whole base units, as the escrow does', () => {
    // 0.5 × 150.000001 = 75.0000005 USDC: the server escrows 75.000001.
    expect(text(check('USDC', 6, '75.0000005', { USDC: 75 }))).toEqual({
      token: 'USDC',
      required: '75.000001',
      available: '75',
    });
  });

  it('lets SOL be spent whole, but never down to less than the rent-exempt minimum', () => {
    expect(check('SOL', 9, '1.25', { SOL: 1.25 })).toBeNull();
    expect(check('SOL', 9, '1.2', { SOL: 1.25 })).toBeNull();
    // 0.0001 SOL would be left: below the 0.00089088 SOL minimum, so the runtime refuses it.
    expect(text(check('SOL', 9, '1.2499', { SOL: 1.25 }))).toEqual({
      token: 'SOL',
      required: '1.25079088',
      available: '1.25',
    });
  });

  it('counts a token the wallet does not hold as 0, matching symbols case-insensitively', () => {
    expect(text(check('BONK', 5, '1000', { SOL: 2 }))?.available).toBe('0');
    expect(getBalance({ usdc: 12.5 }, 'USDC').toFixed()).toBe('12.5');
    expect(getBalance({ USDC: Number.NaN }, 'USDC').toFixed()).toBe('0');
  });
});
