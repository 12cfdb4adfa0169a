import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TBacktestResult } from '@solterm/contracts';
import { formatSignedPercent as signedPercent } from '../../../lib/format';
import { BacktestResults } from './backtest-results';

vi.mock('./equity-chart', () => ({ EquityChart: () => null }));
vi.mock('./backtest-trades-chart', () => ({ BacktestTradesChart: () => null }));

const result = (overrides: Partial<TBacktestResult> = {}): TBacktestResult => ({
  initial_balance: 1000,
  final_balance: 999.99996,
  total_return: -0.000004,
  total_trades: 256_335,
  win_rate: 50,
  max_drawdown: 0,
  sharpe_ratio: 0,
  winning_trades: 128_000,
  losing_trades: 128_335,
  equity_curve: Array.from({ length: 8761 }, (_, i) => ({
    timestamp: new Date(Date.UTC(2025, 0, 1) + i * 3600_000).toISOString(),
    value: 1000,
  })),
  sortino_ratio: 0,
  calmar_ratio: 0,
  profit_factor: null,
  expectancy: 0,
  exposure: 0,
  fees_paid: 0,
  slippage_paid: 0,
  costs: { model: 'venue', fee_bps: null, slippage_bps: null },
  sizing: { mode: 'fixed_base', value: 0.0001 },
  benchmark: { final_balance: 1100, total_return: 10, max_drawdown: 3.5, equity_curve: [] },
  trades: [],
  trades_truncated: false,
  symbol: 'SOL/USDC',
  interval: '1M',
  start_date: '2025-10-01T00:00:00.000Z',
  end_date: '2025-12-31T00:00:00.000Z',
  requested_start_date: '2025-01-01T00:00:00.000Z',
  requested_end_date: '2025-12-31T00:00:00.000Z',
  candles: 525_600,
  skipped_signals: [],
  notices: [],
  export_id: null,
  ...overrides,
});

const statValue = (label: string) => screen.getByText(label).nextElementSibling?.textContent;

describe('BacktestResults', () => {
  it('groups counts, and shows a return that rounds to zero as a neutral 0.00%', () => {
    render(<BacktestResults result={result()} />);
    expect(statValue('Total return')).toBe('0.00%');
    expect(screen.getByText('Total return').nextElementSibling!.className).not.toMatch(/text-(up|down)/);
    expect(statValue('Total trades')).toBe('256,335');
    expect(statValue('Winning trades')).toBe('128,000');
    expect(statValue('Data points (hours)')).toBe('8,761');
    expect(signedPercent(-0.004)).toBe('0.00%');
    expect(signedPercent(0.004)).toBe('0.00%');
    expect(signedPercent(1.5)).toBe('+1.50%');
    expect(signedPercent(-1.5)).toBe('-1.50%');
  });

  it('says what the server noticed: a range cut to the data, signals skipped and why', () => {
    render(
      <BacktestResults
        result={result({
          total_trades: 0,
          winning_trades: 0,
          losing_trades: 0,
          skipped_signals: [{ reason: 'insufficient balance', count: 1234 }],
          notices: [
            'No SOL/USDC data before 2025-10-01: the backtest starts there, not on 2025-01-01.',
            '1,234 buy signals skipped: insufficient balance.',
          ],
        })}
      />,
    );
    const notices = screen.getAllByRole('status', { name: 'Backtest notice' });
    expect(notices.map((notice) => notice.textContent)).toEqual([
      'No SOL/USDC data before 2025-10-01: the backtest starts there, not on 2025-01-01.',
      '1,234 buy signals skipped: insufficient balance.',
    ]);
    const trades = screen.getByText('Trades').closest('div')!.parentElement!;
    expect(within(trades).getByText('No trade: 1,234 signals skipped (insufficient balance).')).toBeTruthy();
  });

  it('promises every fill in the export only when the server kept them', () => {
    const trade = {
      time: '2025-10-01T00:00:00.000Z',
      side: 'Buy' as const,
      quantity: 1,
      price: 150,
      value: 150.3,
      fee: 0.1,
      slippage: 0.2,
      pnl: null,
      reason: 'SMA short crossed above long, with a reason long enough to need a second line',
    };
    const { rerender } = render(
      <BacktestResults result={result({ trades: [trade], trades_truncated: true, export_id: 'e-1' })} />,
    );
    expect(
      screen.getByText('More than 1 fills; the first 1 shown, every fill in the CSV export'),
    ).toBeTruthy();
    // The reason wraps instead of being cut.
    expect(screen.getByText(trade.reason).className).toMatch(/whitespace-normal/);
    rerender(<BacktestResults result={result({ trades: [trade], export_id: null })} />);
    expect(screen.getByText('1 fills; the first 1 shown')).toBeTruthy();
  });
});
