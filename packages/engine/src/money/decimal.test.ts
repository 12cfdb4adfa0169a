import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { Dec, fromBaseUnits, splitBaseUnits, toBaseUnits } from './decimal';

/** A non-negative decimal string with up to 15 integer and 20 fraction digits. */
const decimalString = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 10n ** 15n }),
    fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }),
    fc.integer({ min: 0, max: 20 }),
  )
  .map(([whole, fraction, fractionDigits]) =>
    fractionDigits === 0
      ? whole.toString()
      : `${whole}.${fraction.toString().padStart(20, '0').slice(0, fractionDigits)}`,
  );

describe('Dec', () => {
  it('computes with 18 significant digits, rounding half up', () => {
    expect(new Dec(1).div(3).toString()).toBe('0.333333333333333333');
    expect(new Dec(2).div(3).toString()).toBe('0.666666666666666667');
    expect(new Dec('0.1').plus('0.2').toString()).toBe('0.3');
  });

  it('is independent of the global decimal.js configuration', () => {
    expect(Decimal.precision).toBe(20);
    expect(Dec.precision).toBe(18);
    expect(Dec.rounding).toBe(Decimal.ROUND_HALF_UP);
  });
});

describe('toBaseUnits', () => {
  it.each([
    ['1', 9, 1_000_000_000n],
    ['1.5', 9, 1_500_000_000n],
    ['0.000000001', 9, 1n],
    ['0.0000000005', 9, 1n], // half rounds up
    ['0.00000000049', 9, 0n],
    ['0.0000005', 6, 1n],
    ['0.0000004999', 6, 0n],
    ['123.4567895', 6, 123_456_790n],
    ['0', 6, 0n],
    ['-0', 6, 0n],
    ['42', 0, 42n],
    ['42.5', 0, 43n],
    ['  7.25  ', 2, 725n],
    ['1e-6', 6, 1n],
    ['12345678901234567890.123456789', 9, 12_345_678_901_234_567_890_123_456_789n], // beyond 18 digits, still exact
  ] as const)('toBaseUnits(%s, %i) = %s', (amount, decimals, expected) => {
    expect(toBaseUnits(amount, decimals)).toBe(expected);
  });

  it('accepts decimals from any decimal.js configuration', () => {
    expect(toBaseUnits(new Decimal('2.5'), 6)).toBe(2_500_000n);
    expect(toBaseUnits(new Dec('0.1'), 9)).toBe(100_000_000n);
  });

  it.each([['-1'], ['-0.000001'], ['NaN'], ['Infinity'], ['-Infinity'], ['abc'], [''], ['  '], ['1,000']])(
    'rejects %j',
    (amount) => {
      expect(() => toBaseUnits(amount, 6)).toThrow(RangeError);
    },
  );

  it('rejects NaN and negative decimals', () => {
    expect(() => toBaseUnits(new Dec(NaN), 6)).toThrow(RangeError);
    expect(() => toBaseUnits(new Dec(-3), 6)).toThrow(RangeError);
  });

  it.each([[-1], [1.5], [256], [Number.NaN]])('rejects decimals %s', (decimals) => {
    expect(() => toBaseUnits('1', decimals)).toThrow(RangeError);
  });
});

describe('fromBaseUnits', () => {
  it.each([
    [1_500_000_000n, 9, '1.5'],
    [1n, 6, '0.000001'],
    [0n, 6, '0'],
    [123n, 0, '123'],
    [-2_500_000n, 6, '-2.5'],
    [12_345_678_901_234_567_890_123_456_789n, 9, '12345678901234567890.123456789'],
  ] as const)('fromBaseUnits(%s, %i) = %s', (units, decimals, expected) => {
    expect(fromBaseUnits(units, decimals).toFixed()).toBe(expected);
  });

  it('returns a Dec', () => {
    expect(fromBaseUnits(1n, 2)).toBeInstanceOf(Dec);
  });

  it('rejects invalid decimals', () => {
    expect(() => fromBaseUnits(1n, -1)).toThrow(RangeError);
  });
});

