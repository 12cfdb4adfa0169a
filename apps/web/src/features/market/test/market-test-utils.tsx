import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { TTokenSearchResult } from '@solterm/contracts';
import { RealtimeContext } from '../../../lib/ws-client';
import { createFakeRealtime } from '../../../test/fake-websocket';
import { createTestQueryClient } from '../../../test/test-utils';
import { TradingStoreContext } from '../hooks/use-trading-selection';
import { createTradingStore, type TradingStore } from '../trading-state';

/** An envelope as the server sends it. */
export function ok(data: unknown) {
  return { status: 200, body: { success: true, data } };
}

export function fail(status: number, error: string, code?: string) {
  return { status, body: { success: false, error, ...(code ? { code } : {}) } };
}

export type MarketRoute = { status: number; body: unknown } | undefined;

/**
 * Stubs fetch with a handler that sees the path after /api (query string included) and answers a
 * route, or 404 when it returns undefined. Returns the mock and the paths it was called with.
 */
export function stubApi(handler: (path: string, method: string) => MarketRoute | Promise<MarketRoute>) {
  const paths: string[] = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^\/api/, '');
    paths.push(path);
    const signal = init?.signal;
    const answer = await handler(path, init?.method ?? 'GET');
    if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const route = answer ?? { status: 404, body: { success: false, error: `No fake for ${path}` } };
    return new Response(JSON.stringify(route.body), {
      status: route.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, paths };
}

/** Shows the current location, for assertions on navigation and query parameters. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {location.pathname}
      {location.search}
    </output>
  );
}

export interface MarketRenderOptions {
  route?: string;
  store?: TradingStore;
  queryClient?: QueryClient;
  realtime?: ReturnType<typeof createFakeRealtime>;
}

/**
 * Renders inside a query cache, a memory router (at `route`, any path), a fake real-time client
 * and a fresh trading store.
 */
export function renderMarket(ui: ReactElement, options: MarketRenderOptions = {}) {
  const store = options.store ?? createTradingStore({ storage: null });
  const queryClient = options.queryClient ?? createTestQueryClient();
  const realtime = options.realtime ?? createFakeRealtime();
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={queryClient}>
        <RealtimeContext.Provider value={realtime.client}>
          <TradingStoreContext.Provider value={store}>
            <MemoryRouter initialEntries={[options.route ?? '/dashboard']}>
              <Routes>
                <Route
                  path="*"
                  element={
                    <>
                      {children}
                      <LocationProbe />
                    </>
                  }
                />
              </Routes>
            </MemoryRouter>
          </TradingStoreContext.Provider>
        </RealtimeContext.Provider>
      </QueryClientProvider>
    );
  }
  return { ...render(ui, { wrapper: Wrapper }), store, queryClient, realtime };
}

/** A token search result with the spec's fields. */
export function makeSearchResult(
  overrides: Partial<TTokenSearchResult> & { symbol: string },
): TTokenSearchResult {
  const address = overrides.address ?? 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
  return {
    id: address,
    name: overrides.symbol,
    current_price: 0.00003334,
    price: 0.00003334,
    market_cap: 2567381672.24,
    price_change_24h: 6.58,
    address,
    decimals: 5,
    source: 'simulator',
    pair_address: 'AwSBGdK77hvafjmi4kEyQPPjdvHFDLGRGsoHHXvqY3qE',
    dex_id: 'raydium',
    chain_id: 'solana',
    liquidity_usd: 30777158.7,
    volume_24h: 185626283.18,
    ...overrides,
  };
}
