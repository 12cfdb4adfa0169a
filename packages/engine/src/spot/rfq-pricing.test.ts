import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { Dec } from '../money/decimal';
import {
  DEFAULT_RFQ_PRICING,
  quoteRfq,
  rfqBestPrices,
  type RfqPricing,
  type RfqQuoteInput,
} from './rfq-pricing';

/** An independent oracle: decimal.js with enough digits that nothing here rounds. */
const Exact = Decimal.clone({ precision: 500 });

/** A positive decimal with up to 12 significant digits, from 1e-9 to about 1e15. */
const positiveDec = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: -21, max: 3 }))
  .map(([mantissa, exponent]) => new Dec(`${mantissa}e${exponent}`));

const pricing: fc.Arbitrary<RfqPricing> = fc.record({
  halfSpreadBps: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
  venueFeeBps: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
  impactBpsPerUsd10k: fc.integer({ min: 0, max: 1_000 }).map((n) => n / 100),
  maxImpactBps: fc.integer({ min: 0, max: 1_000 }),
});
/** Pricings where the maker always earns something: strictly positive spread plus fee. */
const earningPricing = pricing.filter((p) => p.halfSpreadBps + p.venueFeeBps > 0);

const decimals = fc.integer({ min: 0, max: 18 });
/** Base units up to beyond a u64, so the exact bigint path is exercised past 18 digits. */
const baseAmount = fc.bigInt({ min: 1n, max: 2n ** 70n });

const quoteInput: fc.Arbitrary<Omit<RfqQuoteInput, 'side'>> = fc.record({
  baseAmount,
  baseDecimals: decimals,
  quoteDecimals: decimals,
  midPrice: positiveDec,
  quoteUsdPrice: positiveDec,
  pricing: fc.oneof(fc.constant(DEFAULT_RFQ_PRICING), pricing),
});

/** The documented impact, exactly: min(max, rate × base × mid × quoteUsd / 10 000) bps. */
function exactImpactBps(input: RfqQuoteInput): Decimal {
  const p = input.pricing ?? DEFAULT_RFQ_PRICING;
  const notional = new Exact(input.baseAmount.toString())
    .div(new Exact(10).pow(input.baseDecimals))
    .times(input.midPrice)
    .times(input.quoteUsdPrice);
  return Exact.min(notional.times(p.impactBpsPerUsd10k).div(10_000), p.maxImpactBps);
}

/** quoteAmount before rounding, in quote base units, from the documented formula. */
function unroundedQuoteUnits(input: RfqQuoteInput, impactBps: Dec): Decimal {
  const p = input.pricing ?? DEFAULT_RFQ_PRICING;
  const sign = input.side === 'Buy' ? 1 : -1;
  const priceFactor = new Exact(1).plus(new Exact(p.halfSpreadBps).plus(impactBps).div(10_000).times(sign));
  const feeFactor = new Exact(1).plus(new Exact(p.venueFeeBps).div(10_000).times(sign));
  return new Exact(input.baseAmount.toString())
    .div(new Exact(10).pow(input.baseDecimals))
    .times(input.midPrice)
    .times(priceFactor)
    .times(feeFactor)
    .times(new Exact(10).pow(input.quoteDecimals));
}

