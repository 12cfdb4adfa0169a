import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from '../money/decimal';
import { lotsAtRisk, NEAR, riskBounds, Threshold, type Lot } from './lot';

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
