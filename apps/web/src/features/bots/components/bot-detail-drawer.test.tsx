import { act, fireEvent, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TBotDetail, TBotDetailFill } from '@solterm/contracts';
import { RealtimeContext } from '../../../lib/ws-client';
import { createFakeRealtime } from '../../../test/fake-websocket';
import { calledRoutes, renderWithProviders, stubFetch } from '../../../test/test-utils';
import { useBotRealtime } from '../use-bots';
import { BotDetailDrawer } from './bot-detail-drawer';

const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
const fill = (seq: number, side: 'Buy' | 'Sell'): TBotDetailFill => ({
  seq,
  time: `2026-01-15T12:${String(seq).padStart(2, '0')}:00.000Z`,
  side,
  base_amount: 0.05,
  quote_amount: 7.5,
  price: 150,
  pnl: side === 'Sell' ? 0.12 : null,
  reason: side === 'Buy' ? 'signal' : 'take profit',
  transaction_hash: `${SIGNATURE.slice(0, -2)}${String(seq).padStart(2, '0')}`,
});
const run = {
  run_id: 'run-1',
  mode: 'mainnet',
  status: 'running' as const,
  message: null,
  started_at: '2026-01-15T12:00:30.000Z',
  stopped_at: null,
  ends_at: '2026-01-16T12:00:30.000Z',
  duration_seconds: 5400,
  fills: 30,
  trades: 14,
  realised_pnl: 1.68,
  initial_balance: 75,
};
const detail = (overrides: Partial<TBotDetail> = {}): TBotDetail => ({
  bot_id: 'b1',
  bot_name: 'Flip',
  symbol: 'SOL/USDC',
  base_symbol: 'SOL',
  quote_symbol: 'USDC',
  status: 'running',
  runs: [run],
  run,
  position: {
    base_amount: 0.05,
    cost: 7.5,
    average_price: 150,
    live_price: 152,
    market_value: 7.6,
    unrealized_pnl: 0.1,
    unrealized_pnl_pct: 1.33,
  },
  equity: [
    { time: run.started_at, value: 75 },
    { time: '2026-01-15T12:01:00.000Z', value: 75.2 },
    { time: '2026-01-15T13:30:30.000Z', value: 76.78 },
  ],
  fills: {
    items: Array.from({ length: 25 }, (_, index) => fill(29 - index, index % 2 === 0 ? 'Sell' : 'Buy')),
    total: 30,
    limit: 25,
    offset: 0,
  },
  errors: [],
  ...overrides,
});
const ok = (data: unknown) => ({ body: { success: true, data } });

afterEach(() => vi.unstubAllGlobals());

function Realtime({ children }: { children: ReactNode }) {
  useBotRealtime();
  return <>{children}</>;
}

describe('BotDetailDrawer', () => {
  it(
    'shows the run, its position and unrealized PnL, its fills with explorer links, pages and live updates',
    { timeout: 20_000 },
    async () => {
      let first = detail();
      const fetchMock = stubFetch({
        'GET /health': ok({ status: 'ok', network: 'localnet' }),
        'GET /bots/b1/detail?limit=25&offset=0': () => ok(first),
        'GET /bots/b1/detail?limit=25&offset=25': ok(
          detail({
            fills: { items: [fill(4, 'Sell'), fill(3, 'Buy')], total: 30, limit: 25, offset: 25 },
          }),
        ),
      });
      const realtime = createFakeRealtime({ getToken: () => 'jwt' });
      renderWithProviders(
        <RealtimeContext.Provider value={realtime.client}>
          <Realtime>
            <BotDetailDrawer botId="b1" botName="Flip" isOpen onClose={() => undefined} />
          </Realtime>
        </RealtimeContext.Provider>,
      );
      realtime.client.retain();
      realtime.latest().open();
      const drawer = await screen.findByRole('dialog', { name: 'Flip' });
      expect(await within(drawer).findByTestId('bot-run-length')).toHaveTextContent('1 h 30 min');
      expect(within(drawer).getByTestId('bot-unrealized')).toHaveTextContent('+0.1000 USDC');
      const position = within(drawer).getByTestId('bot-position');
      expect(position).toHaveTextContent('0.05 SOL');
      expect(position).toHaveTextContent('152 USDC');
      expect(position).toHaveTextContent('+0.1000 USDC (+1.33 %)');
      expect(within(drawer).getByTestId('bot-unrealized')).toHaveClass('text-up');
      expect(within(drawer).getAllByTestId('bot-fill')).toHaveLength(25);
      const link = within(drawer).getAllByTestId('tx-link')[0]!;
      expect(link.getAttribute('href')).toContain(
        `https://explorer.solana.com/tx/${first.fills.items[0]!.transaction_hash}`,
      );
      expect(link.getAttribute('href')).toContain('cluster=custom');
      expect(within(drawer).getByTestId('bot-fills-range')).toHaveTextContent('1–25 of 30');

      fireEvent.click(within(drawer).getByRole('button', { name: 'Older fills' }));
      expect(await within(drawer).findByText('26–27 of 30')).toBeInTheDocument();
      fireEvent.click(within(drawer).getByRole('button', { name: 'Newer fills' }));
      expect(await within(drawer).findByText('1–25 of 30')).toBeInTheDocument();

      // A candle evaluated (the bot's push): the view re-reads its figures, no reload.
      first = detail({
        run: { ...run, fills: 31 },
        position: {
          ...first.position!,
          live_price: 149,
          market_value: 7.45,
          unrealized_pnl: -0.05,
          unrealized_pnl_pct: -0.67,
        },
      });
      const before = calledRoutes(fetchMock).filter((route) => route.includes('offset=0')).length;
      act(() =>
        realtime.latest().receive({
          type: 'bot_timing_update',
          message_type: 'bot_timing_update',
          data: {
            bot_id: 'b1',
            current_task: null,
            estimated_completion: null,
            total_trades: 14,
            total_pnl: '1.68',
            progress_percentage: 6,
            started_at: run.started_at,
          },
        }),
      );
      expect(await within(drawer).findByText('-0.0500 USDC')).toBeInTheDocument();
      expect(within(drawer).getByTestId('bot-fill-count')).toHaveTextContent('31');
      expect(calledRoutes(fetchMock).filter((route) => route.includes('offset=0')).length).toBe(before + 1);
    },
  );

  it('shows a run’s errors and a flat position', async () => {
    const failed = {
      ...run,
      mode: 'test',
      status: 'failed' as const,
      message: 'The bot stopped: Error: tired',
    };
    stubFetch({
      'GET /health': ok({ status: 'ok', network: 'localnet' }),
      'GET /bots/b1/detail?limit=25&offset=0': ok(
        detail({
          status: 'failed',
          runs: [failed],
          run: failed,
          position: null,
          fills: { items: [], total: 0, limit: 25, offset: 0 },
          errors: [
            { run_id: 'run-1', time: '2026-01-15T12:04:00.000Z', message: 'The bot stopped: Error: tired' },
          ],
        }),
      ),
    });
    renderWithProviders(<BotDetailDrawer botId="b1" botName="Flip" isOpen onClose={() => undefined} />);
    const drawer = await screen.findByRole('dialog', { name: 'Flip' });
    expect(await within(drawer).findByText(/No open position/)).toBeInTheDocument();
    expect(within(drawer).getByRole('region', { name: 'Errors' })).toHaveTextContent(
      '2026-01-15 12:04 UTC · The bot stopped: Error: tired',
    );
    expect(within(drawer).getByText(/No fills yet/)).toBeInTheDocument();
  });
});
