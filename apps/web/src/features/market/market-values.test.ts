import { describe, expect, it } from 'vitest';
import {
  formatCompact,
  formatCompactUsd,
  formatPercentChange,
  getChangeDirection,
  isPositive,
  toDecimal,
  toNumber,
} from './market-values';

describe('market values accept decimal strings and JSON numbers alike', () => {
  it.each([
    ['187.42', '187.42'],
    [187.42, '187.42'],
    ['0.00000017924', '1.7924e-7'],
    [1.7924e-7, '1.7924e-7'],
  ])('toDecimal(%j) is %s', (input, expected) => {
    expect(toDecimal(input)?.toString()).toBe(expected);
  });

  it('gives null for missing or unparsable values', () => {
    expect(toDecimal(null)).toBeNull();
    expect(toDecimal(undefined)).toBeNull();
    expect(toDecimal('')).toBeNull();
    expect(toDecimal('abc')).toBeNull();
    expect(toNumber('NaN')).toBeNull();
  });

  it('reads positivity, direction and percent changes from either form', () => {
    expect(isPositive('0')).toBe(false);
    expect(isPositive(0.0001)).toBe(true);
    expect(isPositive(toDecimal('-1'))).toBe(false);
    expect(getChangeDirection('-3.27')).toBe('down');
    expect(getChangeDirection(0)).toBe('up');
    expect(getChangeDirection(null)).toBe('flat');
    expect(formatPercentChange('6.5')).toBe('+6.50%');
    expect(formatPercentChange(-3.271)).toBe('-3.27%');
    expect(formatPercentChange('-0.001')).toBe('0.00%');
    expect(formatPercentChange(undefined)).toBe('—');
  });

  it('formats large figures compactly', () => {
    expect(formatCompact('185626283.18')).toBe('185.63M');
    expect(formatCompact(78901)).toBe('78.9K');
    expect(formatCompactUsd('2567381672.24')).toBe('$2.57B');
    expect(formatCompactUsd(null)).toBe('—');
  });
});
