import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDec as frozenToDec } from './fixtures/engine-v1/exact';
import { EquityCurve } from './equity-curve';

// The curve's points are toDec of exact values (18 digits, half up) and that decimal's toNumber,
// computed from one toString: held to the frozen engine's toDec, words, exponent and double alike.

const TIMEOUT_MS = 60_000;

describe('EquityCurve', () => {
  const exact = fc
    .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: 0, max: 40 }))
    .map(([n, scale]) => ({ n, scale }));
  // 9s that carry, values rounded at a 5, trailing zeros, and integers at 2^53.
  const nines = fc
    .tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 30 }))
    .map(([digits, scale]) => ({ n: 10n ** BigInt(digits) - 1n, scale }));
  const ties = fc
    .tuple(fc.bigInt({ min: 10n ** 17n, max: 10n ** 18n - 1n }), fc.integer({ min: 0, max: 30 }))
    .map(([head, scale]) => ({ n: head * 10n + 5n, scale }));
  const zeros = fc
    .tuple(
      fc.bigInt({ min: 1n, max: 10n ** 12n }),
      fc.integer({ min: 0, max: 20 }),
      fc.integer({ min: 0, max: 30 }),
    )
    .map(([head, zeros, scale]) => ({ n: head * 10n ** BigInt(zeros), scale }));
  const safe = fc
    .tuple(fc.bigInt({ min: 2n ** 53n - 50n, max: 2n ** 53n + 50n }), fc.integer({ min: 0, max: 25 }))
    .map(([n, scale]) => ({ n, scale }));
  // Numerators below 2^53 (read by divisions rather than from their text): any, and cash-like.
  const small = fc
    .tuple(
      fc.oneof(
        fc.bigInt({ min: -(2n ** 53n - 1n), max: 2n ** 53n - 1n }),
        fc.bigInt({ min: -(10n ** 10n), max: 10n ** 10n }),
        fc.integer({ min: -99, max: 99 }).map(BigInt),
      ),
      fc.integer({ min: 0, max: 40 }),
    )
    .map(([n, scale]) => ({ n, scale }));

  it(
    'makes each point toDec’s decimal and its toNumber',
    () => {
      const curve = new EquityCurve();
      fc.assert(
        fc.property(fc.oneof(exact, nines, ties, zeros, safe, small), (x) => {
          curve.pushExact(0, x.n, x.scale);
          const before = frozenToDec(x);
          expect(curve.last!.equity).toEqual(before);
          expect(Object.is(curve.values[curve.values.length - 1], before.toNumber())).toBe(true);
        }),
        { numRuns: 20_000 },
      );
    },
    TIMEOUT_MS,
  );

  it('reuses the decimal of an unchanged cash point', () => {
    const curve = new EquityCurve();
    curve.pushCash(1, 1_500_000n, 6);
    curve.pushCash(2, 1_500_000n, 6);
    expect(curve.points[1]!.equity).toBe(curve.points[0]!.equity);
    expect(curve.points[0]!.equity.toString()).toBe('1.5');
    expect(curve.values).toEqual([1.5, 1.5]);
  });
});
