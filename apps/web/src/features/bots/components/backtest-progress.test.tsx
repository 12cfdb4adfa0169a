import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RealtimeContext } from '../../../lib/ws-client';
import { createFakeRealtime } from '../../../test/fake-websocket';
import { BacktestProgress } from './backtest-progress';

const push = (botId: string | null, done: number) => ({
  type: 'backtest_progress',
  data: {
    bot_id: botId,
    state: 'running',
    queue_ahead: 0,
    candles_done: done,
    candles_total: 8760,
    progress_percentage: Math.floor((done / 8760) * 100),
  },
});
const queued = (botId: string, ahead: number) => ({
  type: 'backtest_progress',
  data: {
    bot_id: botId,
    state: 'queued',
    queue_ahead: ahead,
    candles_done: 0,
    candles_total: 0,
    progress_percentage: 0,
  },
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('BacktestProgress', () => {
  it('shows the running backtest from its start: queued with its place, then its pushed progress', () => {
    const realtime = createFakeRealtime({ getToken: () => 'jwt' });
    const view = (isRunning: boolean) => (
      <RealtimeContext.Provider value={realtime.client}>
        <BacktestProgress botId="bot-1" isRunning={isRunning} />
      </RealtimeContext.Provider>
    );
    const { rerender } = render(view(true));
    realtime.client.retain();
    realtime.latest().open();
    const bar = () => screen.getByRole('progressbar', { name: 'Backtest progress' });
    expect(screen.getByText('Starting…')).toBeInTheDocument();
    expect(bar()).toHaveAttribute('aria-valuenow', '0');

    act(() => realtime.latest().receive(queued('bot-1', 2)));
    expect(screen.getByText('Queued (2 ahead)')).toBeInTheDocument();
    act(() => realtime.latest().receive(queued('bot-1', 1)));
    expect(screen.getByText('Queued (1 ahead)')).toBeInTheDocument();

    act(() => realtime.latest().receive(push('bot-2', 4096)));
    expect(screen.getByText('Queued (1 ahead)')).toBeInTheDocument();
    act(() => realtime.latest().receive({ type: 'backtest_progress', data: { bot_id: 'bot-1' } }));
    expect(screen.getByText('Queued (1 ahead)')).toBeInTheDocument();

    act(() => realtime.latest().receive(push('bot-1', 0)));
    expect(screen.getByText('Computing candles')).toBeInTheDocument();
    act(() => realtime.latest().receive(push('bot-1', 4096)));
    expect(bar()).toHaveAttribute('aria-valuenow', '46');
    expect(screen.getByText('4,096 / 8,760')).toBeInTheDocument();

    rerender(view(false));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows the place a push gave before its socket signed in, read back from the server once it has', async () => {
    // A second tab: its backtest was queued (and pushed) while its fresh socket was still signing in.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request) =>
        String(input).endsWith('/bots/backtest/status')
          ? new Response(
              JSON.stringify({ success: true, data: [queued('bot-2', 3).data, queued('bot-1', 1).data] }),
              {
                headers: { 'Content-Type': 'application/json' },
              },
            )
          : new Response('{}', { status: 404 }),
      ),
    );
    const realtime = createFakeRealtime({ getToken: () => 'jwt' });
    render(
      <RealtimeContext.Provider value={realtime.client}>
        <BacktestProgress botId="bot-1" isRunning />
      </RealtimeContext.Provider>,
    );
    realtime.client.retain();
    realtime.latest().open();
    expect(screen.getByText('Starting…')).toBeInTheDocument();

    act(() => realtime.latest().receive({ type: 'auth_success', user_id: 'user-1' }));
    expect(await screen.findByText('Queued (1 ahead)')).toBeInTheDocument();
    // The pushes that follow go on from there.
    act(() => realtime.latest().receive(push('bot-1', 0)));
    expect(screen.getByText('Computing candles')).toBeInTheDocument();
  });
});
