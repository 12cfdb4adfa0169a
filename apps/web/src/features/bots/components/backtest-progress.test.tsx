import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RealtimeContext } from '../../../lib/ws-client';
import { createFakeRealtime } from '../../../test/fake-websocket';
import { BacktestProgress } from './backtest-progress';

const push = (botId: string | null, done: number) => ({
  type: 'backtest_progress',
  data: {
    bot_id: botId,
    candles_done: done,
    candles_total: 8760,
    progress_percentage: Math.floor((done / 8760) * 100),
  },
});

describe('BacktestProgress', () => {
  it('shows the running backtest’s pushed progress, ignoring other bots and malformed pushes', () => {
    const realtime = createFakeRealtime({ getToken: () => 'jwt' });
    const view = (isRunning: boolean) => (
      <RealtimeContext.Provider value={realtime.client}>
        <BacktestProgress botId="bot-1" isRunning={isRunning} />
      </RealtimeContext.Provider>
    );
    const { rerender } = render(view(true));
    realtime.client.retain();
    realtime.latest().open();
    expect(screen.queryByRole('progressbar')).toBeNull();

    act(() => realtime.latest().receive(push('bot-2', 4096)));
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => realtime.latest().receive({ type: 'backtest_progress', data: { bot_id: 'bot-1' } }));
    expect(screen.queryByRole('progressbar')).toBeNull();

    act(() => realtime.latest().receive(push('bot-1', 4096)));
    expect(screen.getByRole('progressbar', { name: 'Backtest progress' })).toHaveAttribute(
      'aria-valuenow',
      '46',
    );
    expect(screen.getByText('4,096 / 8,760')).toBeInTheDocument();

    rerender(view(false));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
