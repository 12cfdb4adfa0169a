import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { Dec, fromBaseUnits, toBaseUnits } from '../money/decimal';
import { buildLadder, LADDER_NOTIONALS_USD, type LadderLevel } from './order-book-ladder';
import { DEFAULT_RFQ_PRICING, quoteRfq, rfqBestPrices, type RfqPricing } from './rfq-pricing';

const Exact = Decimal.clone({ precision: 500 });

const positiveDec = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: -12, max: 2 }))
  .map(([mantissa, exponent]) => new Dec(`${mantissa}e${exponent}`));

const earningPricing: fc.Arbitrary<RfqPricing> = fc
  .record({
    halfSpreadBps: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
    venueFeeBps: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
    impactBpsPerUsd10k: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
    maxImpactBps: fc.integer({ min: 0, max: 2_000 }),
  })
  .filter((p) => p.halfSpreadBps + p.venueFeeBps > 0);

function expectStrictlyMonotone(levels: readonly LadderLevel[], direction: 'ascending' | 'descending'): void {
  for (let i = 1; i < levels.length; i++) {
    const [previous, current] = [levels[i - 1]!.price, levels[i]!.price];
    expect(direction === 'ascending' ? current.gt(previous) : current.lt(previous)).toBe(true);
  }
}

/** Σ price × amount of the levels, exactly. */
function sweep(levels: readonly LadderLevel[]): Decimal {
  return levels.reduce((sum, level) => sum.plus(new Exact(level.price).times(level.amount)), new Exact(0));
}

function totalUnits(levels: readonly LadderLevel[], decimals: number): bigint {
  return levels.reduce((sum, level) => sum + toBaseUnits(level.amount, decimals), 0n);
}

describe('buildLadder', () => {
  const sol = { midPrice: new Dec(150), baseUsdPrice: new Dec(150), baseDecimals: 9, quoteDecimals: 6 };

  it('cuts the default ladder at the USD notionals, asks above bids', () => {
    const { buys, sells, spread } = buildLadder(sol);
    expect(LADDER_NOTIONALS_USD).toEqual([250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000]);
    expect(sells).toHaveLength(10);
    expect(buys).toHaveLength(10);
    // $250 of SOL at $150, then the increment to $500.
    expect(sells[0]!.amount.toString()).toBe('1.666666666');
    expect(sells[1]!.amount.toString()).toBe('1.666666667');
    expect(sells[0]!.price.gt(rfqBestPrices(sol.midPrice).ask)).toBe(true);
    expect(buys[0]!.price.lt(rfqBestPrices(sol.midPrice).bid)).toBe(true);
    expect(sells[0]!.price.toFixed(2)).toBe('150.15');
    expect(buys[0]!.price.toFixed(2)).toBe('149.85');
    expect(spread.eq(sells[0]!.price.minus(buys[0]!.price))).toBe(true);
    expectStrictlyMonotone(sells, 'ascending');
    expectStrictlyMonotone(buys, 'descending');
    // The whole ladder is $250k of SOL.
    expect(totalUnits(sells, 9)).toBe(1_666_666_666_666n);
    expect(totalUnits(buys, 9)).toBe(1_666_666_666_666n);
  });

  it('prices each level so sweeping the first levels costs what the RFQ quotes for that size', () => {
    const { buys, sells } = buildLadder(sol);
    for (const [levels, side] of [
      [sells, 'Buy'],
      [buys, 'Sell'],
    ] as const) {
      for (let i = 1; i <= levels.length; i++) {
        const baseAmount = totalUnits(levels.slice(0, i), 9);
        const quote = quoteRfq({ ...sol, side, baseAmount, quoteUsdPrice: new Dec(1) });
        const rfq = new Exact(fromBaseUnits(quote.quoteAmount, 6));
        // Level prices are rounded to 18 digits and the RFQ to one quote unit.
        expect(sweep(levels.slice(0, i)).minus(rfq).abs().lte('0.000001000001')).toBe(true);
      }
    }
  });

  it('pools the levels past the impact cap so prices stay strictly monotone', () => {
    const capped = { ...DEFAULT_RFQ_PRICING, impactBpsPerUsd10k: 10, maxImpactBps: 20 }; // cap at $20k
    const { buys, sells } = buildLadder({ ...sol, pricing: capped });
    expect(sells.length).toBeLessThan(10);
    expect(buys.length).toBeLessThan(10);
    expectStrictlyMonotone(sells, 'ascending');
    expectStrictlyMonotone(buys, 'descending');
    expect(totalUnits(sells, 9)).toBe(1_666_666_666_666n);
    for (const [levels, side] of [
      [sells, 'Buy'],
      [buys, 'Sell'],
    ] as const) {
      const quote = quoteRfq({
        ...sol,
        side,
        baseAmount: 1_666_666_666_666n,
        quoteUsdPrice: new Dec(1),
        pricing: capped,
      });
      const rfq = new Exact(fromBaseUnits(quote.quoteAmount, 6));
      expect(sweep(levels).minus(rfq).abs().lte('0.000001000001')).toBe(true);
    }
  });

  it('shows no levels when even the largest notional is under one base unit', () => {
    const { buys, sells, spread } = buildLadder({ ...sol, baseUsdPrice: new Dec('1e9'), baseDecimals: 0 });
    expect(buys).toEqual([]);
    expect(sells).toEqual([]);
    const best = rfqBestPrices(sol.midPrice);
    expect(spread.eq(best.ask.minus(best.bid))).toBe(true);
  });

  it('rejects invalid input', () => {
    expect(() => buildLadder({ ...sol, midPrice: new Dec(0) })).toThrow(RangeError);
    expect(() => buildLadder({ ...sol, baseUsdPrice: new Dec(-1) })).toThrow(RangeError);
    expect(() => buildLadder({ ...sol, quoteDecimals: 256 })).toThrow(RangeError);
  });

  it('keeps bids strictly descending, asks strictly ascending and the best bid below the best ask', () => {
    fc.assert(
      fc.property(
        positiveDec,
        positiveDec,
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 0, max: 18 }),
        earningPricing,
        (midPrice, baseUsdPrice, baseDecimals, quoteDecimals, pricing) => {
          const { buys, sells, spread } = buildLadder({
            midPrice,
            baseUsdPrice,
            baseDecimals,
            quoteDecimals,
            pricing,
          });
          expectStrictlyMonotone(sells, 'ascending');
          expectStrictlyMonotone(buys, 'descending');
          for (const level of [...buys, ...sells]) {
            expect(level.amount.gt(0)).toBe(true);
            expect(level.price.gt(0)).toBe(true);
          }
          expect(spread.gt(0)).toBe(true);
          const [bestBid, bestAsk] = [buys[0], sells[0]];
          if (bestBid !== undefined && bestAsk !== undefined) {
            expect(bestBid.price.lt(bestAsk.price)).toBe(true);
            expect(spread.eq(bestAsk.price.minus(bestBid.price))).toBe(true);
            expect(bestBid.price.lt(midPrice)).toBe(true);
            expect(bestAsk.price.gt(midPrice)).toBe(true);
          }
          // Every level is a share of the largest notional, in whole base units.
          const largest = new Exact(LADDER_NOTIONALS_USD.at(-1)!).div(baseUsdPrice);
          expect(fromBaseUnits(totalUnits(sells, baseDecimals), baseDecimals).lte(largest)).toBe(true);
        },
      ),
    );
  });
});
