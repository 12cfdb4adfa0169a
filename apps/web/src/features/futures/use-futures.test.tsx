import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FUTURES_ORDER_BOOK_REFRESH_MS,
  type TFuturesAccount,
  type TFuturesMarket,
  type TFuturesOrderBook,
  type TFuturesPosition,
} from '@solterm/contracts';
import { queryKeys } from '../../lib/query-keys';
import { RealtimeContext } from '../../lib/ws-client';
import { createFakeRealtime } from '../../test/fake-websocket';
import { createTestQueryClient } from '../../test/test-utils';
import { futuresApi } from './futures-api';
import { useFuturesMarket, useFuturesUser } from './use-futures';

const book = (bestBid: string): TFuturesOrderBook => ({
  symbol: 'SOL-PERP',
  bids: [{ price: bestBid, size: '1', orders: 1 }],
  asks: [{ price: '151', size: '2', orders: 1 }],
  best_bid: bestBid,
  best_ask: '151',
  spread: '1',
  spread_percent: '0.66',
  at: '2026-02-10T09:00:00.000Z',
});

const market: TFuturesMarket = {
  symbol: 'SOL-PERP',
  oracle_price: '150.5',
  mark_price: '150.5',
  last_price: '150.4',
  funding_rate: '0.0001',
  next_funding_at: '2026-02-10T10:00:00.000Z',
  open_interest: '10',
  volume_24h: '1000',
  order_book: book('150'),
};

function intervalOf(queryClient: QueryClient, queryKey: readonly unknown[]): unknown {
  const query = queryClient.getQueryCache().find({ queryKey })!;
  const option = (query.options as { refetchInterval?: unknown }).refetchInterval;
  return typeof option === 'function' ? option(query) : option;
}

const account = (equity: string): TFuturesAccount => ({
  initialized: true,
  wallet_address: 'w',
  vault_address: 'v',
  collateral: '100',
  equity,
  unrealized_pnl: '0',
  initial_margin: '10',
  maintenance_margin: '5',
  free_collateral: '90',
  leverage: '1.00',
  open_orders: 0,
  open_positions: 1,
  leverage_settings: [],
  pending_transfers: [],
});

const position = (markPrice: string): TFuturesPosition => ({
  id: 'SOL-PERP',
  symbol: 'SOL-PERP',
  market_symbol: 'SOL-PERP',
  direction: 1,
  side: 'Long',
  size: '1',
  entry_price: '150',
  mark_price: markPrice,
  pnl: '0',
  unrealized_pnl: '0',
  liquidation_price: null,
  leverage: 5,
  margin: '30',
  notional: '150',
  funding: '0',
  take_profit: null,
  stop_loss: null,
});

function setUp() {
  const realtime = createFakeRealtime();
  const queryClient = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <RealtimeContext.Provider value={realtime.client}>{children}</RealtimeContext.Provider>
    </QueryClientProvider>
  );
  return { realtime, queryClient, wrapper };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a futures market over /ws', () => {
  it('takes the pushed book and statistics at once and reads the market every 2 s only while the socket is down', async () => {
    const { realtime, queryClient, wrapper } = setUp();
    const getMarket = vi.spyOn(futuresApi, 'market').mockResolvedValue(market);
    const { result } = renderHook(() => useFuturesMarket('SOL-PERP'), { wrapper });
    await vi.waitFor(() => expect(result.current.data?.order_book.best_bid).toBe('150'));
    act(() => realtime.latest().open());
    const key = queryKeys.futures.market('SOL-PERP');
    await vi.waitFor(() => expect(intervalOf(queryClient, key)).toBe(false));
    expect(realtime.latest().sentOfType('subscribe')).toContainEqual({
      type: 'subscribe',
      channel: 'futures-market:SOL-PERP',
    });

    act(() =>
      realtime.latest().receive({ type: 'channel', channel: 'futures-book:SOL-PERP', data: book('150.2') }),
    );
    await vi.waitFor(() => expect(result.current.data?.order_book.best_bid).toBe('150.2'));
    // The rest of the market stays as read; nothing was fetched for the push.
    expect(result.current.data?.mark_price).toBe('150.5');
    const { order_book: _book, ...stats } = market;
    act(() =>
      realtime.latest().receive({
        type: 'channel',
        channel: 'futures-market:SOL-PERP',
        data: { ...stats, mark_price: '151.25', open_interest: '12' },
      }),
    );
    await vi.waitFor(() => expect(result.current.data?.mark_price).toBe('151.25'));
    // The statistics leave the pushed book alone.
    expect(result.current.data?.open_interest).toBe('12');
    expect(result.current.data?.order_book.best_bid).toBe('150.2');
    expect(getMarket).toHaveBeenCalledTimes(1);

    act(() => realtime.latest().drop());
    await vi.waitFor(() => expect(intervalOf(queryClient, key)).toBe(FUTURES_ORDER_BOOK_REFRESH_MS));
  });
});

describe("a user's futures account over /ws", () => {
  it('takes the pushed account and positions without reading them again, and polls only while no authenticated socket is open', async () => {
    const { realtime, queryClient, wrapper } = setUp();
    const getAccount = vi.spyOn(futuresApi, 'account').mockResolvedValue(account('100'));
    const getPositions = vi.spyOn(futuresApi, 'positions').mockResolvedValue([position('150')]);
    const getOrders = vi.spyOn(futuresApi, 'orders').mockResolvedValue([]);
    const { result } = renderHook(() => useFuturesUser(true), { wrapper });
    await vi.waitFor(() => expect(result.current.account.data?.equity).toBe('100'));
    realtime.client.retain();
    act(() => realtime.latest().open());
    // Open but not authenticated yet: no per-user channel, and the account is still polled.
    expect(realtime.latest().sentOfType('subscribe')).toEqual([]);
    expect(intervalOf(queryClient, queryKeys.futures.account)).toBe(FUTURES_ORDER_BOOK_REFRESH_MS);

    act(() => realtime.latest().receive({ type: 'auth_success', user_id: 'u-1' }));
    await vi.waitFor(() => expect(intervalOf(queryClient, queryKeys.futures.account)).toBe(false));
    expect(intervalOf(queryClient, queryKeys.futures.positions)).toBe(false);
    expect(realtime.latest().sentOfType('subscribe')).toContainEqual({
      type: 'subscribe',
      channel: 'futures-account:u-1',
    });

    act(() =>
      realtime.latest().receive({
        type: 'channel',
        channel: 'futures-account:u-1',
        data: { account: account('112.5'), positions: [position('162.5')] },
      }),
    );
    await vi.waitFor(() => expect(result.current.account.data?.equity).toBe('112.5'));
    expect(result.current.positions.data?.[0]?.mark_price).toBe('162.5');
    // A fill's futures_update reads the orders again, not what the channel carries.
    act(() =>
      realtime.latest().receive({
        type: 'futures_update',
        data: { reason: 'fill', message: 'Your futures account changed' },
      }),
    );
    await vi.waitFor(() => expect(getOrders).toHaveBeenCalledTimes(2));
    expect(getAccount).toHaveBeenCalledTimes(1);
    expect(getPositions).toHaveBeenCalledTimes(1);

    act(() => realtime.latest().drop());
    await vi.waitFor(() =>
      expect(intervalOf(queryClient, queryKeys.futures.account)).toBe(FUTURES_ORDER_BOOK_REFRESH_MS),
    );
  });
});
