import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactOf as frozenExactOf } from '../backtest/fixtures/engine-v1/exact';
import { quoteRfqExact as frozenQuote, pricingModel } from '../backtest/fixtures/engine-v1/rfq-pricing';
import { slippageOf as frozenSlippageOf } from '../backtest/fixtures/engine-v1/venue';
import { Dec } from '../money/decimal';
import { decimalOfNumber, exactOfNumber, ExactSum, type Exact } from '../money/exact';
import { FastFills, MAX_AT_MID, RfqFastQuotes } from './rfq-fast';
import { RfqFills } from './rfq-fills';

// The backtest's fills quoted on doubles, held to the bigint arithmetic (RfqFills, and the frozen
// engine-v1 behind it): where the doubles answer, the same quote units, fee and slippage, and the
// same sums of fees and slippage, digit for digit and scale for scale. Values at the mid are drawn
// near and past the guard (2^52), and quotes near whole units.

const exactText = (x: Exact) => `${x.n}e-${x.scale}`;
const TIMEOUT_MS = 60_000;

const pricings = fc.record({
  halfSpreadBps: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constantFrom(0.5, 2.5, 12.25)),
  venueFeeBps: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constantFrom(0.75, 1.5)),
  impactBpsPerUsd10k: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constantFrom(0.1, 2.5)),
  maxImpactBps: fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.constantFrom(0.5, 7.5)),
});
const markets = fc
  .record({
    baseDecimals: fc.integer({ min: 0, max: 12 }),
    quoteDecimals: fc.integer({ min: 0, max: 12 }),
    quoteUsdPrice: fc.constantFrom('0', '1', '0.99871', '1.0003', '25'),
    pricing: pricings,
  })
  .map((m) => ({
    baseDecimals: m.baseDecimals,
    quoteDecimals: m.quoteDecimals,
    quoteUsdPrice: frozenExactOf(new Dec(m.quoteUsdPrice)),
    model: pricingModel(m.pricing),
  }));
/** A mid as the backtest reads one (a close's decimal), and an amount: small, large, or whose value at the mid is at the guard. */
const fillsAt = fc
  .tuple(
    fc.oneof(
      fc
        .tuple(fc.integer({ min: 1, max: 15 }), fc.double({ min: 1e-9, max: 1e9, noNaN: true }))
        .map(([digits, x]) => Number(x.toPrecision(digits))),
      fc.integer({ min: 1, max: 2 ** 20 }).map((cents) => cents / 100),
    ),
    fc.oneof(
      fc.bigInt({ min: 1n, max: 10n ** 6n }).map((size) => () => size),
      fc.bigInt({ min: 1n, max: 10n ** 12n }).map((size) => () => size),
      fc.bigInt({ min: 1n, max: 2n ** 60n }).map((size) => () => size),
      // The value at the mid just below, at or just past 2^52.
      fc.integer({ min: -3, max: 3 }).map((offset) => (midN: bigint) => 2n ** 52n / midN + BigInt(offset)),
    ),
  )
  .filter(([close]) => close > 0)
  .map(([close, sized]): [number, bigint] => {
    const size = sized(exactOfNumber(close).n);
    return [close, size > 0n ? size : 1n];
  });
const GUARD = BigInt(MAX_AT_MID);

