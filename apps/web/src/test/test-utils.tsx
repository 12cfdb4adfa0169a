import type { ReactElement, ReactNode } from 'react';
import { render, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import type { TUser } from '@solterm/contracts';
import { AuthProvider, type NavigateFn } from '../features/auth/auth-provider';

/** An unsigned JWT with the given claims (the client only decodes `exp`). */
export function makeJwt(claims: object): string {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.test-signature`;
}

/** A JWT that expires an hour from now (or from the given time). */
export function makeValidJwt(nowMs: number = Date.now()): string {
  return makeJwt({ sub: 'user-1', exp: Math.floor(nowMs / 1000) + 3600 });
}

export function makeUser(overrides: Partial<TUser> = {}): TUser {
  return {
    id: 'user-1',
    username: 'satoshi',
    email: 'satoshi@example.com',
    solana_wallet_address: null,
    wallet_type: null,
    is_watch_only: false,
    has_password: true,
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export interface FakeRoute {
  status?: number;
  body: unknown;
}

/**
 * Stubs the global fetch with answers keyed by "METHOD /path" (path after /api); unknown calls
 * answer 404. Returns the mock to inspect calls.
 */
export function stubFetch(routes: Record<string, FakeRoute | (() => FakeRoute)>) {
  const fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const key = `${init?.method ?? 'GET'} ${url.replace(/^\/api/, '')}`;
    const route = routes[key];
    const answer = typeof route === 'function' ? route() : route;
    if (!answer) {
      return new Response(JSON.stringify({ success: false, error: `No fake for ${key}` }), { status: 404 });
    }
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Paths (after /api) the stubbed fetch was called with, as "METHOD /path". */
export function calledRoutes(fetchMock: ReturnType<typeof stubFetch>): string[] {
  return fetchMock.mock.calls.map(
    ([input, init]) => `${init?.method ?? 'GET'} ${String(input).replace(/^\/api/, '')}`,
  );
}

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
}

function createWrapper(route: string, navigate: NavigateFn) {
  const queryClient = createTestQueryClient();
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <AuthProvider navigate={navigate}>{children}</AuthProvider>
        </MemoryRouter>
      </QueryClientProvider>
    );
  }
  return { Wrapper, queryClient };
}

/** Renders inside the query cache, a memory router at `route` and the AuthProvider. */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', navigate = vi.fn<NavigateFn>() }: { route?: string; navigate?: NavigateFn } = {},
) {
  const { Wrapper, queryClient } = createWrapper(route, navigate);
  return { ...render(ui, { wrapper: Wrapper }), navigate, queryClient };
}

/** Runs a hook inside the same providers as {@link renderWithProviders}. */
export function renderHookWithProviders<T>(
  hook: () => T,
  { route = '/', navigate = vi.fn<NavigateFn>() }: { route?: string; navigate?: NavigateFn } = {},
) {
  const { Wrapper } = createWrapper(route, navigate);
  return { ...renderHook(hook, { wrapper: Wrapper }), navigate };
}
