import { describe, expect, it } from 'vitest';
import { SpecDecimal } from '@solterm/contracts';
import { SOL_USDC } from './test/spot-fixtures';
import {
  checkTriggerOrder,
  triggerEscrowPreview,
  wrongSideMessage,
  type TriggerOrderInput,
} from './trigger-order-model';

const MARKET = new SpecDecimal('150');

function order(overrides: Partial<TriggerOrderInput>): TriggerOrderInput {
  return {
    type: 'StopLoss',
    side: 'Sell',
    amount: '1',
    triggerPrice: '140',
    trailPercent: '',
    maxSlippageBps: '100',
    priorityFeeMicroLamports: 0,
    ...overrides,
  };
}

const check = (input: Partial<TriggerOrderInput>, balances: Record<string, number> | null = null) =>
  checkTriggerOrder({ order: order(input), pair: SOL_USDC, marketPrice: MARKET, balances, hasWallet: true });

describe('trigger orders before the wallet', () => {
  it('knows which side of the market each type and side must trigger on', () => {
    const at = (price: string) => new SpecDecimal(price);
    expect(wrongSideMessage('TakeProfit', 'Sell', at('151'), MARKET, 'SOL/USDC')).toBeNull();
    expect(wrongSideMessage('TakeProfit', 'Sell', at('150'), MARKET, 'SOL/USDC')).toMatch(/must be above/);
    expect(wrongSideMessage('StopLoss', 'Sell', at('149'), MARKET, 'SOL/USDC')).toBeNull();
    expect(wrongSideMessage('StopLoss', 'Sell', at('151'), MARKET, 'SOL/USDC')).toMatch(/must be below/);
    expect(wrongSideMessage('TakeProfit', 'Buy', at('149'), MARKET, 'SOL/USDC')).toBeNull();
    expect(wrongSideMessage('TakeProfit', 'Buy', at('151'), MARKET, 'SOL/USDC')).toMatch(/must be below/);
    expect(wrongSideMessage('StopLoss', 'Buy', at('151'), MARKET, 'SOL/USDC')).toBeNull();
    expect(wrongSideMessage('StopLoss', 'Buy', at('149'), MARKET, 'SOL/USDC')).toMatch(/must be above/);
  });

  it('bounds the trail to 0.1–50 % and the slippage to whole bps up to 5000', () => {
    const trailing = { type: 'TrailingStop' as const, triggerPrice: '' };
    expect(check({ ...trailing, trailPercent: '0.05' })).toMatchObject({ ok: false, field: 'trigger' });
    expect(check({ ...trailing, trailPercent: '50.5' })).toMatchObject({ ok: false, field: 'trigger' });
    expect(check({ ...trailing, trailPercent: '0.1' })).toMatchObject({ ok: true });
    expect(check({ ...trailing, trailPercent: '50' })).toMatchObject({ ok: true });
    expect(check({ maxSlippageBps: '5001' })).toMatchObject({ ok: false, field: 'slippage' });
    expect(check({ maxSlippageBps: '1.5' })).toMatchObject({ ok: false, field: 'slippage' });
    expect(check({ maxSlippageBps: '0' })).toMatchObject({ ok: true });
  });

  it('a buy escrows the quote its slippage bound can cost at the trigger, and checks that balance', () => {
    const stopBuy = { type: 'StopLoss' as const, side: 'Buy' as const, triggerPrice: '160', amount: '2' };
    const placed = check(stopBuy, { USDC: 1000, SOL: 0 });
    // 2 × 160 × 1.01
    expect(placed).toMatchObject({ ok: true, escrow: { token: 'USDC' } });
    expect(placed.ok && placed.escrow.amount.toString()).toBe('323.2');
    expect(check(stopBuy, { USDC: 300, SOL: 0 })).toMatchObject({
      ok: false,
      field: 'balance',
      error: 'Insufficient USDC balance. Required: 323.2, Available: 300',
    });
  });

  it('a trailing buy escrows at the trigger it has at placement (the market plus the trail)', () => {
    const escrow = triggerEscrowPreview('Buy', new SpecDecimal(1), new SpecDecimal('153'), 0, SOL_USDC);
    expect(escrow?.amount.toString()).toBe('153');
    const placed = check({
      type: 'TrailingStop',
      side: 'Buy',
      triggerPrice: '',
      trailPercent: '2',
      maxSlippageBps: '0',
    });
    expect(placed.ok && placed.escrow.amount.toString()).toBe('153');
  });
});
