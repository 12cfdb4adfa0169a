import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  exactOf as frozenExactOf,
  exactOfNumber as frozenExactOfNumber,
  toDec as frozenToDec,
} from '../backtest/fixtures/engine-v1/exact';
import { quoteRfqExact as frozenQuote, pricingModel } from '../backtest/fixtures/engine-v1/rfq-pricing';
import { slippageOf as frozenSlippageOf } from '../backtest/fixtures/engine-v1/venue';
import { Dec } from '../money/decimal';
import { exactOfNumber, toDec, toDecText, type Exact } from '../money/exact';
import { RfqFills } from './rfq-fills';
import { slippageOf } from './venue';

// The fast paths of the backtest's money, held to the arithmetic they replaced (the frozen
// engine-v1): the same exact values, digit for digit and scale for scale.

const exactText = (x: Exact) => `${x.n}e-${x.scale}`;
const TIMEOUT_MS = 60_000;

/** Doubles as prices come: decimals of 1 to 17 significant digits at any magnitude, and raw doubles. */
const price = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 17 }), fc.double({ min: 1e-12, max: 1e12, noNaN: true }))
    .map(([digits, x]) => Number(x.toPrecision(digits))),
  fc.double({ min: -1e25, max: 1e25, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1e9, max: 1e9 }).map((cents) => cents / 100),
  fc.constantFrom(0, -0, 0.1, 1.5e-7, 2 ** 53, 2 ** 53 + 2, 1e21, 123456789012345680000, 5e-324),
);

describe('exactOfNumber', () => {
  it(
    'reads the decimal String(x) prints, as before (same digits, same scale)',
    () => {
      fc.assert(
        fc.property(price, (x) => {
          expect(exactText(exactOfNumber(x))).toBe(exactText(frozenExactOfNumber(x)));
        }),
        { numRuns: 5000 },
      );
    },
    TIMEOUT_MS,
  );

  it('refuses what is not finite', () => {
    expect(() => exactOfNumber(Number.NaN)).toThrow(RangeError);
    expect(() => exactOfNumber(Infinity)).toThrow(RangeError);
  });
});

describe('toDecText', () => {
  const exact = fc
    .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: 0, max: 40 }))
    .map(([n, scale]) => ({ n, scale }));
  const nines = fc.integer({ min: 0, max: 30 }).map((scale) => ({ n: 10n ** 19n - 1n, scale }));
  const ties = fc
    .tuple(
      fc.bigInt({ min: 10n ** 17n, max: 10n ** 18n - 1n }),
      fc.boolean(),
      fc.integer({ min: 0, max: 30 }),
    )
    .map(([head, negative, scale]) => ({ n: (negative ? -1n : 1n) * (head * 10n + 5n), scale }));

  it(
    'is toDec’s decimal (18 digits, half up) and its toNumber',
    () => {
      fc.assert(
        fc.property(fc.oneof(exact, nines, ties), (x) => {
          const before = frozenToDec(x);
          const text = toDecText(x);
          expect(new Dec(text).toString()).toBe(before.toString());
          expect(toDec(x).toString()).toBe(before.toString());
          // The same decimal.js value inside too (sign, exponent, words).
          expect(toDec(x)).toEqual(before);
          expect(Object.is(Number(text), before.toNumber())).toBe(true);
        }),
        { numRuns: 5000 },
      );
    },
    TIMEOUT_MS,
  );
});

