import { describe, expect, it } from 'vitest';
import { SpecDecimal } from '@solterm/contracts';
import { buildQuickTradeOrder, checkQuickTradeBalances, QUICK_TRADE_NOTICES } from './quick-trade';

const amount = new SpecDecimal('0.5');
const price = new SpecDecimal('150');
const pair = { base: 'SOL', quote: 'USDC', amount, price } as const;

describe('checkQuickTradeBalances', () => {
  it('warns, with a tip, when there is no USDC to buy with', () => {
    const check = checkQuickTradeBalances({ ...pair, side: 'Buy', balances: { SOL: 2, USDC: 0 } });
    expect(check).toEqual({
      ok: false,
      tone: 'warning',
      message: 'No USDC available to buy SOL with.',
      tip: QUICK_TRADE_NOTICES.noQuoteTip('USDC', 'SOL'),
    });
  });

  it('treats a missing balance as none', () => {
    const check = checkQuickTradeBalances({ ...pair, side: 'Buy', balances: { SOL: 2 } });
    expect(check.ok).toBe(false);
  });

  it('warns when there is no SOL to sell', () => {
    const check = checkQuickTradeBalances({ ...pair, side: 'Sell', balances: { SOL: 0, USDC: 100 } });
    expect(check).toEqual({ ok: false, tone: 'warning', message: 'No SOL available to sell.' });
  });

  it('refuses more than is available with the required and available amounts', () => {
    const check = checkQuickTradeBalances({ ...pair, side: 'Buy', balances: { SOL: 0, USDC: 50 } });
    expect(check).toEqual({
      ok: false,
      tone: 'error',
      message: 'Insufficient USDC balance. Required: 75.00, Available: 50.00',
    });
  });

  it('passes when the wallet can pay', () => {
    expect(checkQuickTradeBalances({ ...pair, side: 'Buy', balances: { USDC: 75 } })).toEqual({ ok: true });
    expect(checkQuickTradeBalances({ ...pair, side: 'Sell', balances: { SOL: 0.5 } })).toEqual({ ok: true });
  });
});

describe('buildQuickTradeOrder', () => {
  it('is a market order for the pair at the price seen', () => {
    expect(buildQuickTradeOrder('SOL/USDC', 'Buy', amount, price)).toEqual({
      symbol: 'SOL/USDC',
      order_type: 'Market',
      side: 'Buy',
      quantity: 0.5,
      price: 150,
    });
  });
});
