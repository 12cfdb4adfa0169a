import type { FastifyBaseLogger } from 'fastify';
import {
  CHART_INTERVAL_SECONDS,
  type TEnhancedTrendingToken,
  type TPool,
  type TTokenMarketData,
  type TTokenSearchResult,
  type TTrendingToken,
} from '@solterm/contracts';
import { deriveAddress } from '../../../lib/derived-address';
import { aggregateCandles, type RawCandle } from '../candle-aggregation';
import type { CandleRequest, MarketData, MarketToken, SearchSource, TokenQuote } from '../market-data';
import { Dec } from '@solterm/engine';
import {
  centsToUsd,
  decimalString,
  percentChange,
  toSignificant,
  toWireNumber,
} from '../../../lib/wire-decimal';
import { createCandleStore } from './candle-store';
import { HOUR, MINUTE, PriceProcess } from './price-process';
import { buildSimulatedTokens, estimateHolderCount, type SimulatedToken } from './simulated-tokens';
import { formatAge, tokenThumb } from './token-art';

const DAY = 86_400;
const TRENDING_SIZE = 15;

export interface SimulatedMarketOptions {
  seed: string;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Closed candles the history cache holds at most (default: candle-store's DEFAULT_MAX_CACHED_CANDLES). */
  maxCachedCandles?: number;
}

/**
 * What the simulator knows of a token at one second. Prices are doubles of decimals quantised by the
 * price process (10 significant digits, 6 for stablecoins): they go on the wire as they are.
 */
interface TokenSnapshot {
  readonly token: SimulatedToken;
  readonly price: number;
  readonly price24hAgo: number;
  readonly change24h: string;
  readonly volume24hCents: number;
  readonly high24h: number;
  readonly low24h: number;
  readonly marketCap: Dec;
  readonly liquidityCents: number;
}

interface SimulatedPool {
  address: string;
  dex: string;
  quote: SimulatedToken;
  liquidityShare: number;
  volumeShare: number;
  createdAt: string;
}

function dexLabels(dex: string): string[] {
  if (dex === 'orca') return ['CLMM'];
  if (dex === 'meteora') return ['DLMM'];
  if (dex === 'raydium') return ['CPMM'];
  return [];
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

  const sol = bySymbol.get('SOL')!;
  const usdc = bySymbol.get('USDC')!;
  const pools = new Map<string, SimulatedPool[]>();
  const poolByAddress = new Map<string, { token: SimulatedToken; pool: SimulatedPool }>();
  for (const token of tokens) {
    const launched = Date.parse(`${token.launchedAt}T00:00:00Z`);
    const mainQuote = token === sol || token.peg?.symbol === 'SOL' || token.isStable ? usdc : sol;
    const secondQuote = mainQuote === usdc ? (token === usdc ? bySymbol.get('USDT')! : sol) : usdc;
    const secondDex = token.dex === 'orca' ? 'raydium' : 'orca';
    const list: SimulatedPool[] = [
      {
        address: deriveAddress(`solterm-sim-pool:${token.mint}:${mainQuote.mint}:${token.dex}`),
        dex: token.dex,
        quote: mainQuote,
        liquidityShare: 0.7,
        volumeShare: 0.75,
        createdAt: new Date(launched + 3_600_000).toISOString(),
      },
    ];
    if (secondQuote !== token) {
      list.push({
        address: deriveAddress(`solterm-sim-pool:${token.mint}:${secondQuote.mint}:${secondDex}`),
        dex: secondDex,
        quote: secondQuote,
        liquidityShare: 0.3,
        volumeShare: 0.25,
        createdAt: new Date(launched + 9 * DAY * 1000).toISOString(),
      });
    }
    pools.set(token.mint, list);
    for (const pool of list) poolByAddress.set(pool.address, { token, pool });
  }
  const thumbs = new Map(tokens.map((token) => [token.mint, tokenThumb(token.symbol)]));

  // ── Snapshot of every token at the current second (cached per second) ──────────────────────
  const rolling = new Map<string, { minute: number; high: number; low: number; volumeCents: number }>();
  let snapshotSecond = -1;
  let snapshot: Map<string, TokenSnapshot> = new Map();
  let ranked: TokenSnapshot[] = [];
  let markets: TTokenMarketData[] = [];
  let marketsSecond = -1;

  function rolling24h(token: SimulatedToken, now: number) {
    const minute = Math.floor(now / MINUTE) * MINUTE;
    const cached = rolling.get(token.mint);
    if (cached && cached.minute === minute) return cached;
    const stats = priceProcess.rangeStats(token.params, minute - DAY, minute);
    const entry = { minute, ...stats };
    rolling.set(token.mint, entry);
    return entry;
  }

  function snapshotOf(token: SimulatedToken, now: number): TokenSnapshot {
    const price = priceProcess.priceAt(token.params, now);
    const price24hAgo = priceProcess.priceAt(token.params, now - DAY);
    const basePrice = Number(token.basePrice);
    const liquidityCents = Math.round(
      token.liquidityUsd * 100 * Math.sqrt(price / (token.peg ? price : basePrice)),
    );
    // The 24 h statistics cost more than a price: computed only when something reads them (the
    // prices channel and the dashboard cards never do).
    let stats: { volume24hCents: number; high24h: number; low24h: number } | undefined;
    const statsOf = () => {
      if (stats) return stats;
      const rolled = rolling24h(token, now);
      const minuteStart = Math.floor(now / MINUTE) * MINUTE;
      // The forming minute's traded value so far joins the 24 h volume.
      const formingCents = priceProcess.partialMinuteVolumeCents(
        token.params,
        minuteStart,
        now - minuteStart,
      );
      stats = {
        volume24hCents: rolled.volumeCents + formingCents,
        high24h: Number.isNaN(rolled.high) ? price : Math.max(rolled.high, price),
        low24h: Number.isNaN(rolled.low) ? price : Math.min(rolled.low, price),
      };
      return stats;
    };
    return {
      token,
      price,
      price24hAgo,
      change24h: percentChange(decimalString(price), decimalString(price24hAgo)),
      get volume24hCents() {
        return statsOf().volume24hCents;
      },
      get high24h() {
        return statsOf().high24h;
      },
      get low24h() {
        return statsOf().low24h;
      },
      marketCap: new Dec(decimalString(price)).times(token.circulatingSupply),
      liquidityCents,
    };
  }

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

  function marketOf(entry: TokenSnapshot): TTokenMarketData {
    const { token } = entry;
    return {
      symbol: token.symbol,
      name: token.name,
      address: token.mint,
      decimals: token.decimals,
      price: entry.price,
      change_24h: toWireNumber(entry.change24h),
      market_cap: toWireNumber(entry.marketCap.toFixed(2)),
      market_cap_rank: rankOf(token.mint),
      volume_24h: toWireNumber(centsToUsd(entry.volume24hCents)),
      high_24h: entry.high24h,
      low_24h: entry.low24h,
      liquidity_usd: toWireNumber(centsToUsd(entry.liquidityCents)),
      circulating_supply: toWireNumber(token.circulatingSupply),
      total_supply: toWireNumber(token.totalSupply),
      last_updated: new Date(snapshotSecond * 1000).toISOString(),
      source: 'simulator',
    };
  }

  function toMarketToken(token: SimulatedToken): MarketToken {
    return { symbol: token.symbol, name: token.name, mint: token.mint, decimals: token.decimals };
  }

  function simulatedOf(token: MarketToken): SimulatedToken | undefined {
    return (token.mint ? byMint.get(token.mint) : undefined) ?? bySymbol.get(token.symbol.toUpperCase());
  }

  function searchResultOf(entry: TokenSnapshot): TTokenSearchResult {
    const { token } = entry;
    const mainPool = pools.get(token.mint)?.[0];
    return {
      id: token.mint,
      name: token.name,
      symbol: token.symbol,
      current_price: entry.price,
      price: entry.price,
      market_cap: toWireNumber(entry.marketCap.toFixed(2)),
      price_change_24h: toWireNumber(entry.change24h),
      address: token.mint,
      decimals: token.decimals,
      source: 'simulator',
      pair_address: mainPool?.address ?? null,
      dex_id: mainPool?.dex ?? null,
      chain_id: 'solana',
      liquidity_usd: toWireNumber(centsToUsd(entry.liquidityCents)),
      volume_24h: toWireNumber(centsToUsd(entry.volume24hCents)),
    };
  }

  function poolOf(token: SimulatedToken, pool: SimulatedPool): TPool {
    const current = currentSnapshot();
    const base = current.get(token.mint)!;
    const quote = current.get(pool.quote.mint)!;
    const priceNative = new Dec(decimalString(base.price)).div(decimalString(quote.price));
    return {
      pair_address: pool.address,
      dex_id: pool.dex,
      chain_id: 'solana',
      url: null,
      labels: dexLabels(pool.dex),
      base_token: { address: token.mint, name: token.name, symbol: token.symbol },
      quote_token: { address: pool.quote.mint, name: pool.quote.name, symbol: pool.quote.symbol },
      price_usd: base.price,
      price_native: toWireNumber(toSignificant(priceNative)),
      liquidity_usd: toWireNumber(centsToUsd(Math.round(base.liquidityCents * pool.liquidityShare))),
      volume_24h: toWireNumber(centsToUsd(Math.round(base.volume24hCents * pool.volumeShare))),
      price_change_24h: toWireNumber(base.change24h),
      fdv: toWireNumber(new Dec(decimalString(base.price)).times(token.totalSupply).toFixed(2)),
      market_cap: toWireNumber(base.marketCap.toFixed(2)),
      pair_created_at: pool.createdAt,
    };
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

  function trendingOf(entry: TokenSnapshot, score: number): TTrendingToken {
    const { token } = entry;
    return {
      symbol: token.symbol,
      name: token.name,
      address: token.mint,
      age: formatAge(nowSeconds() - token.launchedAtSeconds),
      created_at: new Date(token.launchedAtSeconds * 1000).toISOString(),
      total_volume: toWireNumber(centsToUsd(entry.volume24hCents)),
      market_cap: toWireNumber(entry.marketCap.toFixed(2)),
      holders: estimateHolderCount(token),
      price_change_24h: toWireNumber(entry.change24h),
      price: entry.price,
      market_cap_rank: rankOf(token.mint),
      score,
      thumb: thumbs.get(token.mint) ?? null,
    };
  }

  function matches(token: SimulatedToken, query: string, source: SearchSource): boolean {
    if (token.mint === query) return true;
    const upper = query.toUpperCase();
    const symbol = token.symbol.toUpperCase();
    const name = token.name.toUpperCase();
    if (symbol.startsWith(upper) || name.startsWith(upper) || symbol.includes(upper) || name.includes(upper))
      return true;
    if (token.aliases.some((alias) => alias.toUpperCase().includes(upper))) return true;
    // The fallback source also finds tokens by the start of their mint address.
    return source === 'fallback' && query.length >= 4 && token.mint.startsWith(query);
  }

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
      );
      return step === resolution ? base : aggregateCandles(base, step);
    },

    async searchTokens(query, _limit, source) {
      const current = currentSnapshot();
      return tokens
        .filter((token) => matches(token, query.trim(), source))
        .map((token) => searchResultOf(current.get(token.mint)!));
    },

    async getPools(address) {
      const token = byMint.get(address);
      if (token) return (pools.get(token.mint) ?? []).map((pool) => poolOf(token, pool));
      const found = poolByAddress.get(address);
      return found ? [poolOf(found.token, found.pool)] : [];
    },

    async getTrending() {
      return trendingEntries().map((entry, index) => trendingOf(entry, index));
    },

    async getEnhancedTrending(): Promise<TEnhancedTrendingToken[]> {
      return trendingEntries().map((entry, index) => {
        const mainPool = pools.get(entry.token.mint)?.[0];
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
