import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadTimeoutError, isChunkLoadError, withChunkTimeout } from './chunk-loading';
import { PROTECTED_PAGES, PUBLIC_PAGES } from './router';

const routeFiles = import.meta.glob(['./routes/*.tsx', '!./routes/*.test.tsx']);

describe('router', () => {
  it('has a route module for every page', () => {
    const pages = [...PUBLIC_PAGES, ...PROTECTED_PAGES, { path: '*', name: 'not-found' }];
    const missing = pages.filter(({ name }) => !routeFiles[`./routes/${name}.tsx`]).map(({ name }) => name);
    expect(missing).toEqual([]);
  });

  it('covers the spec routes', () => {
    expect(PROTECTED_PAGES.map((page) => page.path)).toEqual([
      '/dashboard',
      '/bots',
      '/trade',
      '/market',
      '/future',
      '/backtest',
      '/earning',
      '/support',
      '/sub',
      '/dashboardd',
      '/potfolio',
      '/alerts',
    ]);
  });
});

describe('chunk loading time-out', () => {
  it('fails with ChunkLoadTimeoutError after 120 s', async () => {
    vi.useFakeTimers();
    const result = withChunkTimeout(new Promise(() => undefined)).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(119_999);
    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error).toBeInstanceOf(ChunkLoadTimeoutError);
    expect(isChunkLoadError(error)).toBe(true);
    vi.useRealTimers();
  });

  it('passes a chunk that arrives in time through', async () => {
    await expect(withChunkTimeout(Promise.resolve('module'))).resolves.toBe('module');
  });

  it('recognises a failed dynamic import', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/bots.js')),
    ).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });
});