describe('RfqFastQuotes', () => {
  it(
    'quotes what RfqFills and the frozen quote do, where it answers, and makes the same fee and slippage',
    () => {
      let answered = 0;
      let nearGuard = 0;
      fc.assert(
        fc.property(markets, fillsAt, fc.boolean(), (market, [close, size], sell) => {
          const fills = new RfqFills(market);
          const fast = new FastFills(new RfqFastQuotes(fills));
          const mid = exactOfNumber(close);
          const side = sell ? 'Sell' : 'Buy';
          const units = fast.quote(sell, size, close);
          const atMid = size * mid.n;
          if (atMid >= GUARD) expect(units).toBe(-1);
          if (units < 0) return;
          answered += 1;
          if (atMid > GUARD / 2n) nearGuard += 1;
          const before = frozenQuote(side, size, mid, market);
          expect(BigInt(units)).toBe(before.quoteAmount);
          expect(BigInt(fast.atMid)).toBe(atMid);
          expect([fast.midN, fast.midScale]).toEqual([Number(mid.n), mid.scale]);
          const { fee, slippage } = fast.quotes.feeAndSlippage(fast.key, sell, fast.atMid, units);
          expect(exactText(fee)).toBe(exactText(before.fee));
          const frozenSlippage = frozenSlippageOf(side, size, before.quoteAmount, mid, before.fee, market);
          expect(exactText(slippage)).toBe(exactText(frozenSlippage));
        }),
        { numRuns: 5000 },
      );
      // Most draws are answered: the test holds the fast path, not only its refusals.
      expect(answered).toBeGreaterThan(500);
      expect(nearGuard).toBeGreaterThan(10);
    },
    TIMEOUT_MS,
  );

  it('refuses a value at the mid from the guard on, and quotes just below it', () => {
    const market = {
      baseDecimals: 0,
      quoteDecimals: 0,
      quoteUsdPrice: { n: 1n, scale: 0 },
      model: pricingModel({ halfSpreadBps: 5, venueFeeBps: 5, impactBpsPerUsd10k: 0, maxImpactBps: 0 }),
    };
    const quotes = new RfqFastQuotes(new RfqFills(market));
    for (const atMid of [MAX_AT_MID, MAX_AT_MID + 2, 2 ** 53, 2 ** 60]) {
      expect(quotes.quoteUnits(false, atMid, 0)).toBe(-1);
      expect(quotes.quoteUnits(true, atMid, 0)).toBe(-1);
    }
    for (const atMid of [MAX_AT_MID - 1, MAX_AT_MID - 3]) {
      const size = BigInt(atMid);
      for (const side of ['Buy', 'Sell'] as const) {
        const units = quotes.quoteUnits(side === 'Sell', atMid, 0);
        const before = frozenQuote(side, size, { n: 1n, scale: 0 }, market).quoteAmount;
        // Past MAX_RATIO the doubles do not answer; when they do, the bigints agree.
        if (units >= 0) expect(BigInt(units)).toBe(before);
      }
    }
  });

  it('leaves quotes at whole units, and a hair from them, to the bigints', () => {
    // No spread, fee or impact: the quote is base × mid, whole at mid 1.
    const market = {
      baseDecimals: 0,
      quoteDecimals: 2,
      quoteUsdPrice: { n: 0n, scale: 0 },
      model: pricingModel({ halfSpreadBps: 0, venueFeeBps: 0, impactBpsPerUsd10k: 0, maxImpactBps: 0 }),
    };
    const quotes = new RfqFastQuotes(new RfqFills(market));
    for (const atMid of [100, 700, 10 ** 9]) {
      expect(quotes.quoteUnits(false, atMid, 2)).toBe(-1);
      expect(quotes.quoteUnits(true, atMid, 2)).toBe(-1);
    }
    expect(quotes.quoteUnits(false, 155, 3)).toBe(16);
    expect(quotes.quoteUnits(true, 155, 3)).toBe(15);
  });
});

describe('FastFillSums', () => {
  it(
    'adds up to the fees and slippage of its fills, as ExactSum of each fill’s exact figures',
    () => {
      fc.assert(
        fc.property(
          markets,
          fc.array(fc.tuple(fillsAt, fc.boolean()), { minLength: 1, maxLength: 60 }),
          fc.integer({ min: 0, max: 3 }),
          (market, trades, repeat) => {
            const fills = new RfqFills(market);
            const fast = new FastFills(new RfqFastQuotes(fills));
            const fees = new ExactSum();
            const slippage = new ExactSum();
            // Repeated fills push the doubles' sums past 2^53 (into their bigint carries).
            for (let r = 0; r <= repeat * 40; r += 1)
              for (const [[close, size], sell] of trades) {
                const units = fast.quote(sell, size, close);
                if (units < 0) continue;
                fast.commit(sell, units);
                const priced = fills.priced(sell ? 'Sell' : 'Buy', size, exactOfNumber(close));
                fees.add(priced.fee);
                slippage.add(priced.slippage);
              }
            const fromFast = [new ExactSum(), new ExactSum()] as const;
            fast.sums.addTo(fromFast[0], fromFast[1]);
            expect(exactText(fromFast[0].value)).toBe(exactText(fees.value));
            expect(exactText(fromFast[1].value)).toBe(exactText(slippage.value));
          },
        ),
        { numRuns: 300 },
      );
    },
    TIMEOUT_MS,
  );
});

describe('decimalOfNumber', () => {
  const moderate = fc
    .tuple(fc.integer({ min: 1, max: 15 }), fc.double({ min: 1e-7, max: 1e14, noNaN: true }))
    .map(([digits, x]) => Number(x.toPrecision(digits)));

  it('is exactOfNumber’s decimal where it answers, and answers decimals of up to 15 digits', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), moderate),
        fc.boolean(),
        (x, must) => {
          const out = new Float64Array(2);
          const value = must ? Number(Math.abs(x) < 1e14 && Math.abs(x) > 1e-7 ? x.toPrecision(15) : 1.5) : x;
          const answered = decimalOfNumber(value, out);
          if (must) expect(answered).toBe(true);
          if (!answered) return;
          expect(Number.isSafeInteger(out[0])).toBe(true);
          expect(exactText({ n: BigInt(out[0]!), scale: out[1]! })).toBe(exactText(exactOfNumber(value)));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
