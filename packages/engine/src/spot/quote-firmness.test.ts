import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isQuoteStillFirm } from './quote-firmness';

describe('isQuoteStillFirm', () => {
  it('keeps a buy whose price has not risen beyond the tolerance', () => {
    // Quoted 100.00 USDC; the maker now asks 100.10 (10 bps more).
    expect(
      isQuoteStillFirm({
        side: 'Buy',
        quotedAmount: 100_000_000n,
        currentAmount: 100_100_000n,
        toleranceBps: 10,
      }),
    ).toBe(true);
    expect(
      isQuoteStillFirm({
        side: 'Buy',
        quotedAmount: 100_000_000n,
        currentAmount: 100_110_000n,
        toleranceBps: 10,
      }),
    ).toBe(false);
    // A price that moved in the maker's favour is always firm.
    expect(
      isQuoteStillFirm({
        side: 'Buy',
        quotedAmount: 100_000_000n,
        currentAmount: 90_000_000n,
        toleranceBps: 0,
      }),
    ).toBe(true);
  });

  it('keeps a sell whose price has not fallen beyond the tolerance', () => {
    expect(
      isQuoteStillFirm({
        side: 'Sell',
        quotedAmount: 100_000_000n,
        currentAmount: 99_910_000n,
        toleranceBps: 10,
      }),
    ).toBe(true);
    expect(
      isQuoteStillFirm({
        side: 'Sell',
        quotedAmount: 100_000_000n,
        currentAmount: 99_800_000n,
        toleranceBps: 10,
      }),
    ).toBe(false);
    expect(
      isQuoteStillFirm({
        side: 'Sell',
        quotedAmount: 100_000_000n,
        currentAmount: 110_000_000n,
        toleranceBps: 0,
      }),
    ).toBe(true);
  });

  it('never lets the maker give away more than the tolerance against its current price (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell'),
        fc.bigInt({ min: 1n, max: 2n ** 64n }),
        fc.bigInt({ min: 1n, max: 2n ** 64n }),
        fc.integer({ min: 0, max: 500 }),
        (side, quotedAmount, currentAmount, toleranceBps) => {
          const firm = isQuoteStillFirm({ side, quotedAmount, currentAmount, toleranceBps });
          // The maker's loss against its current price, in bps of that price (exact, cross-multiplied).
          const loss = side === 'Buy' ? currentAmount - quotedAmount : quotedAmount - currentAmount;
          expect(firm).toBe(loss * 10_000n <= BigInt(toleranceBps) * currentAmount);
        },
      ),
    );
  });

  it('refuses a negative or fractional tolerance', () => {
    expect(() =>
      isQuoteStillFirm({ side: 'Buy', quotedAmount: 1n, currentAmount: 1n, toleranceBps: -1 }),
    ).toThrow(RangeError);
    expect(() =>
      isQuoteStillFirm({ side: 'Buy', quotedAmount: 1n, currentAmount: 1n, toleranceBps: 0.5 }),
    ).toThrow(RangeError);
  });
});
