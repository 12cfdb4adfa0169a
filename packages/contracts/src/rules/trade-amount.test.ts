import { describe, it, expect } from 'vitest';
import {
  formatMinimumTradeAmount,
  getMinimumTradeAmount,
  getMinimumTradeFeeRate,
  parseTradeNumber,
  validateQuickTrade,
  validateTradeAmount,
} from './trade-amount';
import { SpecDecimal } from './decimal';
import { USDC_MINT, WRAPPED_SOL_MINT } from './token-identity';

describe('minimum trade amount', () => {
  it('assumes fees of (0.2 % + 0.05 %) × 1', () => {
    expect(getMinimumTradeFeeRate().toString()).toBe('0.0025');
  });

  it.each([
    ['USDC', '0.010025062656641604'],
    ['USDT', '0.010025062656641604'],
    ['USD', '0.010025062656641604'],
    ['usdc', '0.010025062656641604'],
    [USDC_MINT, '0.010025062656641604'],
    ['SOL', '0.0000010025062656641604'],
    [WRAPPED_SOL_MINT, '0.0000010025062656641604'],
    ['BONK', '0.0000010025062656641604'],
    ['DAI', '0.0000010025062656641604'],
  ] as const)('quote %s → %s', (quote, expected) => {
    expect(getMinimumTradeAmount(quote).toString()).toBe(expected);
  });

  it('is base / (1 − fees) with 18 significant digits', () => {
    const expected = new SpecDecimal('0.01').div(new SpecDecimal('0.9975'));
    expect(getMinimumTradeAmount('USDC').eq(expected)).toBe(true);
    expect(getMinimumTradeAmount('USDC').times('0.9975').toDecimalPlaces(16).toString()).toBe('0.01');
  });

  it.each([
    ['USDC', '0.01'],
    ['USDT', '0.01'],
    ['SOL', '0.000001'],
    ['RAY', '0.000001'],
  ] as const)('shows the %s minimum as %s', (quote, shown) => {
    expect(formatMinimumTradeAmount(quote)).toBe(shown);
  });
});

describe('parseTradeNumber', () => {
  it.each([
    ['1', '1'],
    ['1,000.5', '1000.5'],
    ['1,234,567', '1234567'],
    ['  2.5  ', '2.5'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['+3', '3'],
    ['1e-6', '0.000001'],
    ['1e308', '1e+308'],
    ['0.000000000000000001', '1e-18'],
  ] as const)('accepts %j as %s', (raw, expected) => {
    const parsed = parseTradeNumber(raw);
    expect(parsed.ok && parsed.value.toString()).toBe(expected);
  });

  it('accepts a JS number', () => {
    const parsed = parseTradeNumber(0.25);
    expect(parsed.ok && parsed.value.toString()).toBe('0.25');
  });

  it.each([
    ['', 'empty', 'Please enter both amount and price'],
    ['   ', 'empty', 'Please enter both amount and price'],
    [',', 'empty', 'Please enter both amount and price'],
    ['0', 'not_positive', 'Amount and price must be greater than 0'],
    ['0.000', 'not_positive', 'Amount and price must be greater than 0'],
    ['-0', 'not_positive', 'Amount and price must be greater than 0'],
    ['-1', 'not_positive', 'Amount and price must be greater than 0'],
    ['-1,000', 'not_positive', 'Amount and price must be greater than 0'],
    ['abc', 'not_a_number', 'Please enter a valid number'],
    ['1.2.3', 'not_a_number', 'Please enter a valid number'],
    ['0x10', 'not_a_number', 'Please enter a valid number'],
    ['1 000', 'not_a_number', 'Please enter a valid number'],
    ['NaN', 'not_a_number', 'Please enter a valid number'],
    ['12abc', 'not_a_number', 'Please enter a valid number'],
    ['Infinity', 'not_finite', 'Amount must be a finite number'],
    ['-Infinity', 'not_finite', 'Amount must be a finite number'],
    ['1e309', 'not_finite', 'Amount must be a finite number'],
  ] as const)('refuses %j (%s)', (raw, problem, error) => {
    expect(parseTradeNumber(raw)).toEqual({ ok: false, problem, error });
  });

  it.each([[null], [undefined], [Number.NaN]])('refuses %s', (raw) => {
    expect(parseTradeNumber(raw).ok).toBe(false);
  });
});

describe('validateTradeAmount', () => {
  it.each([
    // stablecoin quote: minimum 0.0100250626…
    ['0.0099', 'SOL', 'USDC', 'Minimum amount is 0.01 SOL (accounting for fees)'],
    ['0.01', 'SOL', 'USDC', 'Minimum amount is 0.01 SOL (accounting for fees)'], // below 0.010025 despite showing 0.01
    ['0.010025', 'SOL', 'USDT', 'Minimum amount is 0.01 SOL (accounting for fees)'],
    // SOL and other quotes: minimum 0.00000100250626…
    ['0.000001', 'BONK', 'SOL', 'Minimum amount is 0.000001 BONK (accounting for fees)'],
    ['0.0000010025', 'WIF', 'RAY', 'Minimum amount is 0.000001 WIF (accounting for fees)'],
  ] as const)('refuses %s %s/%s', (raw, base, quote, error) => {
    expect(validateTradeAmount(raw, base, quote)).toEqual({ ok: false, error });
  });

  it.each([
    ['0.010026', 'SOL', 'USDC'],
    ['0.0100250626566416040', 'SOL', 'USDC'], // exactly the minimum
    ['1,000.5', 'SOL', 'USDC'],
    ['0.0000010026', 'BONK', 'SOL'],
    ['1e308', 'SOL', 'USDC'],
  ] as const)('accepts %s %s/%s', (raw, base, quote) => {
    const result = validateTradeAmount(raw, base, quote);
    expect(result.ok).toBe(true);
  });

  it('returns the parsed value', () => {
    const result = validateTradeAmount('1,000.5', 'SOL', 'USDC');
    expect(result.ok && result.value.toString()).toBe('1000.5');
  });

  it('passes parse errors through', () => {
    expect(validateTradeAmount('0', 'SOL', 'USDC')).toEqual({
      ok: false,
      error: 'Amount and price must be greater than 0',
    });
    expect(validateTradeAmount('abc', 'SOL', 'USDC')).toEqual({
      ok: false,
      error: 'Please enter a valid number',
    });
  });
});

describe('validateQuickTrade', () => {
  const pair = { baseSymbol: 'SOL', quoteSymbol: 'USDC' };

  it.each([
    ['', '150', 'Please enter both amount and price'],
    ['1', '', 'Please enter both amount and price'],
    [' ', ' ', 'Please enter both amount and price'],
    ['0', '150', 'Amount and price must be greater than 0'],
    ['1', '0', 'Amount and price must be greater than 0'],
    ['1', '-5', 'Amount and price must be greater than 0'],
    ['0.001', '150', 'Minimum amount is 0.01 SOL (accounting for fees)'],
  ] as const)('amount %j, price %j → %s', (amount, price, error) => {
    expect(validateQuickTrade({ amount, price, ...pair })).toEqual({ ok: false, error });
  });

  it('returns both values when valid', () => {
    const result = validateQuickTrade({ amount: '2', price: '1,500.25', ...pair });
    expect(result.ok && [result.value.amount.toString(), result.value.price.toString()]).toEqual([
      '2',
      '1500.25',
    ]);
  });
});