describe('base-unit properties', () => {
  it('round trip: fromBaseUnits(toBaseUnits(x)) equals x rounded half up to the decimals', () => {
    fc.assert(
      fc.property(decimalString, fc.integer({ min: 0, max: 18 }), (amount, decimals) => {
        const roundTrip = fromBaseUnits(toBaseUnits(amount, decimals), decimals);
        const expected = new Dec(amount).toDecimalPlaces(decimals, Dec.ROUND_HALF_UP);
        expect(roundTrip.eq(expected)).toBe(true);
      }),
    );
  });

  it('round trip: toBaseUnits(fromBaseUnits(u)) is the identity', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.integer({ min: 0, max: 18 }),
        (units, decimals) => {
          expect(toBaseUnits(fromBaseUnits(units, decimals), decimals)).toBe(units);
        },
      ),
    );
  });

  it('rounding error of toBaseUnits is at most half a base unit', () => {
    fc.assert(
      fc.property(decimalString, fc.integer({ min: 0, max: 12 }), (amount, decimals) => {
        const error = fromBaseUnits(toBaseUnits(amount, decimals), decimals).minus(amount).abs();
        expect(error.lte(new Dec(`5e-${decimals + 1}`))).toBe(true);
      }),
    );
  });

  it('conservation: splitting base units into parts sums back to the total', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc
          .array(fc.bigInt({ min: 0n, max: 1_000_000n }), { minLength: 1, maxLength: 12 })
          .filter((ratios) => ratios.some((r) => r > 0n)),
        fc.integer({ min: 0, max: 9 }),
        (total, ratios, decimals) => {
          const parts = splitBaseUnits(total, ratios);
          expect(parts).toHaveLength(ratios.length);
          expect(parts.reduce((sum, part) => sum + part, 0n)).toBe(total);
          expect(parts.every((part) => part >= 0n)).toBe(true);
          // A zero ratio never receives units.
          ratios.forEach((ratio, index) => {
            if (ratio === 0n) expect(parts[index]).toBe(0n);
          });
          // The decimal view conserves value too (exact toFixed sums, no 18-digit rounding).
          const decimalSum = parts.reduce(
            (sum, part) => sum + toBaseUnits(fromBaseUnits(part, decimals), decimals),
            0n,
          );
          expect(decimalSum).toBe(total);
        },
      ),
    );
  });

  it('each split part is within one unit of its exact share', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.array(fc.bigInt({ min: 1n, max: 1000n }), { minLength: 1, maxLength: 8 }),
        (total, ratios) => {
          const ratioSum = ratios.reduce((sum, r) => sum + r, 0n);
          splitBaseUnits(total, ratios).forEach((part, index) => {
            const floor = (total * (ratios[index] ?? 0n)) / ratioSum;
            expect(part === floor || part === floor + 1n).toBe(true);
          });
        },
      ),
    );
  });
});

describe('splitBaseUnits', () => {
  it.each([
    [100n, [1n, 1n, 1n], [34n, 33n, 33n]],
    [10n, [70n, 30n], [7n, 3n]],
    [5n, [1n], [5n]],
    [0n, [1n, 2n], [0n, 0n]],
    [1n, [1n, 1n], [1n, 0n]],
    [2n, [0n, 1n, 1n], [0n, 1n, 1n]],
    [7n, [1n, 2n], [2n, 5n]], // 2.33 / 4.67: the larger remainder takes the extra unit
  ] as const)('splitBaseUnits(%s, [%s]) = [%s]', (total, ratios, expected) => {
    expect(splitBaseUnits(total, ratios)).toEqual(expected);
  });

  it.each([
    [-1n, [1n]],
    [1n, []],
    [1n, [0n, 0n]],
    [1n, [1n, -1n]],
  ] as const)('rejects splitBaseUnits(%s, [%s])', (total, ratios) => {
    expect(() => splitBaseUnits(total, ratios)).toThrow(RangeError);
  });
});
