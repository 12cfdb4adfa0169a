import { describe, expect, it } from 'vitest';
import type { TBacktestTrade } from '@solterm/contracts';
import {
  backtestChartInterval,
  backtestPeriod,
  backtestTradeMarkers,
  MAX_BACKTEST_CHART_CANDLES,
} from './backtest-trades-model';

const trade = (overrides: Partial<TBacktestTrade>): TBacktestTrade => ({
  time: '2025-03-01T10:15:00.000Z',
  side: 'Buy',
  quantity: 1,
  price: 150,
  value: 150.3,
  fee: 0.3,
  slippage: 0.3,
  pnl: null,
  reason: 'signal',
  ...overrides,
});

describe('backtest price chart', () => {
  it('draws the period in the backtest’s own interval while it fits, else the first coarser one that does', () => {
    const day = { start_date: '2025-03-01T00:00:00.000Z', end_date: '2025-03-02T00:00:00.000Z' };
    expect(backtestChartInterval({ ...day, interval: '5M' })).toBe('5M');
    expect(backtestChartInterval({ ...day, interval: '1M' })).toBe('5M');
    expect(backtestChartInterval({ ...day, interval: '1H' })).toBe('1H');
    const year = { start_date: '2025-01-01T00:00:00.000Z', end_date: '2026-01-01T00:00:00.000Z' };
    expect(backtestChartInterval({ ...year, interval: '1M' })).toBe('1D');
    const twoMonths = { start_date: '2025-01-01T00:00:00.000Z', end_date: '2025-03-02T00:00:00.000Z' };
    expect(backtestChartInterval({ ...twoMonths, interval: '15M' })).toBe('4H');
    expect(backtestChartInterval({ ...year, interval: '1D' })).toBe('1D');
    const { from, to } = backtestPeriod(year);
    expect((to - from) / 86_400).toBeLessThanOrEqual(MAX_BACKTEST_CHART_CANDLES);
  });

  it('marks buys and sells at their time and price, skipping a time it cannot read', () => {
    expect(
      backtestTradeMarkers([
        trade({}),
        trade({ side: 'Sell', time: '2025-03-01T12:00:30.000Z', price: 155.5, pnl: 5 }),
        trade({ time: 'not a time' }),
      ]),
    ).toEqual([
      { time: Date.UTC(2025, 2, 1, 10, 15) / 1000, tone: 'buy', text: 'Buy', price: 150 },
      { time: Date.UTC(2025, 2, 1, 12, 0, 30) / 1000, tone: 'sell', text: 'Sell', price: 155.5 },
    ]);
  });
});
