import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from '../money/decimal';
import {
  nextTrailReference,
  slippageBound,
  trailingTrigger,
  triggerCrossed,
  triggerDirection,
  triggerEscrow,
  triggerFill,
} from './trigger-orders';

describe('trigger orders', () => {
  it('fires a sell TP on a rise and a sell stop on a fall; a buy the other way round', () => {
    expect(triggerDirection('TakeProfit', 'Sell')).toBe('above');
    expect(triggerDirection('StopLoss', 'Sell')).toBe('below');
    expect(triggerDirection('TrailingStop', 'Sell')).toBe('below');
    expect(triggerDirection('TakeProfit', 'Buy')).toBe('below');
    expect(triggerDirection('StopLoss', 'Buy')).toBe('above');
    expect(triggerDirection('TrailingStop', 'Buy')).toBe('above');
    expect(triggerCrossed('below', new Dec(100), new Dec(100))).toBe(true);
    expect(triggerCrossed('below', new Dec(100), new Dec('100.01'))).toBe(false);
    expect(triggerCrossed('above', new Dec(100), new Dec('99.99'))).toBe(false);
  });

  it('trails the high of a sell and the low of a buy, never back', () => {
    expect(nextTrailReference('Sell', new Dec(100), new Dec(99)).toFixed()).toBe('100');
    expect(nextTrailReference('Sell', new Dec(100), new Dec(101)).toFixed()).toBe('101');
    expect(nextTrailReference('Buy', new Dec(100), new Dec(101)).toFixed()).toBe('100');
    expect(trailingTrigger('Sell', new Dec(200), new Dec(5)).toFixed()).toBe('190');
    expect(trailingTrigger('Buy', new Dec(200), new Dec(5)).toFixed()).toBe('210');
  });

  it('escrows a buy at its bound and fills within it only', () => {
    // 2 SOL, trigger 100 USDC, 1 %: the buy escrows 202 USDC
    const input = {
      side: 'Buy' as const,
      baseAmount: 2_000_000_000n,
      trigger: new Dec(100),
      maxSlippageBps: 100,
      baseDecimals: 9,
      quoteDecimals: 6,
    };
    expect(triggerEscrow(input)).toEqual({
      escrowLeg: 'quote',
      escrowAmount: 202_000_000n,
      settleAmount: 2_000_000_000n,
    });
    const fill = { ...input, escrowAmount: 202_000_000n };
    expect(triggerFill({ ...fill, makerQuoteAmount: 201_000_000n })).toEqual({
      toMaker: 201_000_000n,
      toTrader: 2_000_000_000n,
      refund: 1_000_000n,
    });
    expect(triggerFill({ ...fill, makerQuoteAmount: 202_000_001n })).toBeNull();
    // A trailing buy whose trigger fell to 90 accepts at most 181.8 USDC now
    expect(triggerFill({ ...fill, trigger: new Dec(90), makerQuoteAmount: 181_800_001n })).toBeNull();
  });

  it('a sell receives at least its bound', () => {
    const input = {
      side: 'Sell' as const,
      baseAmount: 1_000_000_000n,
      escrowAmount: 1_000_000_000n,
      trigger: new Dec(100),
      maxSlippageBps: 50,
      baseDecimals: 9,
      quoteDecimals: 6,
    };
    expect(triggerFill({ ...input, makerQuoteAmount: 99_500_000n })?.toTrader).toBe(99_500_000n);
    expect(triggerFill({ ...input, makerQuoteAmount: 99_499_999n })).toBeNull();
    expect(slippageBound('Sell', new Dec(100), 50).toFixed()).toBe('99.5');
  });

  it('never pays out more than the escrow, and never worse than the bound (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell'),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.integer({ min: 50, max: 100 }),
        (side, baseAmount, triggerCents, bps, makerQuoteAmount, trailedPercent) => {
          const placed = new Dec(triggerCents).div(100);
          const escrow = triggerEscrow({
            side,
            baseAmount,
            trigger: placed,
            maxSlippageBps: bps,
            baseDecimals: 9,
            quoteDecimals: 6,
          });
          // A buy's trigger only falls after placement (trailing), a sell's only rises.
          const now =
            side === 'Buy'
              ? placed.times(trailedPercent).div(100)
              : placed.times(200 - trailedPercent).div(100);
          const fill = triggerFill({
            side,
            baseAmount,
            escrowAmount: escrow.escrowAmount,
            trigger: now,
            maxSlippageBps: bps,
            baseDecimals: 9,
            quoteDecimals: 6,
            makerQuoteAmount,
          });
          if (!fill) return;
          expect(fill.toMaker + fill.refund).toBe(escrow.escrowAmount);
          expect(fill.refund >= 0n).toBe(true);
          const bound = triggerEscrow({
            side,
            baseAmount,
            trigger: now,
            maxSlippageBps: bps,
            baseDecimals: 9,
            quoteDecimals: 6,
          });
          if (side === 'Buy') expect(fill.toMaker <= bound.escrowAmount).toBe(true);
          else expect(fill.toTrader >= bound.settleAmount && fill.toTrader >= escrow.settleAmount).toBe(true);
        },
      ),
    );
  });
});
