import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, fromBaseUnits } from '../money/decimal';
import { exactOf } from '../money/exact';
import { levelOf, lotsAtRisk, NEAR, riskBounds, Threshold, type Lot } from './lot';

const decimals = { baseDecimals: 9, quoteDecimals: 6 };
const lotAt = (entry: number, stop: number | null, take: number | null): Lot => {
  const level = (percent: number | null) =>
    percent === null
      ? null
      : new Threshold(entry * (1 + percent / 100), 150_000_000n, 1_000_000_000n, new Dec(percent), decimals);
  return {
    baseAmount: 1_000_000_000n,
    cost: 150_000_000n,
    openedAt: 0,
    entryApprox: entry,
    stop: level(stop),
    take: level(take),
  };
};

describe('riskBounds', () => {
  it('a candle inside the bounds is one at which no lot is at risk', () => {
    const price = fc.double({ min: 1e-6, max: 1e9, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            price,
            fc.option(fc.double({ min: -99, max: 0, noNaN: true })),
            fc.option(fc.double({ min: 0, max: 500, noNaN: true })),
          ),
          { maxLength: 4 },
        ),
        price,
        fc.double({ min: 0, max: 0.1, noNaN: true }),
        fc.double({ min: -4 * NEAR, max: 4 * NEAR, noNaN: true }),
        (specs, close, spread, nudge) => {
          const lots = specs.map(([entry, stop, take]) => lotAt(entry, stop, take));
          const bounds = new Float64Array(2);
          riskBounds(lots, bounds);
          // Candles near the bounds, where the double tests are closest.
          for (const low of [close * (1 - spread), bounds[0]! * (1 + nudge)]) {
            for (const high of [close * (1 + spread), bounds[1]! * (1 + nudge)]) {
              if (!(low > bounds[0]! && high < bounds[1]!)) continue;
              const series = {
                length: 1,
                time: Float64Array.of(60),
                open: Float64Array.of(low),
                high: Float64Array.of(high),
                low: Float64Array.of(low),
                close: Float64Array.of(low),
                volume: Float64Array.of(0),
              };
              expect(lotsAtRisk(lots, series, 0)).toBe(false);
            }
          }
        },
      ),
    );
  });
});

describe('Threshold levels', () => {
  // decimal.js's level (Threshold.exact before it was on bigints) and exactOf of it.
  const decimalLevel = (
    cost: bigint,
    base: bigint,
    percent: Dec,
    d: { baseDecimals: number; quoteDecimals: number },
  ) =>
    fromBaseUnits(cost, d.quoteDecimals)
      .div(fromBaseUnits(base, d.baseDecimals))
      .times(percent.plus(100))
      .div(100);

  it('are decimal.js’s level, digit for digit, and exactOf of it', () => {
    const units = fc.oneof(
      fc.bigInt({ min: 1n, max: 10n ** 6n }),
      fc.bigInt({ min: 1n, max: 10n ** 12n }),
      fc.bigInt({ min: 1n, max: 10n ** 30n }),
      // Powers of ten and their neighbours: exact quotients, quotients just off a whole number.
      fc
        .tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: -1, max: 1 }))
        .map(([k, off]) => 10n ** BigInt(k) + BigInt(off))
        .filter((n) => n > 0n),
    );
    const percents = fc.oneof(
      fc.integer({ min: -99, max: 500 }).map((p) => new Dec(p)),
      fc.double({ min: -99.99, max: 1000, noNaN: true }).map((p) => new Dec(p.toPrecision(12))),
      fc.constantFrom(
        new Dec('2.5'),
        new Dec(-2),
        new Dec(3),
        new Dec('0.123456789012345678901'),
        new Dec(-100),
        new Dec(-150),
      ),
    );
    const decimalsOf = fc.record({
      baseDecimals: fc.integer({ min: 0, max: 18 }),
      quoteDecimals: fc.integer({ min: 0, max: 18 }),
    });
    let fast = 0;
    fc.assert(
      fc.property(units, units, percents, decimalsOf, (cost, base, percent, d) => {
        const threshold = new Threshold(1, cost, base, percent, d);
        const before = decimalLevel(cost, base, percent, d);
        if (levelOf(cost, base, percent, d) !== null) fast += 1;
        expect(threshold.exactLevel).toEqual(exactOf(before));
        expect(threshold.exact).toEqual(before);
        // Read in the other order, from a new one.
        expect(new Threshold(1, cost, base, percent, d).exact).toEqual(before);
      }),
      { numRuns: 5000 },
    );
    expect(fast).toBeGreaterThan(4000);
  });
});
