import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Dec } from '../money/decimal';
import { slippageBps } from './receipts';

const price = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: -9, max: 3 }))
  .map(([mantissa, exponent]) => new Dec(`${mantissa}e${exponent}`));

describe('slippageBps', () => {
  it.each([
    ['Buy', '100', '100.5', '50'],
    ['Buy', '100', '99.5', '-50'],
    ['Sell', '100', '99.5', '50'],
    ['Sell', '100', '100.5', '-50'],
    ['Buy', '100', '100', '0'],
    ['Sell', '3', '2', '3333.33333333333333'],
  ] as const)('%s quoted %s filled %s = %s bps', (side, quoted, filled, expected) => {
    const bps = slippageBps({ side, quotedPrice: new Dec(quoted), filledPrice: new Dec(filled) });
    expect(bps.toString()).toBe(expected);
  });

  it('is positive exactly when the fill is worse for the trader', () => {
    fc.assert(
      fc.property(price, price, (quotedPrice, filledPrice) => {
        const buy = slippageBps({ side: 'Buy', quotedPrice, filledPrice });
        const sell = slippageBps({ side: 'Sell', quotedPrice, filledPrice });
        expect(buy.comparedTo(0)).toBe(filledPrice.comparedTo(quotedPrice));
        expect(sell.comparedTo(0)).toBe(quotedPrice.comparedTo(filledPrice));
        expect(buy.plus(sell).isZero()).toBe(true);
      }),
    );
  });

  it('rejects a non-positive quoted price', () => {
    expect(() => slippageBps({ side: 'Buy', quotedPrice: new Dec(0), filledPrice: new Dec(1) })).toThrow(
      RangeError,
    );
  });
});
