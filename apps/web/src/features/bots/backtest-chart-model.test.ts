import { describe, expect, it } from 'vitest';
import { backtestChartModel, MAX_CHART_POINTS } from './backtest-chart-model';
import { backtestTradesCsv } from './backtest-export';

const hour = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
const result = (values: number[]) => ({
  equity_curve: values.map((value, i) => ({ timestamp: hour(i), value })),
  initial_balance: 1000,
  final_balance: values.at(-1) ?? 1100,
  start_date: hour(0),
  end_date: hour(24),
});

describe('backtestChartModel', () => {
  it('shows Start and End points from the balances when there is no curve', () => {
    const model = backtestChartModel(result([]));
    expect(model.isStartEndOnly).toBe(true);
    expect(model.equity.map((point) => point.value)).toEqual([1000, 1100]);
    expect(model.drawdown).toBeNull();
  });

  it('draws the drawdown from the running peak only with more than 2 points', () => {
    expect(backtestChartModel(result([1000, 900])).drawdown).toBeNull();
    const model = backtestChartModel(result([1000, 1200, 900, 1300]));
    expect(model.drawdown?.map((point) => point.value)).toEqual([0, 0, -25, 0]);
  });

  it('thins long curves but keeps the first, last and deepest points', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => 1000 + Math.sin(i / 50) * 100);
    values[7_777] = 100;
    const model = backtestChartModel(result(values));
    expect(model.equity.length).toBeLessThanOrEqual(MAX_CHART_POINTS + 2);
    expect(model.equity[0]!.value).toBe(values[0]);
    expect(model.equity.at(-1)!.value).toBe(values.at(-1));
    expect(model.equity.some((point) => point.value === 100)).toBe(true);
    expect(model.drawdown).toHaveLength(model.equity.length);
  });
});

describe('backtestTradesCsv', () => {
  it('writes a header and one row per trade, quoting what needs it', () => {
    const csv = backtestTradesCsv({
      trades: [
        {
          time: hour(1),
          side: 'Buy',
          quantity: 1,
          price: 150.1,
          value: 150.1,
          fee: 0.07,
          slippage: 0.15,
          pnl: null,
          reason: 'a, "b"',
        },
      ],
    });
    expect(csv).toBe(
      `time,side,quantity,price,value,fee,slippage,pnl,reason\n${hour(1)},Buy,1,150.1,150.1,0.07,0.15,,"a, ""b"""\n`,
    );
  });
});
