import {
  CHART_INTERVAL_SECONDS,
  CHART_INTERVAL_VALUES,
  type ChartInterval,
  type TCandle,
  type TChart,
  type TChartQuery,
} from '@solterm/contracts';
import type { MarketToken } from './market-data';
import type { ResolvedPair } from './market.service';
import { USD } from './market-wire';

/**
 * How long a window's closed candles are reused. The simulator never changes a closed candle; a live
 * provider may still revise its latest one for a little while, so an entry is recomputed after this.
 */
export const CLOSED_WINDOW_TTL_MS = 60_000;
/** Windows kept (a year of hours is ~8,760 candles, ~1 MB once serialised). */
export const MAX_CLOSED_WINDOWS = 32;

/**
 * The closed candles of recent chart windows, least recently used dropped first. Every request of
 * one window (pair, interval, first open, last closed open, limit) until its next candle closes asks
 * for the same candles: a cross pair's year of hours is ~52,000 decimal divisions, done once here
 * instead of on every request. The same array is handed out each time, so serialisations of it can
 * be cached by identity (market.routes.ts does).
 */
export function createClosedWindows(nowMs: () => number) {
  const windows = new Map<string, { at: number; candles: Promise<readonly TCandle[]> }>();
  return {
    get(key: string, load: () => Promise<TCandle[]>): Promise<readonly TCandle[]> {
      const hit = windows.get(key);
      windows.delete(key);
      if (hit && nowMs() - hit.at < CLOSED_WINDOW_TTL_MS) {
        windows.set(key, hit);
        return hit.candles;
      }
      const entry = { at: nowMs(), candles: load() as Promise<readonly TCandle[]> };
      windows.set(key, entry);
      if (windows.size > MAX_CLOSED_WINDOWS) windows.delete(windows.keys().next().value as string);
      entry.candles.catch(() => {
        if (windows.get(key) === entry) windows.delete(key);
      });
      return entry.candles;
    },
  };
}

/** A chart without its candles, then its candles as closed ones and the forming one (oldest first). */
export interface ChartParts {
  head: Omit<TChart, 'candles'>;
  closed: readonly TCandle[];
  forming: readonly TCandle[];
}

interface ChartPartsDeps {
  resolvePair(text: string): Promise<ResolvedPair>;
  /** Candles of a pair whose opens lie in [fromOpen, toOpen], oldest first. */
  pairCandles(
    pair: ResolvedPair,
    interval: ChartInterval,
    fromOpen: number,
    toOpen: number,
  ): Promise<TCandle[]>;
  range(interval: ChartInterval, from?: number, to?: number): { fromOpen: number; toOpen: number };
  nowSeconds(): number;
  nowMs(): number;
  source: TChart['source'];
}

/**
 * GET /market/chart's candles in parts: the closed ones of the window from createClosedWindows, the
 * forming one (if the window reaches now) computed on each request.
 */
export function createChartParts(deps: ChartPartsDeps) {
  const closedWindows = createClosedWindows(deps.nowMs);
  // By mint where there is one: two listed tokens may share a symbol.
  const leg = (token: MarketToken) => token.mint ?? token.symbol;

  return async function chartParts(symbolOrPair: string, query: TChartQuery): Promise<ChartParts> {
    const pair = await deps.resolvePair(symbolOrPair);
    const { interval, limit } = query;
    const { fromOpen, toOpen } = deps.range(interval, query.from, query.to);
    const step = CHART_INTERVAL_SECONDS[interval];
    const formingOpen = Math.floor(deps.nowSeconds() / step) * step;
    const forming = toOpen >= formingOpen ? await deps.pairCandles(pair, interval, formingOpen, toOpen) : [];
    // `limit` keeps the latest candles of the whole range: the forming one first, then closed ones.
    const keep = limit === undefined ? undefined : Math.max(0, limit - forming.length);
    const closedTo = Math.min(toOpen, formingOpen - step);
    const key = `${leg(pair.base)}/${leg(pair.quote)}|${interval}|${fromOpen}|${closedTo}|${keep ?? ''}`;
    const closed =
      keep === 0
        ? []
        : await closedWindows.get(key, async () => {
            const candles = await deps.pairCandles(pair, interval, fromOpen, closedTo);
            return keep === undefined ? candles : candles.slice(-keep);
          });
    const head = {
      symbol: pair.quote === USD ? pair.base.symbol : pair.text,
      quote: pair.quote.symbol,
      interval,
      interval_value: CHART_INTERVAL_VALUES[interval],
      from: fromOpen,
      to: toOpen,
      source: deps.source,
    };
    return { head, closed, forming: limit === undefined ? forming : forming.slice(-limit) };
  };
}
