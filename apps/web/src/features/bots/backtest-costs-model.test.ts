import { describe, expect, it } from 'vitest';
import { backtestCostsOf, INITIAL_BACKTEST_COSTS } from './backtest-costs-model';

describe('the backtest form’s fees and slippage', () => {
  it('sends the venue model by default, the fixed one with its bps (blank: the defaults)', () => {
    expect(backtestCostsOf(INITIAL_BACKTEST_COSTS)).toEqual({ ok: true, costs: { model: 'venue' } });
    expect(backtestCostsOf({ model: 'fixed', feeBps: '10', slippageBps: ' ' })).toEqual({
      ok: true,
      costs: { model: 'fixed', fee_bps: 10, slippage_bps: 5 },
    });
  });

  it('refuses bps outside 0–1000 with the limits', () => {
    expect(backtestCostsOf({ model: 'fixed', feeBps: '1001', slippageBps: '5' })).toEqual({
      ok: false,
      error: 'Fee must be between 0 and 1000 bps',
    });
    expect(backtestCostsOf({ model: 'fixed', feeBps: '5', slippageBps: '-1' })).toEqual({
      ok: false,
      error: 'Slippage must be between 0 and 1000 bps',
    });
  });
});
