import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SPOT_ORDER_REFRESH_DELAY_MS,
  TRADES_FEED_LIMIT,
  TRADES_FEED_POLL_MS,
  type TOrderBook,
  type TPosition,
} from '@solterm/contracts';
import { createTestQueryClient } from '../../../test/test-utils';
import { makeOrder } from '../test/spot-fixtures';
import { queryKeys } from '../../../lib/query-keys';
import { RealtimeContext } from '../../../lib/ws-client';
import { createFakeRealtime } from '../../../test/fake-websocket';
import { tradingApi } from '../trading-api';
import { mergeOrder } from '../trading-queries';
import {
  BALANCES_POLL_MS,
  ORDER_BOOK_POLL_MS,
  PENDING_ORDERS_POLL_MS,
  POSITIONS_POLL_MS,
  useLimitFillWatcher,
  useOrderBook,
  useOrderRefresh,
  useOrderUpdates,
  usePairBalances,
  usePositions,
  useSpotOrders,
  useTradesFeed,
} from './use-spot-data';

const { notifySuccess } = vi.hoisted(() => ({ notifySuccess: vi.fn() }));
vi.mock('../../../lib/toast', () => ({
  notify: { success: notifySuccess, error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('after an order', () => {
  it('shows the answered order at once and refreshes everything 2 s later', () => {
    vi.useFakeTimers();
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(queryKeys.trading.orders, [makeOrder({ id: 'old' })]);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result, unmount } = renderHook(() => useOrderRefresh(), { wrapper });

    act(() => result.current(makeOrder({ id: 'new', status: 'Pending' })));
    expect(
      queryClient.getQueryData<{ id: string }[]>(queryKeys.trading.orders)?.map((order) => order.id),
    ).toEqual(['new', 'old']);
    vi.advanceTimersByTime(SPOT_ORDER_REFRESH_DELAY_MS - 1);
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    // Every view of orders, fills, positions and balances, on every page (one key registry).
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['trading'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['wallet'] });
    const refreshCalls = invalidate.mock.calls.length;

    // A refresh still waiting when the page goes away is dropped.
    act(() => result.current());
    unmount();
    vi.advanceTimersByTime(SPOT_ORDER_REFRESH_DELAY_MS);
    expect(invalidate).toHaveBeenCalledTimes(refreshCalls);
  });

  it('replaces an order it already lists', () => {
    const pending = makeOrder({ id: 'a', status: 'Pending' });
    expect(mergeOrder([pending], { ...pending, status: 'Cancelled' })).toEqual([
      { ...pending, status: 'Cancelled' },
    ]);
    expect(mergeOrder(undefined, pending)).toEqual([pending]);
  });

  it('links the partner of an order placed one-cancels-the-other back to it', () => {
    const takeProfit = makeOrder({ id: 'tp', status: 'Pending', oco_with: null });
    const other = makeOrder({ id: 'other', status: 'Pending', oco_with: null });
    const stopLoss = makeOrder({ id: 'sl', status: 'Pending', oco_with: 'tp' });
    expect(mergeOrder([takeProfit, other], stopLoss)).toEqual([
      stopLoss,
      { ...takeProfit, oco_with: 'sl' },
      other,
    ]);
  });
});

describe('a limit order filled by the keeper', () => {
  it('toasts and refreshes positions, balances and fills once it turns Filled', () => {
    const queryClient = createTestQueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const pending = makeOrder({ id: 'limit', order_type: 'Limit', status: 'Pending' });
    const cancelled = makeOrder({ id: 'other', order_type: 'Limit', status: 'Pending' });
    const { rerender } = renderHook(({ orders }) => useLimitFillWatcher(orders), {
      wrapper,
      initialProps: { orders: [pending, cancelled] },
    });
    expect(notifySuccess).not.toHaveBeenCalled();
    rerender({
      orders: [
        { ...pending, status: 'Filled' },
        { ...cancelled, status: 'Cancelled' },
      ],
    });
    expect(notifySuccess).toHaveBeenCalledTimes(1);
    expect(notifySuccess).toHaveBeenCalledWith('Limit buy order filled on SOL/USDC');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['wallet'] });
    const predicate = invalidate.mock.calls.find((call) => call[0]?.predicate)![0]?.predicate;
    const matches = (queryKey: readonly unknown[]) =>
      predicate?.({ queryKey } as unknown as Parameters<NonNullable<typeof predicate>>[0]);
    expect(matches(queryKeys.trading.positions)).toBe(true);
    expect(matches(queryKeys.trading.suggestion('SOL/USDC'))).toBe(true);
    expect(matches(queryKeys.trading.orders)).toBe(false);
  });
});

