import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPOT_ORDER_REFRESH_DELAY_MS } from '@solterm/contracts';
import { createTestQueryClient } from '../../../test/test-utils';
import { makeOrder } from '../test/spot-fixtures';
import { queryKeys } from '../../../lib/query-keys';
import { RealtimeContext } from '../../../lib/ws-client';
import { createFakeRealtime } from '../../../test/fake-websocket';
import { tradingApi } from '../trading-api';
import { mergeOrder } from '../trading-queries';
import {
  PENDING_ORDERS_POLL_MS,
  useLimitFillWatcher,
  useOrderRefresh,
  useOrderUpdates,
  useSpotOrders,
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
