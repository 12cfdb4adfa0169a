import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from '../money/decimal';
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

  // pushHeld: cash units plus base units times a mid's integer, each at its scale, on doubles in
  // limbs below 2^53 and MAX_LIMB_SCALE, with bigints past them: any such values (the bench's
  // cash-like and SOL-like amounts, and up to 2^53 − 1 each), values rounding at a 5 or carrying 9s
  // through every limb, and scales across the limbs' alignment.
  const held = fc.record({
    cash: fc.oneof(
      fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
      fc.bigInt({ min: 0n, max: 10n ** 10n }),
      fc.constantFrom(0n, 1n, 2n ** 53n - 1n, 2n ** 53n, 10n ** 15n),
      fc.bigInt({ min: -(10n ** 6n), max: -1n }),
    ),
    cashScale: fc.integer({ min: 0, max: 40 }),
    base: fc.oneof(
      fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
      fc.bigInt({ min: 0n, max: 10n ** 10n }),
      fc.constantFrom(0n, 1n, 100_000n, 2n ** 53n - 1n, 2n ** 53n),
    ),
    mid: fc.oneof(
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: 0, max: 10 ** 10 }),
      fc.constantFrom(0, 1, 5, 9_999_999, 10_000_000, Number.MAX_SAFE_INTEGER),
    ),
    heldScale: fc.integer({ min: 0, max: 40 }),
  });
  const exactOfHeld = (x: {
    cash: bigint;
    cashScale: number;
    base: bigint;
    mid: number;
    heldScale: number;
  }) => {
    const scale = Math.max(x.cashScale, x.heldScale);
    const n =
      x.cash * 10n ** BigInt(scale - x.cashScale) +
      x.base * BigInt(x.mid) * 10n ** BigInt(scale - x.heldScale);
    return { n, scale };
  };
  // Values of 19 to 40 digits whose 19th digit is a 5 or whose first 18 are 9s, as cash + held.
  const edges = fc
    .tuple(
      fc.oneof(
        fc.bigInt({ min: 10n ** 17n, max: 10n ** 18n - 1n }).map((head) => head * 10n + 5n),
        fc
          .integer({ min: 1, max: 3 })
          .map((k) => (10n ** 18n - 1n) * 10n ** BigInt(k) + 5n * 10n ** BigInt(k - 1)),
      ),
      fc.integer({ min: 0, max: 20 }),
      fc.integer({ min: 0, max: 35 }),
      fc.bigInt({ min: 1n, max: 10n ** 6n }),
    )
    .map(([value, extra, heldScale, base]) => {
      // value × 10^extra = cash × 10^(scale − cashScale) + base × mid: the mid takes what the base divides.
      const n = value * 10n ** BigInt(extra);
      const scale = heldScale;
      const mid = n / 10n ** 9n / base;
      const rest = n - base * mid;
      return rest <= 2n ** 53n - 1n && mid <= BigInt(Number.MAX_SAFE_INTEGER)
        ? { cash: rest, cashScale: scale, base, mid: Number(mid), heldScale: scale }
        : { cash: 1n, cashScale: scale, base, mid: 1, heldScale: scale };
    });

  // Values whose digits' integer is near 2^53 or has 15 to 18 digits, followed by zeros within a limb
  // and past it, at scales that put their power of ten inside and outside 10^±22 (the double from
  // the limbs' integer, or from its digits).
  const wholes = fc
    .tuple(
      fc.oneof(
        fc.bigInt({ min: 2n ** 53n - 1_000n, max: 2n ** 53n - 1n }),
        fc.bigInt({ min: 10n ** 14n, max: 10n ** 16n }),
        fc.bigInt({ min: 1n, max: 10n ** 7n }),
      ),
      fc.integer({ min: 0, max: 9 }),
      fc.integer({ min: 0, max: 35 }),
      fc.constantFrom(0n, 1n, 999_984_929n),
      fc.integer({ min: 0, max: 35 }),
    )
    .map(([digits, zeros, heldScale, cash, cashScale]) => ({
      cash,
      cashScale,
      base: digits,
      mid: 10 ** zeros,
      heldScale,
    }));

  it(
    'makes a held point toDec’s decimal and its toNumber, on doubles or bigints',
    () => {
      const curve = new EquityCurve();
      fc.assert(
        fc.property(fc.oneof(held, edges, wholes), (x) => {
          curve.pushHeld(0, x.cash, x.cashScale, x.base, x.mid, x.heldScale);
          const before = frozenToDec(exactOfHeld(x));
          const equity = curve.last!.equity;
          expect(equity).toEqual(before);
          expect(equity).toBeInstanceOf(Dec);
          expect(equity.plus(1).toString()).toBe(before.plus(1).toString());
          expect(Object.is(curve.values[curve.values.length - 1], before.toNumber())).toBe(true);
        }),
        { numRuns: 30_000 },
      );
    },
    TIMEOUT_MS,
  );

  it('rounds held points at the limbs’ edges as toDec does', () => {
    const curve = new EquityCurve();
    const cases = [
      // 18 nines and a 5 below: carried into a new limb (1 followed by zeros).
      { cash: 0n, cashScale: 0, base: 9_999_999_999n, mid: 99_999_999_5, heldScale: 7 },
      { cash: 999_999_999_999_999n, cashScale: 14, base: 1n, mid: 9_999_995, heldScale: 21 },
      // The bench's: 1,000 USDC and 0.0001 SOL at a 10-digit mid; 6.6 SOL bought and held.
      { cash: 999_984_929n, cashScale: 6, base: 100_000n, mid: 1_505_538_195, heldScale: 16 },
      { cash: 1_234n, cashScale: 6, base: 6_639_120_471n, mid: 1_505_538_195, heldScale: 16 },
      // A tie at the 19th digit, the cut on a limb's edge, and the finest scale on doubles.
      { cash: 1_000_000_000_000_000n, cashScale: 0, base: 0n, mid: 0, heldScale: 0 },
      { cash: 1_234_567_890_123_456n, cashScale: 35, base: 5n, mid: 1, heldScale: 35 },
      { cash: 123_456_789_012_345n, cashScale: 3, base: 2n ** 53n - 1n, mid: 2 ** 53 - 1, heldScale: 35 },
      { cash: 0n, cashScale: 0, base: 0n, mid: 0, heldScale: 0 },
    ];
    for (const x of cases) {
      curve.pushHeld(0, x.cash, x.cashScale, x.base, x.mid, x.heldScale);
      const before = frozenToDec(exactOfHeld(x));
      expect(curve.last!.equity).toEqual(before);
      expect(Object.is(curve.values[curve.values.length - 1], before.toNumber())).toBe(true);
    }
  });

  it('reuses the decimal of an unchanged cash point', () => {
    const curve = new EquityCurve();
    curve.pushCash(1, 1_500_000n, 6);
    curve.pushCash(2, 1_500_000n, 6);
    expect(curve.points[1]!.equity).toBe(curve.points[0]!.equity);
    expect(curve.points[0]!.equity.toString()).toBe('1.5');
    expect(curve.values).toEqual([1.5, 1.5]);
  });
});
