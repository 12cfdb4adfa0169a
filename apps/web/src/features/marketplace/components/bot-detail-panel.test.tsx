import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { DEFAULT_BOT_CONFIG } from '@solterm/contracts';
import { renderWithProviders, stubFetch } from '../../../test/test-utils';
import { BotDetailPanel } from './bot-detail-panel';

const ID = '33333333-3333-4333-8333-333333333333';

function detail(overrides: object) {
  return {
    bot_id: ID,
    bot_name: 'Trend Rider',
    strategy_type: 'sma_crossover',
    status: 'stopped',
    is_running: false,
    network_mode: 'test',
    total_trades: 256335,
    total_pnl: 12.5,
    win_rate: 50,
    current_balance: 1012.5,
    daily_pnl: 0,
    weekly_pnl: 0,
    monthly_pnl: 0,
    max_drawdown: 1.2,
    sharpe_ratio: 0.5,
    last_trade_time: null,
    started_at: null,
    estimated_completion: null,
    current_task: null,
    progress_percentage: 0,
    creator_name: 'quant',
    user_count: 1,
    description: '',
    is_public: true,
    config: DEFAULT_BOT_CONFIG,
    risk: 'Medium',
    record_source: 'paper',
    created_at: '2026-01-01T00:00:00.000Z',
    is_yours: false,
    is_copied: false,
    track_record: { live_since: null, realised_pnl: 0, return_pct: -0.00262, equity: [], fills: [] },
    drift: null,
    ...overrides,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the marketplace detail panel', () => {
  it('writes figures with units and separators, and a return that rounds to zero as 0.00 %', async () => {
    stubFetch({ [`GET /bots/marketplace/${ID}`]: { body: { success: true, data: detail({}) } } });
    renderWithProviders(<BotDetailPanel botId={ID} onClose={vi.fn()} />);
    expect(await screen.findByText('256,335')).toBeInTheDocument();
    expect(screen.getByText('+12.50 USDC')).toBeInTheDocument();
    expect(screen.getByText('1,012.50 USDC')).toBeInTheDocument();
    expect(screen.getByText('0.00 %', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.queryByText(/-0\.00/)).toBeNull();
    expect(screen.getByRole('button', { name: /Copy Bot/ })).toBeInTheDocument();
  });

  it('says Copied, disabled, once the caller holds a copy (a second click cannot error)', async () => {
    stubFetch({
      [`GET /bots/marketplace/${ID}`]: { body: { success: true, data: detail({ is_copied: true }) } },
    });
    renderWithProviders(<BotDetailPanel botId={ID} onClose={vi.fn()} />);
    const copied = await screen.findByRole('button', { name: /Copied/ });
    expect(copied).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Copy Bot/ })).toBeNull();
    expect(screen.getByText(/You have a copy of this bot/)).toBeInTheDocument();
  });
});