describe('RfqFills', () => {
  const pricings = fc.record({
    halfSpreadBps: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constantFrom(0.5, 2.5, 12.25)),
    venueFeeBps: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constantFrom(0.75, 1.5)),
    impactBpsPerUsd10k: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constantFrom(0.1, 2.5)),
    maxImpactBps: fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.constantFrom(0.5, 7.5)),
  });
  const market = fc.record({
    baseDecimals: fc.integer({ min: 0, max: 12 }),
    quoteDecimals: fc.integer({ min: 0, max: 12 }),
    quoteUsdPrice: fc.constantFrom('0', '1', '0.99871', '1.0003', '25'),
    pricing: pricings,
  });
  const mid = fc.oneof(
    price.filter((x) => x > 0 && x < 1e15).map((x) => frozenExactOfNumber(x)),
    fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.integer({ min: 0, max: 30 }))
      .map(([n, scale]) => ({ n, scale })),
  );
  const base = fc.bigInt({ min: 1n, max: 10n ** 20n });

  it(
    'quotes the same units and fee as quoteRfqExact, and the same slippage, on both sides',
    () => {
      fc.assert(
        fc.property(
          market,
          mid,
          base,
          fc.constantFrom('Buy' as const, 'Sell' as const),
          (m, at, size, side) => {
            const spec = {
              baseDecimals: m.baseDecimals,
              quoteDecimals: m.quoteDecimals,
              quoteUsdPrice: frozenExactOf(new Dec(m.quoteUsdPrice)),
              model: pricingModel(m.pricing),
            };
            const before = frozenQuote(side, size, at, spec);
            const now = new RfqFills(spec).quote(side, size, at);
            expect(now.quoteAmount).toBe(before.quoteAmount);
            expect(exactText(now.fee)).toBe(exactText(before.fee));
            const slippage = slippageOf(side, size, now.quoteAmount, at, now.fee, m);
            const frozenSlippage = frozenSlippageOf(side, size, before.quoteAmount, at, before.fee, m);
            expect(exactText(slippage)).toBe(exactText(frozenSlippage));
            // priced(): the same figures and the slippage in one pass.
            const priced = new RfqFills(spec).priced(side, size, at);
            expect(priced.quoteAmount).toBe(before.quoteAmount);
            expect(exactText(priced.fee)).toBe(exactText(before.fee));
            expect(exactText(priced.slippage)).toBe(exactText(frozenSlippage));
          },
        ),
        { numRuns: 5000 },
      );
    },
    TIMEOUT_MS,
  );

  it('rounds totals that are whole quote units, and just either side of them, as the division does', () => {
    // No spread, fee or impact: the total is base × mid exactly, a whole number of cents at mid 1.
    const spec = {
      baseDecimals: 0,
      quoteDecimals: 2,
      quoteUsdPrice: { n: 0n, scale: 0 },
      model: pricingModel({ halfSpreadBps: 0, venueFeeBps: 0, impactBpsPerUsd10k: 0, maxImpactBps: 0 }),
    };
    for (const n of [
      1n,
      99_999_999_999_999n,
      10n ** 15n + 1n,
      2n ** 53n - 1n,
      2n ** 53n + 1n,
      10n ** 17n - 1n,
    ])
      for (const scale of [0, 2, 3, 17])
        for (const side of ['Buy', 'Sell'] as const) {
          const at = { n, scale };
          const before = frozenQuote(side, 7n, at, spec);
          const priced = new RfqFills(spec).priced(side, 7n, at);
          expect(priced.quoteAmount).toBe(before.quoteAmount);
          expect(exactText(priced.slippage)).toBe(
            exactText(frozenSlippageOf(side, 7n, before.quoteAmount, at, before.fee, spec)),
          );
        }
  });

  it('takes the cap when the linear impact reaches it, exactly at the boundary too', () => {
    // 1 bp per $10k capped at 1 bp: the linear impact equals the cap at $10,000 of notional.
    const spec = {
      baseDecimals: 0,
      quoteDecimals: 2,
      quoteUsdPrice: { n: 1n, scale: 0 },
      model: pricingModel({ halfSpreadBps: 5, venueFeeBps: 5, impactBpsPerUsd10k: 1, maxImpactBps: 1 }),
    };
    for (const size of [9_999n, 10_000n, 10_001n]) {
      const at = { n: 1n, scale: 0 };
      const before = frozenQuote('Buy', size, at, spec);
      const now = new RfqFills(spec).quote('Buy', size, at);
      expect([now.quoteAmount, exactText(now.fee)]).toEqual([before.quoteAmount, exactText(before.fee)]);
    }
  });
});
