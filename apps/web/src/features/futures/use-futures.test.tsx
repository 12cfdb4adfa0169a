import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FUTURES_MARKET_UPDATE_MS,
  FUTURES_ORDER_BOOK_REFRESH_MS,
  type TFuturesMarket,
  type TFuturesOrderBook,
} from '@solterm/contracts';
import { queryKeys } from '../../lib/query-keys';
import { RealtimeContext } from '../../lib/ws-client';
import { createFakeRealtime } from '../../test/fake-websocket';
import { createTestQueryClient } from '../../test/test-utils';
import { futuresApi } from './futures-api';
import { useFuturesMarket } from './use-futures';

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

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a futures market over /ws', () => {
  it('takes the pushed book at once and reads the market every 2 s only while the socket is down', async () => {
    const realtime = createFakeRealtime();
    const queryClient = createTestQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <RealtimeContext.Provider value={realtime.client}>{children}</RealtimeContext.Provider>
      </QueryClientProvider>
    );
    const getMarket = vi.spyOn(futuresApi, 'market').mockResolvedValue(market);
    const { result } = renderHook(() => useFuturesMarket('SOL-PERP'), { wrapper });
    await vi.waitFor(() => expect(result.current.data?.order_book.best_bid).toBe('150'));
    act(() => realtime.latest().open());
    const key = queryKeys.futures.market('SOL-PERP');
    await vi.waitFor(() => expect(intervalOf(queryClient, key)).toBe(FUTURES_MARKET_UPDATE_MS));

    act(() =>
      realtime.latest().receive({ type: 'channel', channel: 'futures-book:SOL-PERP', data: book('150.2') }),
    );
    await vi.waitFor(() => expect(result.current.data?.order_book.best_bid).toBe('150.2'));
    // The rest of the market stays as read; nothing was fetched for the push.
    expect(result.current.data?.mark_price).toBe('150.5');
    expect(getMarket).toHaveBeenCalledTimes(1);

    act(() => realtime.latest().drop());
    await vi.waitFor(() => expect(intervalOf(queryClient, key)).toBe(FUTURES_ORDER_BOOK_REFRESH_MS));
  });
});
