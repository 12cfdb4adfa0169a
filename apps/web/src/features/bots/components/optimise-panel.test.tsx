import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_BOT_CONFIG, type TBot } from '@solterm/contracts';
import { renderWithProviders } from '../../../test/test-utils';
import type { StrategyInfo } from '../bots-api';
import { OptimisePanel } from './optimise-panel';

const SMA: StrategyInfo = {
  type: 'sma_crossover',
  category: 'trend',
  title: 'SMA crossover',
  description: 'Buys when the short average crosses above the long one',
  parameters: [
    { name: 'short_window', label: 'Short window', default: 10, min: 2, max: 100, integer: true },
    { name: 'long_window', label: 'Long window', default: 30, min: 3, max: 400, integer: true },
  ],
};

const BOT = {
  bot_id: '11111111-1111-4111-8111-111111111111',
  bot_name: 'SMA on SOL',
  strategy_type: 'sma_crossover',
  status: 'stopped',
  config: { ...DEFAULT_BOT_CONFIG, code: '', parameters: { short_window: 5, long_window: 20 } },
} as unknown as TBot;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('OptimisePanel', () => {
  it('shows no range to edit until the strategy catalogue arrives, so its arrival never replaces what the user typed', async () => {
    let answer!: () => void;
    const catalogue = new Promise<void>((resolve) => (answer = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request) => {
        if (String(input).endsWith('/bots/strategies')) {
          await catalogue;
          return new Response(JSON.stringify({ success: true, data: [SMA] }), {
            headers: { 'Content-Type': 'application/json' },
          });
        }
        return new Response(JSON.stringify({ success: false, error: 'not here' }), { status: 404 });
      }),
    );
    renderWithProviders(
      <OptimisePanel
        bots={[BOT]}
        initialBotId={BOT.bot_id}
        initialStartDate="2026-01-01"
        initialEndDate="2026-02-01"
        initialBalance={1000}
      />,
    );

    expect(await screen.findByText('Loading the strategy’s parameters…')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Range of short_window' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Run Optimisation' })).toBeDisabled();

    answer();
    const short = await screen.findByRole('group', { name: 'Range of short_window' });
    const min = within(short).getByLabelText('Min');
    expect(min).toHaveValue(10);
    await userEvent.clear(min);
    await userEvent.type(min, '4');
    expect(min).toHaveValue(4);
    expect(screen.queryByText('Loading the strategy’s parameters…')).toBeNull();
  });
});
