import type { FastifyBaseLogger } from 'fastify';
import {
  CHART_INTERVAL_SECONDS,
  type TEnhancedTrendingToken,
  type TTokenMarketData,
} from '@solterm/contracts';
import { centsToUsd, decimalString, toWireNumber } from '../../../lib/wire-decimal';
import { aggregateCandles, type RawCandle } from '../candle-aggregation';
import type { CandleRequest, MarketData, MarketToken, TokenQuote } from '../market-data';
import { createCandleStore } from './candle-store';
import { HOUR, MINUTE, PriceProcess } from './price-process';
import { buildSimulatedPools, poolWire, type SimulatedPool } from './simulated-pools';
import { createSnapshotter, type TokenSnapshot } from './simulated-snapshot';
import { buildSimulatedTokens, type SimulatedToken } from './simulated-tokens';
import { marketWire, matchesQuery, searchResultWire, trendingWire } from './simulated-wire';
import { tokenThumb } from './token-art';

const TRENDING_SIZE = 15;

export interface SimulatedMarketOptions {
  seed: string;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Closed candles the history cache holds at most (default: candle-store's DEFAULT_MAX_CACHED_CANDLES). */
  maxCachedCandles?: number;
}

/**
 * The embedded market: a universe of Solana tokens whose prices follow the seeded process of
 * price-process.ts, history computed on demand by the candle store, search, pools and trending
 * derived from it. Nothing is stored: the same seed gives the same market after any restart.
 */
export function createSimulatedMarket(options: SimulatedMarketOptions): MarketData & {
  /** What the candle cache holds (diagnostics and tests). */
  cacheStats(): { chunks: number; candles: number };
  /** The simulator's tokens (holder simulation and tests read their facts). */
  readonly tokens: readonly SimulatedToken[];
  /** The price process (tests check determinism against it). */
  readonly priceProcess: PriceProcess;
} {
  const priceProcess = new PriceProcess(options.seed);
  const tokens = buildSimulatedTokens();
  const bySymbol = new Map(tokens.map((token) => [token.symbol.toUpperCase(), token]));
  const byMint = new Map(tokens.map((token) => [token.mint, token]));
  const byAlias = new Map<string, SimulatedToken>();
  for (const token of tokens) {
    byAlias.set(token.name.toUpperCase(), token);
    for (const alias of token.aliases) byAlias.set(alias.toUpperCase(), token);
  }
  const nowSeconds = () => Math.floor(options.now().getTime() / 1000);
  const store = createCandleStore({
    priceProcess,
    nowSeconds,
    ...(options.maxCachedCandles === undefined ? {} : { maxCachedCandles: options.maxCachedCandles }),
  });

  const pools = buildSimulatedPools(tokens, bySymbol);
  const snapshotOf = createSnapshotter(priceProcess);
  const thumbs = new Map(tokens.map((token) => [token.mint, tokenThumb(token.symbol)]));

  // ── Snapshot of every token at the current second (cached per second) ──────────────────────
  let snapshotSecond = -1;
  let snapshot: Map<string, TokenSnapshot> = new Map();
  let ranked: TokenSnapshot[] = [];
  let markets: TTokenMarketData[] = [];
  let marketsSecond = -1;

  function currentSnapshot(): Map<string, TokenSnapshot> {
    const now = nowSeconds();
    if (now === snapshotSecond) return snapshot;
    const next = new Map<string, TokenSnapshot>();
    for (const token of tokens) next.set(token.mint, snapshotOf(token, now));
    snapshot = next;
    snapshotSecond = now;
    ranked = [...next.values()].sort((a, b) => b.marketCap.comparedTo(a.marketCap));
    return snapshot;
  }

  function rankOf(mint: string): number | null {
    currentSnapshot();
    const index = ranked.findIndex((entry) => entry.token.mint === mint);
    return index < 0 ? null : index + 1;
  }

  /** Trending: the non-stable tokens moving most on the most volume relative to their size. */
  function trendingEntries(): TokenSnapshot[] {
    const current = currentSnapshot();
    const heat = (entry: TokenSnapshot) => {
      const turnover = entry.volume24hCents / 100 / Math.max(1, Number(entry.marketCap.toFixed(0)));
      return Math.abs(Number(entry.change24h)) * Math.sqrt(turnover) + turnover;
    };
    return [...current.values()]
      .filter((entry) => !entry.token.isStable && !entry.token.peg)
      .map((entry) => ({ entry, score: heat(entry) }))
      .sort((a, b) => b.score - a.score || a.entry.token.symbol.localeCompare(b.entry.token.symbol))
      .slice(0, TRENDING_SIZE)
      .map(({ entry }) => entry);
  }

  const marketOf = (entry: TokenSnapshot) => marketWire(entry, rankOf(entry.token.mint), snapshotSecond);
  const mainPoolOf = (token: SimulatedToken) => pools.byToken.get(token.mint)?.[0];
  const trendingOf = (entry: TokenSnapshot, score: number) =>
    trendingWire(entry, score, {
      rank: rankOf(entry.token.mint),
      nowSeconds: nowSeconds(),
      thumb: thumbs.get(entry.token.mint) ?? null,
    });
  function poolOf(token: SimulatedToken, pool: SimulatedPool) {
    const current = currentSnapshot();
    return poolWire(pool, current.get(token.mint)!, current.get(pool.quote.mint)!);
  }
  const toMarketToken = (token: SimulatedToken): MarketToken => ({
    symbol: token.symbol,
    name: token.name,
    mint: token.mint,
    decimals: token.decimals,
  });
  const simulatedOf = (token: MarketToken): SimulatedToken | undefined =>
    (token.mint ? byMint.get(token.mint) : undefined) ?? bySymbol.get(token.symbol.toUpperCase());

  return {
    source: 'simulator',
    tokens,
    priceProcess,
    cacheStats: () => store.cacheStats(),

    async start() {
      // Warm the first snapshot and its 24 h statistics so the first requests are fast.
      currentSnapshot();
      for (const entry of ranked) void entry.volume24hCents;
    },

    async stop() {},

    async listPrices() {
      currentSnapshot();
      return ranked.map((entry) => ({
        symbol: entry.token.symbol,
        price: decimalString(entry.price),
        change24h: entry.change24h,
      }));
    },

    async listMarkets() {
      currentSnapshot();
      if (marketsSecond !== snapshotSecond) {
        markets = ranked.map(marketOf);
        marketsSecond = snapshotSecond;
      }
      return markets;
    },

    async findToken(query) {
      const text = query.trim();
      const token = byMint.get(text) ?? bySymbol.get(text.toUpperCase()) ?? byAlias.get(text.toUpperCase());
      return token ? toMarketToken(token) : undefined;
    },

    async getMarket(token) {
      const simulated = simulatedOf(token);
      if (!simulated) return undefined;
      const entry = currentSnapshot().get(simulated.mint);
      return entry ? marketOf(entry) : undefined;
    },

    async getQuote(token): Promise<TokenQuote | undefined> {
      const simulated = simulatedOf(token);
      if (!simulated) return undefined;
      const entry = currentSnapshot().get(simulated.mint)!;
      return {
        token: toMarketToken(simulated),
        price: decimalString(entry.price),
        price24hAgo: decimalString(entry.price24hAgo),
        change24h: entry.change24h,
        volume24h: centsToUsd(entry.volume24hCents),
        observedAt: snapshotSecond * 1000,
      };
    },

    shiftPrice(token, factor) {
      const simulated = simulatedOf(token);
      if (!simulated) return undefined;
      const now = nowSeconds();
      const total = priceProcess.shifts.shift(simulated.params, now, factor);
      // This second's snapshot (and what is derived from it) was taken before the shift.
      snapshotSecond = -1;
      marketsSecond = -1;
      return {
        token: toMarketToken(simulated),
        price: decimalString(priceProcess.priceAt(simulated.params, now)),
        factor: total,
        steps: priceProcess.shifts.count(simulated.params),
      };
    },

    async getCandles(request: CandleRequest): Promise<RawCandle[]> {
      const token = simulatedOf(request.token);
      if (!token) return [];
      const step = CHART_INTERVAL_SECONDS[request.interval];
      if (step === 1) return store.getSeconds(token, request.fromOpen, request.toOpen);
      const resolution = step < HOUR ? MINUTE : HOUR;
      const base = await store.getRange(
        token,
        resolution,
        request.fromOpen,
        request.toOpen + step - resolution,
        request.history,
      );
      return step === resolution ? base : aggregateCandles(base, step);
    },

    async searchTokens(query, _limit, source) {
      const current = currentSnapshot();
      return tokens
        .filter((token) => matchesQuery(token, query.trim(), source))
        .map((token) => searchResultWire(current.get(token.mint)!, mainPoolOf(token)));
    },

    async getPools(address) {
      const token = byMint.get(address);
      if (token) return (pools.byToken.get(token.mint) ?? []).map((pool) => poolOf(token, pool));
      const found = pools.byAddress.get(address);
      return found ? [poolOf(found.token, found.pool)] : [];
    },

    async getTrending() {
      return trendingEntries().map((entry, index) => trendingOf(entry, index));
    },

    async getEnhancedTrending(): Promise<TEnhancedTrendingToken[]> {
      return trendingEntries().map((entry, index) => {
        const mainPool = mainPoolOf(entry.token);
        return {
          ...trendingOf(entry, index),
          liquidity_usd: toWireNumber(centsToUsd(entry.liquidityCents)),
          pair_address: mainPool?.address ?? null,
          dex_id: mainPool?.dex ?? null,
          chain_id: 'solana',
          decimals: entry.token.decimals,
        };
      });
    },
  };
}