describe('order updates pushed by the server', () => {
  function setUp() {
    const realtime = createFakeRealtime({ getToken: () => 'jwt' });
    const queryClient = createTestQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <RealtimeContext.Provider value={realtime.client}>{children}</RealtimeContext.Provider>
      </QueryClientProvider>
    );
    return { realtime, queryClient, wrapper };
  }

  it('puts the pushed order into Your Orders and reads fills, positions and balances again', () => {
    const { realtime, queryClient, wrapper } = setUp();
    const pending = makeOrder({ id: 'limit', order_type: 'Limit', status: 'Pending' });
    queryClient.setQueryData(queryKeys.trading.orders, [pending]);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    renderHook(() => useOrderUpdates(), { wrapper });
    realtime.client.retain();
    realtime.latest().open();

    act(() => realtime.latest().receive({ type: 'order_update', data: { ...pending, status: 'Filled' } }));

    expect(queryClient.getQueryData(queryKeys.trading.orders)).toEqual([{ ...pending, status: 'Filled' }]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['wallet'] });
    const predicate = invalidate.mock.calls.find((call) => call[0]?.predicate)![0]!.predicate!;
    const matches = (queryKey: readonly unknown[]) =>
      predicate({ queryKey } as unknown as Parameters<typeof predicate>[0]);
    expect(matches(queryKeys.trading.positions)).toBe(true);
    expect(matches(queryKeys.trading.orders)).toBe(false);

    // A malformed push changes nothing.
    act(() => realtime.latest().receive({ type: 'order_update', data: { id: 'limit' } }));
    expect(queryClient.getQueryData(queryKeys.trading.orders)).toEqual([{ ...pending, status: 'Filled' }]);
  });

  it('polls a Pending order only while the socket is down', async () => {
    const { realtime, queryClient, wrapper } = setUp();
    const getOrders = vi
      .spyOn(tradingApi, 'getOrders')
      .mockResolvedValue([makeOrder({ id: 'limit', order_type: 'Limit', status: 'Pending' })]);
    realtime.client.retain();
    realtime.latest().open();
    const { result } = renderHook(() => useSpotOrders(), { wrapper });
    await vi.waitFor(() => expect(result.current.data).toHaveLength(1));
    const query = queryClient.getQueryCache().find({ queryKey: queryKeys.trading.orders })!;
    const interval = () =>
      (query.options as { refetchInterval: (q: typeof query) => number | false }).refetchInterval(query);
    expect(interval()).toBe(false);

    act(() => realtime.latest().drop());
    await vi.waitFor(() => expect(interval()).toBe(PENDING_ORDERS_POLL_MS));
    getOrders.mockRestore();
  });
});

