import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPOT_ORDER_REFRESH_DELAY_MS } from '@solterm/contracts';
import { createTestQueryClient } from '../../../test/test-utils';
import { makeOrder } from '../test/spot-fixtures';
import { mergeOrder, spotKeys, useLimitFillWatcher, useOrderRefresh } from './use-spot-data';

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
    queryClient.setQueryData(spotKeys.orders, [makeOrder({ id: 'old' })]);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result, unmount } = renderHook(() => useOrderRefresh(), { wrapper });

    act(() => result.current(makeOrder({ id: 'new', status: 'Pending' })));
    expect(queryClient.getQueryData<{ id: string }[]>(spotKeys.orders)?.map((order) => order.id)).toEqual([
      'new',
      'old',
    ]);
    vi.advanceTimersByTime(SPOT_ORDER_REFRESH_DELAY_MS - 1);
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['spot'] });

    // A refresh still waiting when the page goes away is dropped.
    act(() => result.current());
    unmount();
    vi.advanceTimersByTime(SPOT_ORDER_REFRESH_DELAY_MS);
    expect(invalidate).toHaveBeenCalledTimes(1);
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
    expect(invalidate).toHaveBeenCalledTimes(1);
    const predicate = invalidate.mock.calls[0]![0]?.predicate;
    const matches = (queryKey: readonly unknown[]) =>
      predicate?.({ queryKey } as unknown as Parameters<NonNullable<typeof predicate>>[0]);
    expect(matches(spotKeys.positions)).toBe(true);
    expect(matches(spotKeys.suggestion('SOL/USDC'))).toBe(true);
    expect(matches(spotKeys.orders)).toBe(false);
  });
});
