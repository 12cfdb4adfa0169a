import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotientDouble } from './decimal-double';

// quotientDouble against the text's parse (correctly rounded, ties to even): where it answers, the
// same double, bit for bit; on integers of 16 to 18 digits it nearly always answers.

const parsed = (integer: bigint, k: number) => Number(`${integer}e-${k}`);
const parts = (integer: bigint): [number, number] => [
  Number(integer / 1_000_000_000n),
  Number(integer % 1_000_000_000n),
];

describe('quotientDouble', () => {
  it('is the parse of the decimal wherever it answers, and answers nearly always', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.bigInt({ min: 10n ** 15n, max: 10n ** 18n - 1n }),
          fc.bigInt({ min: 1n, max: 10n ** 18n - 1n }),
          // Powers of two as decimals (x = 2^m exactly), and their neighbours: the gap below halves.
          fc
            .tuple(
              fc.integer({ min: 0, max: 59 }),
              fc.integer({ min: 0, max: 22 }),
              fc.integer({ min: -2, max: 2 }),
            )
            .map(([m, k, off]) => ((2n ** BigInt(m) * 10n ** BigInt(k)) % 10n ** 18n) + BigInt(off))
            .filter((n) => n > 0n),
        ),
        fc.integer({ min: 0, max: 22 }),
        (integer, k) => {
          runs += 1;
          const [hi, lo] = parts(integer);
          const x = quotientDouble(hi, lo, k);
          if (Number.isNaN(x)) return;
          answered += 1;
          expect(Object.is(x, parsed(integer, k))).toBe(true);
        },
      ),
      { numRuns: 200_000 },
    );
    expect(answered).toBeGreaterThan(runs * 0.99);
  }, 60_000);

  it('takes a bumped last word (10^9) and exact quotients', () => {
    for (const [hi, lo, k] of [
      [123_456_789, 1_000_000_000, 15],
      [512_000_000, 0, 15],
      [999_999_999, 1_000_000_000, 18],
      [100_000_000, 1, 22],
    ] as const) {
      const x = quotientDouble(hi, lo, k);
      expect(Object.is(x, parsed(BigInt(hi) * 1_000_000_000n + BigInt(lo), k))).toBe(true);
    }
  });

  it('leaves a quotient halfway between two doubles to the parse', () => {
    // 2^53 + 1 is halfway between 2^53 and 2^53 + 2: over 10^k, a tie the doubles must not decide.
    const tie = 2n ** 53n + 1n;
    for (const k of [0, 1, 5]) {
      const [hi, lo] = parts(tie * 10n ** BigInt(k));
      const x = quotientDouble(hi, lo, k);
      if (!Number.isNaN(x)) expect(Object.is(x, parsed(tie * 10n ** BigInt(k), k))).toBe(true);
    }
    const [hi, lo] = parts(tie * 10n);
    expect(Number.isNaN(quotientDouble(hi, lo, 1))).toBe(true);
  });
});