describe('quoteRfq', () => {
  const solUsdc = { baseDecimals: 9, quoteDecimals: 6, midPrice: new Dec(150), quoteUsdPrice: new Dec(1) };

  it('prices 1 SOL at mid 150 with the default spread, impact and fee', () => {
    // Buy: 150 × (1 + 5.015 bps) = 150.075225 gross, + 5 bps fee = 150.1502626125 → rounded up.
    const buy = quoteRfq({ ...solUsdc, side: 'Buy', baseAmount: 1_000_000_000n });
    expect(buy.quoteAmount).toBe(150_150_263n);
    expect(buy.price.toString()).toBe('150.150263');
    expect(buy.venueFee.toString()).toBe('0.0750376125');
    expect(buy.priceImpactBps.toString()).toBe('0.015');
    expect(buy.notionalUsd.toString()).toBe('150');
    // Sell: 150 × (1 − 5.015 bps) = 149.924775 gross, − 5 bps fee = 149.8498126125 → rounded down.
    const sell = quoteRfq({ ...solUsdc, side: 'Sell', baseAmount: 1_000_000_000n });
    expect(sell.quoteAmount).toBe(149_849_812n);
    expect(sell.price.toString()).toBe('149.849812');
    expect(sell.venueFee.toString()).toBe('0.0749623875');
  });

  it('rounds dust against the trader: a buy pays at least one unit, a sell may get nothing', () => {
    expect(quoteRfq({ ...solUsdc, side: 'Buy', baseAmount: 1n }).quoteAmount).toBe(1n);
    expect(quoteRfq({ ...solUsdc, side: 'Sell', baseAmount: 1n }).quoteAmount).toBe(0n);
  });

  it('caps the impact', () => {
    const huge = quoteRfq({ ...solUsdc, side: 'Buy', baseAmount: 10n ** 9n * 10n ** 9n });
    expect(huge.priceImpactBps.toString()).toBe('250');
  });

  it('rejects invalid input', () => {
    const base = { ...solUsdc, side: 'Buy' as const, baseAmount: 1n };
    expect(() => quoteRfq({ ...base, baseAmount: 0n })).toThrow(RangeError);
    expect(() => quoteRfq({ ...base, midPrice: new Dec(0) })).toThrow(RangeError);
    expect(() => quoteRfq({ ...base, quoteUsdPrice: new Dec(-1) })).toThrow(RangeError);
    expect(() => quoteRfq({ ...base, baseDecimals: 1.5 })).toThrow(RangeError);
    expect(() => quoteRfq({ ...base, pricing: { ...DEFAULT_RFQ_PRICING, venueFeeBps: -1 } })).toThrow(
      RangeError,
    );
    expect(() =>
      quoteRfq({ ...base, pricing: { ...DEFAULT_RFQ_PRICING, halfSpreadBps: 9_800, maxImpactBps: 200 } }),
    ).toThrow(RangeError);
    expect(() => quoteRfq({ ...base, pricing: { ...DEFAULT_RFQ_PRICING, venueFeeBps: Number.NaN } })).toThrow(
      RangeError,
    );
  });

  it('rounds the quote amount once, exactly, against the trader (within one quote unit)', () => {
    fc.assert(
      fc.property(quoteInput, fc.constantFrom('Buy' as const, 'Sell' as const), (input, side) => {
        const quote = quoteRfq({ ...input, side });
        const exact = unroundedQuoteUnits({ ...input, side }, exactImpactBps({ ...input, side }));
        const amount = new Exact(quote.quoteAmount.toString());
        if (side === 'Buy') {
          expect(amount.gte(exact)).toBe(true);
          expect(amount.minus(exact).lt(1)).toBe(true);
        } else {
          expect(amount.lte(exact)).toBe(true);
          expect(exact.minus(amount).lt(1)).toBe(true);
          expect(quote.quoteAmount >= 0n).toBe(true);
        }
      }),
    );
  });

  it('charges a non-negative fee and caps the impact', () => {
    fc.assert(
      fc.property(quoteInput, fc.constantFrom('Buy' as const, 'Sell' as const), (input, side) => {
        const quote = quoteRfq({ ...input, side });
        const p = input.pricing ?? DEFAULT_RFQ_PRICING;
        expect(quote.venueFee.gte(0)).toBe(true);
        expect(quote.priceImpactBps.gte(0)).toBe(true);
        expect(quote.priceImpactBps.lte(p.maxImpactBps)).toBe(true);
        // Reported to 18 significant digits; computed exactly.
        const impact = exactImpactBps({ ...input, side }).toSignificantDigits(18, Decimal.ROUND_HALF_UP);
        expect(quote.priceImpactBps.toString()).toBe(new Dec(impact).toString());
      }),
    );
  });

  it('buys above mid and sells below it', () => {
    fc.assert(
      fc.property(quoteInput, earningPricing, (input, p) => {
        const buy = quoteRfq({ ...input, pricing: p, side: 'Buy' });
        const sell = quoteRfq({ ...input, pricing: p, side: 'Sell' });
        expect(buy.price.gt(input.midPrice)).toBe(true);
        expect(sell.price.lt(input.midPrice)).toBe(true);
      }),
    );
  });

  it('never lets a buy then a sell of the same amount return more quote than it cost', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const paid = quoteRfq({ ...input, side: 'Buy' }).quoteAmount;
        const received = quoteRfq({ ...input, side: 'Sell' }).quoteAmount;
        expect(received <= paid).toBe(true);
      }),
    );
  });

  it('never gives a bigger size a better price (beyond one quote unit of the smaller rounding)', () => {
    fc.assert(
      fc.property(quoteInput, baseAmount, (input, extra) => {
        const small = input.baseAmount;
        const large = small + extra;
        const quote = (side: 'Buy' | 'Sell', amount: bigint) =>
          quoteRfq({ ...input, side, baseAmount: amount });
        const [buySmall, buyLarge] = [quote('Buy', small), quote('Buy', large)];
        const [sellSmall, sellLarge] = [quote('Sell', small), quote('Sell', large)];
        expect(buyLarge.priceImpactBps.gte(buySmall.priceImpactBps)).toBe(true);
        // quote/base per unit: the exact price is monotone, each rounding moves it by < 1 unit / size.
        expect(buyLarge.quoteAmount * small >= (buySmall.quoteAmount - 1n) * large).toBe(true);
        expect(sellLarge.quoteAmount * small <= (sellSmall.quoteAmount + 1n) * large).toBe(true);
        // And the totals never shrink with the size.
        expect(buyLarge.quoteAmount >= buySmall.quoteAmount).toBe(true);
        expect(sellLarge.quoteAmount >= sellSmall.quoteAmount).toBe(true);
      }),
    );
  });

  it('never gives a bigger size a better price when the amounts dwarf the rounding', () => {
    const pricingWithImpact = { ...DEFAULT_RFQ_PRICING, impactBpsPerUsd10k: 100, maxImpactBps: 500 };
    const sizes = [1n, 10n, 100n, 1_000n, 10_000n].map((sol) => sol * 10n ** 9n);
    const prices = (side: 'Buy' | 'Sell') =>
      sizes.map((baseAmount) => quoteRfq({ ...solUsdc, side, baseAmount, pricing: pricingWithImpact }).price);
    const buys = prices('Buy');
    const sells = prices('Sell');
    for (let i = 1; i < sizes.length; i++) {
      expect(buys[i]!.gte(buys[i - 1]!)).toBe(true);
      expect(sells[i]!.lte(sells[i - 1]!)).toBe(true);
    }
    expect(buys.at(-1)!.gt(buys[0]!)).toBe(true);
  });
});

describe('rfqBestPrices', () => {
  it('quotes the spread and fee around mid, without impact', () => {
    const { bid, ask } = rfqBestPrices(new Dec(100));
    expect(bid.toString()).toBe('99.900025');
    expect(ask.toString()).toBe('100.100025');
  });

  it('rounds against the trader and brackets mid', () => {
    fc.assert(
      fc.property(positiveDec, earningPricing, (mid, p) => {
        const { bid, ask } = rfqBestPrices(mid, p);
        expect(bid.lt(mid)).toBe(true);
        expect(ask.gt(mid)).toBe(true);
        const spreadFactor = new Exact(p.halfSpreadBps).div(10_000);
        const feeFactor = new Exact(p.venueFeeBps).div(10_000);
        const exactAsk = new Exact(mid).times(spreadFactor.plus(1)).times(feeFactor.plus(1));
        const exactBid = new Exact(mid)
          .times(new Exact(1).minus(spreadFactor))
          .times(new Exact(1).minus(feeFactor));
        expect(ask.gte(exactAsk)).toBe(true);
        expect(bid.lte(exactBid)).toBe(true);
      }),
    );
  });
});
