import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { Dec } from '../money/decimal';
import { limitEscrow, limitFill, limitOrderCrosses } from './limit-orders';

const Exact = Decimal.clone({ precision: 500 });

const limitInput = fc.record({
  baseAmount: fc.bigInt({ min: 1n, max: 2n ** 70n }),
  limitPrice: fc
    .tuple(fc.bigInt({ min: 1n, max: 10n ** 18n }), fc.integer({ min: -30, max: 6 }))
    .map(([mantissa, exponent]) => new Dec(`${mantissa}e${exponent}`)),
  baseDecimals: fc.integer({ min: 0, max: 18 }),
  quoteDecimals: fc.integer({ min: 0, max: 18 }),
});

/** baseAmount × limit in quote base units, unrounded. */
function exactQuoteUnits(input: {
  baseAmount: bigint;
  limitPrice: Dec;
  baseDecimals: number;
  quoteDecimals: number;
}) {
  return new Exact(input.baseAmount.toString())
    .times(input.limitPrice)
    .times(new Exact(10).pow(input.quoteDecimals - input.baseDecimals));
}

describe('limitEscrow', () => {
  const sol = { baseDecimals: 9, quoteDecimals: 6, limitPrice: new Dec('100.0000005') };

  it('escrows the quote of a buy rounded up and settles the base', () => {
    expect(limitEscrow({ ...sol, side: 'Buy', baseAmount: 1_500_000_000n })).toEqual({
      escrowLeg: 'quote',
      escrowAmount: 150_000_001n, // 150.00000075 USDC
      settleAmount: 1_500_000_000n,
    });
  });

  it('escrows the base of a sell and settles the quote rounded down', () => {
    expect(limitEscrow({ ...sol, side: 'Sell', baseAmount: 1_500_000_000n })).toEqual({
      escrowLeg: 'base',
      escrowAmount: 1_500_000_000n,
      settleAmount: 150_000_000n,
    });
  });

  it('is exact beyond 18 significant digits', () => {
    // 12345678901234567890.123456789 × 3 base units of a 0-decimal token, quote with 9 decimals.
    const escrow = limitEscrow({
      side: 'Buy',
      baseAmount: 3n,
      limitPrice: new Dec('12345678901234567890.123456789'),
      baseDecimals: 0,
      quoteDecimals: 9,
    });
    expect(escrow.escrowAmount).toBe(37_037_036_703_703_703_670_370_370_367n);
  });

  it('rejects invalid input', () => {
    expect(() => limitEscrow({ ...sol, side: 'Buy', baseAmount: 0n })).toThrow(RangeError);
    expect(() => limitEscrow({ ...sol, side: 'Buy', baseAmount: 1n, limitPrice: new Dec(0) })).toThrow(
      RangeError,
    );
    expect(() => limitEscrow({ ...sol, side: 'Sell', baseAmount: 1n, quoteDecimals: -1 })).toThrow(
      RangeError,
    );
  });

  it('makes a buy escrow at least base × limit, by less than one quote unit', () => {
    fc.assert(
      fc.property(limitInput, (input) => {
        const escrow = limitEscrow({ ...input, side: 'Buy' });
        const exact = exactQuoteUnits(input);
        expect(escrow.escrowLeg).toBe('quote');
        expect(escrow.settleAmount).toBe(input.baseAmount);
        const given = new Exact(escrow.escrowAmount.toString());
        expect(given.gte(exact)).toBe(true);
        expect(given.minus(exact).lt(1)).toBe(true);
      }),
    );
  });

  it('makes a sell settle at most base × limit, by less than one quote unit', () => {
    fc.assert(
      fc.property(limitInput, (input) => {
        const escrow = limitEscrow({ ...input, side: 'Sell' });
        const exact = exactQuoteUnits(input);
        expect(escrow.escrowLeg).toBe('base');
        expect(escrow.escrowAmount).toBe(input.baseAmount);
        const received = new Exact(escrow.settleAmount.toString());
        expect(received.lte(exact)).toBe(true);
        expect(exact.minus(received).lt(1)).toBe(true);
      }),
    );
  });

  it('never lets a buy and a sell of the same order create quote', () => {
    fc.assert(
      fc.property(limitInput, (input) => {
        const buy = limitEscrow({ ...input, side: 'Buy' });
        const sell = limitEscrow({ ...input, side: 'Sell' });
        expect(sell.settleAmount <= buy.escrowAmount).toBe(true);
        expect(buy.escrowAmount - sell.settleAmount <= 1n).toBe(true);
      }),
    );
  });
});

