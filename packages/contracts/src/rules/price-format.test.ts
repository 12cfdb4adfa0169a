import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import {
  formatMarketCapMillions,
  formatPrice,
  formatUsd,
  formatUsdPrice,
  groupThousands,
} from './price-format';

describe('formatPrice precision table', () => {
  it.each([
    // below 1e-6 (non-zero): exponential, 2 digits, half up
    [0.000000123, '1.23e-7'],
    ['0.0000001235', '1.24e-7'], // half up (binary float toExponential would give 1.23e-7)
    [9.999e-7, '1.00e-6'],
    ['0.00000099999', '1.00e-6'],
    [1e-12, '1.00e-12'],
    // exactly 1e-6 is not below it: six decimals
    [0.000001, '0.000001'],
    ['0.0000015', '0.000002'],
    [0.001234567, '0.001235'],
    [0.0099, '0.009900'],
    ['0.0099999999', '0.010000'], // threshold on the raw value
    // from 0.01: four decimals
    [0.01, '0.0100'],
    [0.5, '0.5000'],
    ['0.12345', '0.1235'], // half up
    [0.99, '0.9900'],
    ['0.99999', '1.0000'],
    // from 1: two decimals, plain digits
    [1, '1.00'],
    ['1.005', '1.01'], // half up (float toFixed gives 1.00)
    [1234.5, '1234.50'],
    [1234567.891, '1234567.89'],
    // zero and unusable values
    [0, '0.00'],
    ['0', '0.00'],
    ['-0', '0.00'],
    [null, '0.00'],
    [undefined, '0.00'],
    ['abc', '0.00'],
    [Number.NaN, '0.00'],
    [Number.POSITIVE_INFINITY, '0.00'],
    // negatives use the magnitude
    [-0.000000123, '-1.23e-7'],
    [-0.005, '-0.005000'],
    [-0.5, '-0.5000'],
    [-2.345, '-2.35'],
  ] as const)('formatPrice(%s) = %s', (value, expected) => {
    expect(formatPrice(value)).toBe(expected);
  });

  it('accepts decimal.js values from any configuration', () => {
    expect(formatPrice(new Decimal('0.000000125'))).toBe('1.25e-7');
    expect(formatPrice(new Decimal('2.675'))).toBe('2.68');
  });

  it('always parses back to within half a displayed unit', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e12, noNaN: true }), (value) => {
        const shown = new Decimal(formatPrice(value));
        const decimals = value < 0.01 ? 6 : value < 1 ? 4 : 2;
        expect(
          shown
            .minus(new Decimal(value))
            .abs()
            .lte(new Decimal(`5e-${decimals + 1}`)),
        ).toBe(true);
      }),
    );
  });
});

describe('groupThousands', () => {
  it.each([
    ['0', '0'],
    ['999', '999'],
    ['1000', '1,000'],
    ['1234567.891', '1,234,567.891'],
    ['-1234', '-1,234'],
    ['1.23e-7', '1.23e-7'],
    ['abc', 'abc'],
  ] as const)('groupThousands(%j) = %j', (plain, expected) => {
    expect(groupThousands(plain)).toBe(expected);
  });
});

describe('formatUsd', () => {
  it.each([
    [1234.56, '$1,234.56'],
    ['1234.555', '$1,234.56'],
    [1234567.895, '$1,234,567.90'],
    [0, '$0.00'],
    [0.5, '$0.50'],
    ['-0.5', '-$0.50'],
    [-0.004, '$0.00'],
    [-1234.5, '-$1,234.50'],
    [null, '$0.00'],
    ['abc', '$0.00'],
  ] as const)('formatUsd(%s) = %s', (value, expected) => {
    expect(formatUsd(value)).toBe(expected);
  });
});

describe('formatUsdPrice', () => {
  it.each([
    [1234.5, '$1,234.50'],
    [0.00001234, '$0.000012'],
    [0.5, '$0.5000'],
    [0.0000000123, '$1.23e-8'],
    [-2, '-$2.00'],
    [0, '$0.00'],
  ] as const)('formatUsdPrice(%s) = %s', (value, expected) => {
    expect(formatUsdPrice(value)).toBe(expected);
  });
});

describe('formatMarketCapMillions', () => {
  it.each([
    [12_345_678, '$12.35M'],
    [12_345_000, '$12.35M'], // half up
    [1_500_000_000, '$1,500.00M'],
    [999, '$0.00M'],
    [5_000, '$0.01M'],
    ['250000000', '$250.00M'],
    [0, '$0.00M'],
    [null, '$0.00M'],
    [undefined, '$0.00M'],
  ] as const)('formatMarketCapMillions(%s) = %s', (value, expected) => {
    expect(formatMarketCapMillions(value)).toBe(expected);
  });
});
