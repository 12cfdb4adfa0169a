import { describe, expect, it } from 'vitest';
import {
  backtestCostsOf,
  backtestRequestOf,
  INITIAL_BACKTEST_COSTS,
  INITIAL_BACKTEST_OPTIONS,
} from './backtest-costs-model';

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

describe('the /backtest request', () => {
  const form = {
    ...INITIAL_BACKTEST_OPTIONS,
    botId: 'b1',
    startDate: '2025-12-01',
    endDate: '2025-12-31',
    balance: '1000',
  };

  it('sends the pair and interval only when chosen, and the costs always', () => {
    expect(backtestRequestOf(form)).toEqual({
      ok: true,
      request: {
        bot_id: 'b1',
        start_date: '2025-12-01',
        end_date: '2025-12-31',
        initial_balance: 1000,
        costs: { model: 'venue' },
      },
    });
    const chosen = backtestRequestOf({ ...form, symbol: ' BONK/SOL ', interval: '4H' });
    expect(chosen.ok && [chosen.request.symbol, chosen.request.interval]).toEqual(['BONK/SOL', '4H']);
  });

  it('says the spec’s messages first, then the costs’ limits', () => {
    expect(backtestRequestOf({ ...form, botId: '' })).toEqual({ ok: false, error: 'Please select a bot' });
    expect(backtestRequestOf({ ...form, balance: '150' })).toEqual({
      ok: false,
      error: 'Initial balance must be a multiple of 100',
    });
    expect(
      backtestRequestOf({ ...form, costs: { model: 'fixed', feeBps: '5000', slippageBps: '5' } }),
    ).toEqual({ ok: false, error: 'Fee must be between 0 and 1000 bps' });
  });
});
