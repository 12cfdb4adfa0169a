import { describe, expect, it } from 'vitest';
import { formatCompact, formatCompactUsd, formatPercentChange } from '../../lib/format';
import { getChangeDirection, isPositive, toDecimal } from './market-values';

describe('market values read the JSON numbers of the market API as decimals', () => {
  it.each([
    [187.42, '187.42'],
    [0.1, '0.1'],
    [1.7924e-7, '1.7924e-7'],
    [1612345678.5, '1612345678.5'],
  ])('toDecimal(%j) is %s', (input, expected) => {
    expect(toDecimal(input)?.toString()).toBe(expected);
  });

  it('gives null for missing or non-finite values', () => {
    expect(toDecimal(null)).toBeNull();
    expect(toDecimal(undefined)).toBeNull();
    expect(toDecimal(Number.NaN)).toBeNull();
    expect(toDecimal(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('reads positivity, direction and percent changes, rounding half up in decimals', () => {
    expect(isPositive(0)).toBe(false);
    expect(isPositive(0.0001)).toBe(true);
    expect(isPositive(toDecimal(-1))).toBe(false);
    expect(getChangeDirection(-3.27)).toBe('down');
    expect(getChangeDirection(0)).toBe('flat');
    expect(getChangeDirection(-0.001)).toBe('flat');
    expect(getChangeDirection(0.005)).toBe('up');
    expect(formatPercentChange(0)).toBe('0.00%');
    expect(getChangeDirection(null)).toBe('flat');
    expect(formatPercentChange(6.5)).toBe('+6.50%');
    expect(formatPercentChange(-3.271)).toBe('-3.27%');
    expect(formatPercentChange(-0.001)).toBe('0.00%');
    // 1.005 is below 1.005 as a double; as the decimal it stands for it rounds half up.
    expect(formatPercentChange(1.005)).toBe('+1.01%');
    expect(formatPercentChange(undefined)).toBe('—');
  });

  it('formats large figures compactly', () => {
    expect(formatCompact(185626283.18)).toBe('185.63M');
    expect(formatCompact(78901)).toBe('78.9K');
    expect(formatCompactUsd(2567381672.24)).toBe('$2.57B');
    expect(formatCompactUsd(null)).toBe('—');
    expect(formatCompact(Number.NaN)).toBe('—');
  });
});
