import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { AppError } from './app-error';

/** A market data provider's HTTP API. */
export interface ProviderClientOptions {
  /** Display name used in error messages ("CoinGecko", "DexScreener", "Jupiter"). */
  name: string;
  baseUrl: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  log: FastifyBaseLogger;
  /** Replaceable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

interface CacheEntry {
  value: unknown;
  storedAt: number;
}

/** How long a cached answer may still be served when the provider fails (rate limits, outages). */
const STALE_FACTOR = 10;
const MAX_CACHE_ENTRIES = 500;

/**
 * GET-only JSON client for one provider, with a time-out, a TTL cache, sharing of identical
 * in-flight requests, serving a recent cached answer when the provider fails, and provider failures
 * mapped to MARKET__PROVIDER_TIMEOUT / _RATE_LIMITED / _UNAVAILABLE. A 404 answers `undefined`.
 * Responses are checked against a zod schema of the fields we read (recorded shapes in the tests).
 */
export function createProviderClient(options: ProviderClientOptions) {
  const cache = new Map<string, CacheEntry>();
  const inFlight = new Map<string, Promise<unknown>>();
  const doFetch = options.fetch ?? fetch;

  function url(path: string, query?: Record<string, string | number | undefined>): string {
    const target = new URL(options.baseUrl.replace(/\/+$/, '') + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) target.searchParams.set(key, String(value));
    }
    return target.toString();
  }

  async function request<T>(target: string, schema: z.ZodType<T>): Promise<T | undefined> {
    let response: Response;
    try {
      response = await doFetch(target, {
        headers: { accept: 'application/json', ...options.headers },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new AppError(
          'MARKET__PROVIDER_TIMEOUT',
          `${options.name} did not answer within ${options.timeoutMs / 1000} s`,
        );
      }
      options.log.warn({ err: error, provider: options.name }, 'market provider unreachable');
      throw new AppError('MARKET__PROVIDER_UNAVAILABLE', `${options.name} could not be reached`);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (response.status === 429) {
      await response.body?.cancel();
      throw new AppError(
        'MARKET__PROVIDER_RATE_LIMITED',
        `${options.name} rate limit reached. Please try again shortly.`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new AppError(
        'MARKET__PROVIDER_UNAVAILABLE',
        `${options.name} is unavailable (HTTP ${response.status})`,
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new AppError(
          'MARKET__PROVIDER_TIMEOUT',
          `${options.name} did not answer within ${options.timeoutMs / 1000} s`,
        );
      }
      throw new AppError('MARKET__PROVIDER_UNAVAILABLE', `${options.name} returned an invalid response`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      options.log.warn(
        { provider: options.name, issues: parsed.error.issues.slice(0, 3) },
        'unexpected market provider response',
      );
      throw new AppError('MARKET__PROVIDER_UNAVAILABLE', `${options.name} returned an unexpected response`);
    }
    return parsed.data;
  }

  return {
    /**
     * GETs `path` and parses it with `schema`, answering from the cache for `ttlMs`. When the
     * provider fails, a cached answer up to ten TTLs old is served instead of the error.
     */
    async get<T>(
      path: string,
      query: Record<string, string | number | undefined> | undefined,
      schema: z.ZodType<T>,
      ttlMs: number,
    ): Promise<T | undefined> {
      const target = url(path, query);
      const cached = cache.get(target);
      // Cache ages are durations: the monotonic clock, not the wall clock.
      const now = performance.now();
      if (cached && now - cached.storedAt < ttlMs) return cached.value as T | undefined;
      const pending = inFlight.get(target);
      if (pending) return pending as Promise<T | undefined>;
      const promise = request(target, schema)
        .then((value) => {
          if (cache.size >= MAX_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
          cache.set(target, { value, storedAt: performance.now() });
          return value;
        })
        .catch((error: unknown) => {
          if (cached && performance.now() - cached.storedAt < ttlMs * STALE_FACTOR) {
            options.log.warn({ provider: options.name, err: error }, 'serving a stale market answer');
            return cached.value as T | undefined;
          }
          throw error;
        })
        .finally(() => inFlight.delete(target));
      inFlight.set(target, promise);
      return promise;
    },
  };
}

export type ProviderClient = ReturnType<typeof createProviderClient>;