describe('limitOrderCrosses', () => {
  const book = { bid: new Dec('99.9'), ask: new Dec('100.1') };

  it.each([
    ['Buy', '100.1', true],
    ['Buy', '101', true],
    ['Buy', '100.09', false],
    ['Sell', '99.9', true],
    ['Sell', '99', true],
    ['Sell', '99.91', false],
  ] as const)('%s limit %s crosses: %s', (side, limit, crosses) => {
    expect(limitOrderCrosses({ ...book, side, limitPrice: new Dec(limit) })).toBe(crosses);
  });
});

describe('limitFill (price improvement)', () => {
  const escrowArb = fc
    .record({
      side: fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell'),
      baseAmount: fc.bigInt({ min: 1n, max: 2n ** 64n }),
      limitQuote: fc.bigInt({ min: 1n, max: 2n ** 64n }),
      makerQuote: fc.bigInt({ min: 1n, max: 2n ** 64n }),
    })
    .map(({ side, baseAmount, limitQuote, makerQuote }) => ({
      side,
      escrowAmount: side === 'Buy' ? limitQuote : baseAmount,
      settleAmount: side === 'Buy' ? baseAmount : limitQuote,
      makerQuoteAmount: makerQuote,
    }));

  it("fills a buy at the maker's lower price and refunds the rest of the escrow", () => {
    // 2 SOL at a limit of 105 USDC (210 escrowed); the maker asks 200.2 for the size.
    expect(
      limitFill({
        side: 'Buy',
        escrowAmount: 210_000_000n,
        settleAmount: 2_000_000_000n,
        makerQuoteAmount: 200_200_000n,
      }),
    ).toEqual({ toMaker: 200_200_000n, toTrader: 2_000_000_000n, refund: 9_800_000n });
  });

  it("fills a sell at the maker's higher bid", () => {
    expect(
      limitFill({
        side: 'Sell',
        escrowAmount: 2_000_000_000n,
        settleAmount: 190_000_000n,
        makerQuoteAmount: 199_800_000n,
      }),
    ).toEqual({ toMaker: 2_000_000_000n, toTrader: 199_800_000n, refund: 0n });
  });

  it('does not fill when the maker is worse than the limit', () => {
    expect(
      limitFill({ side: 'Buy', escrowAmount: 100n, settleAmount: 1n, makerQuoteAmount: 101n }),
    ).toBeNull();
    expect(
      limitFill({ side: 'Sell', escrowAmount: 1n, settleAmount: 100n, makerQuoteAmount: 99n }),
    ).toBeNull();
  });

  it('never costs the trader more than the limit or the maker, and conserves the escrow (property)', () => {
    fc.assert(
      fc.property(escrowArb, (input) => {
        const fill = limitFill(input);
        const crosses =
          input.side === 'Buy'
            ? input.makerQuoteAmount <= input.escrowAmount
            : input.makerQuoteAmount >= input.settleAmount;
        if (!crosses) {
          expect(fill).toBeNull();
          return;
        }
        expect(fill).not.toBeNull();
        const { toMaker, toTrader, refund } = fill!;
        // Escrow in = paid out + refund, exactly; nothing negative.
        expect(toMaker + refund).toBe(input.escrowAmount);
        expect(toMaker >= 0n && refund >= 0n && toTrader > 0n).toBe(true);
        if (input.side === 'Buy') {
          // Pays no more than the limit (the escrow) nor the maker's price; gets the full base amount.
          expect(toMaker <= input.escrowAmount && toMaker <= input.makerQuoteAmount).toBe(true);
          expect(toTrader).toBe(input.settleAmount);
        } else {
          // Receives at least the limit and at least the maker's price; gives the whole base escrow.
          expect(toTrader >= input.settleAmount && toTrader >= input.makerQuoteAmount).toBe(true);
          expect(refund).toBe(0n);
        }
      }),
    );
  });
});