describe('the order book and positions pushed over /ws', () => {
  function setUp() {
    const realtime = createFakeRealtime({ getToken: () => 'jwt' });
    const queryClient = createTestQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <RealtimeContext.Provider value={realtime.client}>{children}</RealtimeContext.Provider>
      </QueryClientProvider>
    );
    return { realtime, queryClient, wrapper };
  }

  const book = (mid: number): TOrderBook => ({
    symbol: 'SOL/USDC',
    mid_price: mid,
    spread: 0.1,
    buys: [{ price: mid - 0.05, amount: 3 }],
    sells: [{ price: mid + 0.05, amount: 2 }],
    updated_at: '2026-02-10T09:00:00.000Z',
  });

  const position = (mark: number): TPosition => ({
    symbol: 'SOL/USDC',
    base_symbol: 'SOL',
    quote_symbol: 'USDC',
    side: 'Long',
    size: 2,
    average_entry_price: 150,
    mark_price: mark,
    value: 2 * mark,
    unrealized_pnl: 2 * (mark - 150),
    pnl_percent: ((mark - 150) / 150) * 100,
    realized_pnl: 0,
  });

  /** The refetchInterval react-query would use for a query now. */
  function intervalOf(queryClient: QueryClient, queryKey: readonly unknown[]): unknown {
    const query = queryClient.getQueryCache().find({ queryKey })!;
    const option = (query.options as { refetchInterval?: unknown }).refetchInterval;
    return typeof option === 'function' ? option(query) : option;
  }

  beforeEach(() => {
    vi.spyOn(tradingApi, 'getTradable').mockResolvedValue({
      pairs: [{ pair: 'SOL/USDC', tradable: true, reason: null }],
    });
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows a pushed book at once and polls the book only while the socket is down', async () => {
    const { realtime, queryClient, wrapper } = setUp();
    const getOrderBook = vi.spyOn(tradingApi, 'getOrderBook').mockResolvedValue(book(150));
    const { result } = renderHook(() => useOrderBook('SOL/USDC'), { wrapper });
    await vi.waitFor(() => expect(result.current.data?.mid_price).toBe(150));
    act(() => realtime.latest().open());
    expect(realtime.latest().sentOfType('subscribe')).toEqual([
      { type: 'subscribe', channel: 'spot-book:SOL/USDC' },
    ]);
    await vi.waitFor(() =>
      expect(intervalOf(queryClient, queryKeys.trading.orderBook('SOL/USDC'))).toBe(false),
    );

    act(() => realtime.latest().receive({ type: 'channel', channel: 'spot-book:SOL/USDC', data: book(151) }));
    await vi.waitFor(() => expect(result.current.data?.mid_price).toBe(151));
    // A payload that is not a book changes nothing.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    act(() =>
      realtime.latest().receive({ type: 'channel', channel: 'spot-book:SOL/USDC', data: { mid: 1 } }),
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(queryKeys.trading.orderBook('SOL/USDC'))).toEqual(book(151));
    expect(getOrderBook).toHaveBeenCalledTimes(1);

    act(() => realtime.latest().drop());
    await vi.waitFor(() =>
      expect(intervalOf(queryClient, queryKeys.trading.orderBook('SOL/USDC'))).toBe(ORDER_BOOK_POLL_MS),
    );
  });

  it("subscribes to the signed-in user's positions once the socket is authenticated, and polls only until then", async () => {
    const { realtime, queryClient, wrapper } = setUp();
    vi.spyOn(tradingApi, 'getPositions').mockResolvedValue([position(150)]);
    const { result } = renderHook(() => usePositions(), { wrapper });
    await vi.waitFor(() => expect(result.current.data).toHaveLength(1));
    realtime.client.retain();
    act(() => realtime.latest().open());
    // Open but not yet authenticated: no per-user channel, and the fallback still polls.
    expect(realtime.latest().sentOfType('subscribe')).toEqual([]);
    expect(intervalOf(queryClient, queryKeys.trading.positions)).toBe(POSITIONS_POLL_MS);

    act(() => realtime.latest().receive({ type: 'auth_success', user_id: 'u-1' }));
    await vi.waitFor(() => expect(intervalOf(queryClient, queryKeys.trading.positions)).toBe(false));
    expect(realtime.latest().sentOfType('subscribe')).toContainEqual({
      type: 'subscribe',
      channel: 'spot-positions:u-1',
    });
    act(() =>
      realtime.latest().receive({ type: 'channel', channel: 'spot-positions:u-1', data: [position(160)] }),
    );
    await vi.waitFor(() => expect(result.current.data?.[0]?.mark_price).toBe(160));

    act(() => realtime.latest().drop());
    await vi.waitFor(() =>
      expect(intervalOf(queryClient, queryKeys.trading.positions)).toBe(POSITIONS_POLL_MS),
    );
  });

  it('reads fills and balances on a timer only while the socket is down', async () => {
    const { realtime, queryClient, wrapper } = setUp();
    vi.spyOn(tradingApi, 'getTrades').mockResolvedValue([]);
    vi.spyOn(tradingApi, 'suggestion').mockResolvedValue({
      symbol: 'SOL/USDC',
      suggested_side: 'Buy',
      available_balances: { SOL: 1, USDC: 10 },
      price: 150,
    });
    renderHook(() => [useTradesFeed(), usePairBalances('SOL/USDC')], { wrapper });
    realtime.client.retain();
    act(() => realtime.latest().open());
    const trades = queryKeys.trading.trades(TRADES_FEED_LIMIT);
    const balances = queryKeys.trading.suggestion('SOL/USDC');
    await vi.waitFor(() => expect(queryClient.getQueryData(balances)).toBeDefined());
    expect(intervalOf(queryClient, trades)).toBe(false);
    expect(intervalOf(queryClient, balances)).toBe(false);

    act(() => realtime.latest().drop());
    await vi.waitFor(() => expect(intervalOf(queryClient, trades)).toBe(TRADES_FEED_POLL_MS));
    expect(intervalOf(queryClient, balances)).toBe(BALANCES_POLL_MS);
  });
});
