import type { FastifyBaseLogger } from 'fastify';
import { aggregateCandles, type RawCandle } from '../candle-aggregation';
import { centsToUsd, decimalString } from '../market-decimal';
import type { CandleRows, MarketRepository } from '../market.repository';
import { HOUR, MINUTE, type PriceProcess } from './price-process';
import type { SimulatedToken } from './simulated-tokens';

/** Resolutions of the stored series: one minute and one hour. */
export type StoredResolution = typeof MINUTE | typeof HOUR;
const DAY = 86_400;

/** A contiguous series of candles in columns (no per-candle objects: a year of hours is 8,760 rows). */
class ColumnSeries {
  start = 0;
  count = 0;
  private open = new Float64Array(0);
  private high = new Float64Array(0);
  private low = new Float64Array(0);
  private close = new Float64Array(0);
  private volume = new Float64Array(0);

  constructor(readonly resolution: number) {}

  /** Open time after the last candle. */
  get end(): number {
    return this.start + this.count * this.resolution;
  }

  has(openTime: number): boolean {
    return this.count > 0 && openTime >= this.start && openTime < this.end;
  }

  private grow(minimum: number): void {
    const capacity = Math.max(minimum, Math.ceil(this.open.length * 1.5), 64);
    const resize = (array: Float64Array) => {
      const next = new Float64Array(capacity);
      next.set(array.subarray(0, this.count));
      return next;
    };
    this.open = resize(this.open);
    this.high = resize(this.high);
    this.low = resize(this.low);
    this.close = resize(this.close);
    this.volume = resize(this.volume);
  }

  /** Appends a candle; ignored unless it continues the series. Returns whether it was appended. */
  append(candle: RawCandle): boolean {
    if (this.count === 0) this.start = candle.time;
    else if (candle.time !== this.end) return false;
    if (this.count === this.open.length) this.grow(this.count + 1);
    const index = this.count;
    this.open[index] = candle.open;
    this.high[index] = candle.high;
    this.low[index] = candle.low;
    this.close[index] = candle.close;
    this.volume[index] = candle.volumeCents;
    this.count += 1;
    return true;
  }

  at(openTime: number): RawCandle {
    const index = (openTime - this.start) / this.resolution;
    return {
      time: openTime,
      open: this.open[index]!,
      high: this.high[index]!,
      low: this.low[index]!,
      close: this.close[index]!,
      volumeCents: this.volume[index]!,
    };
  }

  /** Forgets candles opening before `cutoff`. */
  dropBefore(cutoff: number): void {
    if (this.count === 0 || cutoff <= this.start) return;
    const drop = Math.min(this.count, Math.ceil((cutoff - this.start) / this.resolution));
    for (const array of [this.open, this.high, this.low, this.close, this.volume])
      array.copyWithin(0, drop, this.count);
    this.count -= drop;
    this.start += drop * this.resolution;
  }
}

function toRows(candles: readonly RawCandle[]): CandleRows {
  const rows: CandleRows = { openTime: [], open: [], high: [], low: [], close: [], volumeUsd: [] };
  for (const candle of candles) {
    rows.openTime.push(candle.time);
    rows.open.push(decimalString(candle.open));
    rows.high.push(decimalString(candle.high));
    rows.low.push(decimalString(candle.low));
    rows.close.push(decimalString(candle.close));
    rows.volumeUsd.push(centsToUsd(candle.volumeCents));
  }
  return rows;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Longest stretch of candle computation between two yields to the event loop. */
const COMPUTE_SLICE_MS = 12;

export interface CandleStoreOptions {
  repository: MarketRepository;
  priceProcess: PriceProcess;
  /** Tokens whose series are stored; others are computed on read. */
  storedTokens: readonly SimulatedToken[];
  /** Days of one-hour candles kept. */
  hourlyDays: number;
  /** Days of one-minute candles kept. */
  minuteDays: number;
  /** Names the generator (seed and model version); a stored series of another generator is rebuilt. */
  generator: string;
  nowSeconds(): number;
  log: FastifyBaseLogger;
  /** Most candles per insert statement (default 1000). */
  batchSize?: number;
}

export interface SyncReport {
  candlesWritten: number;
  durationMs: number;
}

/**
 * The simulator's candle history: one-minute and one-hour series per token, stored in the database
 * (backfilled at first start, extended as candles close) and held in memory once read. Reads take
 * stored candles and compute from the deterministic process only what is not stored yet (the
 * forming candle, candles closed since the last extension, a backfill still in progress) — the
 * values are identical either way.
 */
export function createCandleStore(options: CandleStoreOptions) {
  const { repository, priceProcess, log } = options;
  const batchSize = options.batchSize ?? 1000;
  const stored = new Set(options.storedTokens.map((token) => token.mint));
  const memory = new Map<string, ColumnSeries>();
  const loads = new Map<string, Promise<ColumnSeries>>();

  const keyOf = (mint: string, resolution: number) => `${mint}:${resolution}`;
  const daysOf = (resolution: StoredResolution) =>
    resolution === MINUTE ? options.minuteDays : options.hourlyDays;

  /** Open time of the oldest candle the market has at this resolution (its history window). */
  function windowStart(token: SimulatedToken, resolution: StoredResolution, now: number): number {
    const lastClosed = Math.floor(now / resolution) * resolution - resolution;
    const launch = Math.ceil(token.launchedAtSeconds / resolution) * resolution;
    return Math.max(launch, lastClosed - daysOf(resolution) * DAY + resolution);
  }

  function closedCandle(token: SimulatedToken, resolution: StoredResolution, openTime: number): RawCandle {
    return resolution === MINUTE
      ? priceProcess.minuteCandle(token.params, openTime)
      : priceProcess.hourCandle(token.params, openTime / HOUR);
  }

  /** The forming minute: the seconds elapsed so far (open at its start, close at now). */
  function formingMinute(token: SimulatedToken, openTime: number, now: number): RawCandle {
    const seconds = priceProcess.secondCandles(token.params, openTime, now - openTime);
    if (seconds.length > 0) return aggregateCandles(seconds, MINUTE)[0]!;
    const price = priceProcess.priceAt(token.params, openTime);
    return { time: openTime, open: price, high: price, low: price, close: price, volumeCents: 0 };
  }

  async function loadSeries(
    token: SimulatedToken,
    resolution: StoredResolution,
  ): Promise<ColumnSeries | undefined> {
    if (!stored.has(token.mint)) return undefined;
    const key = keyOf(token.mint, resolution);
    const inMemory = memory.get(key);
    if (inMemory) return inMemory;
    let pending = loads.get(key);
    if (!pending) {
      pending = (async () => {
        const series = new ColumnSeries(resolution);
        const tokenId = await repository.tokenId(token.mint, token.symbol);
        const state = await repository.findSeries(tokenId, resolution);
        if (state && state.generator === options.generator) {
          const rows = await repository.readCandles(
            tokenId,
            resolution,
            state.firstOpenTime,
            state.lastOpenTime,
          );
          for (let index = 0; index < rows.openTime.length; index += 1) {
            const appended = series.append({
              time: rows.openTime[index]!,
              open: rows.open[index]!,
              high: rows.high[index]!,
              low: rows.low[index]!,
              close: rows.close[index]!,
              volumeCents: rows.volumeCents[index]!,
            });
            if (!appended) break; // a gap: the rest is computed on read and refilled by the next sync
          }
        }
        // A sync may have started filling this series meanwhile; keep whichever holds more.
        const current = memory.get(key);
        if (current && current.count >= series.count) return current;
        memory.set(key, series);
        return series;
      })().finally(() => loads.delete(key));
      loads.set(key, pending);
    }
    return pending;
  }

  /**
   * Brings one stored series up to date: rebuilds it when the generator changed, fills the window's
   * head when the window grew, appends candles closed since the last sync, and prunes minute
   * candles that left the window.
   */
  async function syncSeries(
    token: SimulatedToken,
    resolution: StoredResolution,
    signal: AbortSignal,
  ): Promise<number> {
    const now = options.nowSeconds();
    const lastClosed = Math.floor(now / resolution) * resolution - resolution;
    const first = windowStart(token, resolution, now);
    if (lastClosed < first) return 0;
    const key = keyOf(token.mint, resolution);
    const tokenId = await repository.tokenId(token.mint, token.symbol);
    let state = await repository.findSeries(tokenId, resolution);
    let written = 0;

    if (state && state.generator !== options.generator) {
      log.info(
        { mint: token.mint, resolution },
        'market history was generated with another seed; rebuilding it',
      );
      await repository.deleteSeries(tokenId, resolution);
      memory.delete(key);
      state = undefined;
    }
    let series = memory.get(key);
    if (!state) {
      // A fresh series: fill memory while writing, so it is served without reading it back.
      series = new ColumnSeries(resolution);
      memory.set(key, series);
    }

    const write = async (from: number, to: number, recordLast: boolean): Promise<boolean> => {
      let openTime = from;
      let savedAt = performance.now();
      while (openTime <= to) {
        if (signal.aborted) return false;
        // Compute for one short slice, write it, then yield: the backfill shares the event loop
        // with requests, which must stay fast while a year of history is being generated.
        const candles: RawCandle[] = [];
        const sliceStart = performance.now();
        while (
          openTime <= to &&
          candles.length < batchSize &&
          (candles.length % 32 !== 0 || performance.now() - sliceStart < COMPUTE_SLICE_MS)
        ) {
          candles.push(closedCandle(token, resolution, openTime));
          openTime += resolution;
        }
        await repository.insertCandles(tokenId, resolution, toRows(candles));
        written += candles.length;
        if (recordLast) {
          for (const candle of candles) series?.append(candle);
          const firstOpenTime = Math.min(state?.firstOpenTime ?? first, first);
          state = { generator: options.generator, firstOpenTime, lastOpenTime: openTime - resolution };
          // Progress is recorded about once a second and at the end; rows written after the last
          // record are written again (and ignored) after an interruption.
          if (openTime > to || performance.now() - savedAt > 1000) {
            await repository.saveSeries(tokenId, resolution, state);
            savedAt = performance.now();
          }
        }
        await yieldToEventLoop();
      }
      return true;
    };

    if (state && first < state.firstOpenTime) {
      // The window grew (a larger MARKET_BACKFILL_*_DAYS): fill the head, then reload memory on demand.
      if (!(await write(first, state.firstOpenTime - resolution, false))) return written;
      state = { ...state, firstOpenTime: first };
      await repository.saveSeries(tokenId, resolution, state);
      memory.delete(key);
      series = undefined;
    }
    const tailFrom = state ? state.lastOpenTime + resolution : first;
    if (!(await write(tailFrom, lastClosed, true))) return written;

    if (resolution === MINUTE && state && state.firstOpenTime < first) {
      await repository.pruneCandles(tokenId, resolution, first);
      state = { ...state, firstOpenTime: first };
      await repository.saveSeries(tokenId, resolution, state);
      memory.get(key)?.dropBefore(first);
    }
    return written;
  }

  /**
   * Candles of one stored resolution with open times in [fromOpen, toOpen] (clamped to the
   * history window), oldest first; the last is the forming candle when the range reaches now.
   */
  async function getRange(
    token: SimulatedToken,
    resolution: StoredResolution,
    fromOpen: number,
    toOpen: number,
  ): Promise<RawCandle[]> {
    const now = options.nowSeconds();
    const start = Math.max(
      Math.ceil(fromOpen / resolution) * resolution,
      windowStart(token, resolution, now),
    );
    const series = await loadSeries(token, resolution);
    const out: RawCandle[] = [];
    let openTime = start;
    while (openTime <= toOpen && openTime <= now) {
      if (series?.has(openTime)) {
        const last = Math.min(toOpen, series.end - resolution);
        for (; openTime <= last; openTime += resolution) out.push(series.at(openTime));
        continue;
      }
      if (openTime + resolution <= now) {
        out.push(closedCandle(token, resolution, openTime));
        openTime += resolution;
        continue;
      }
      if (resolution === MINUTE) {
        out.push(formingMinute(token, openTime, now));
      } else {
        // The forming hour: its closed minutes (stored or computed) and the forming minute.
        const currentMinute = Math.floor(now / MINUTE) * MINUTE;
        const minutes = await getRange(token, MINUTE, openTime, currentMinute);
        out.push(aggregateCandles(minutes, HOUR)[0] ?? formingMinute(token, openTime, now));
      }
      break;
    }
    return out;
  }

  let running: Promise<SyncReport> | undefined;

  return {
    /** Whether a token's series are stored (others are computed on read). */
    isStored(token: SimulatedToken): boolean {
      return stored.has(token.mint);
    },

    windowStart,

    /**
     * Backfills or extends every stored series (minutes first: short charts are the most used).
     * Concurrent calls share one run. Stops between batches when `signal` aborts.
     */
    sync(signal: AbortSignal): Promise<SyncReport> {
      if (running) return running;
      running = (async () => {
        const startedAt = Date.now();
        let candlesWritten = 0;
        for (const resolution of [MINUTE, HOUR] as const) {
          for (const token of options.storedTokens) {
            if (signal.aborted) break;
            candlesWritten += await syncSeries(token, resolution, signal);
          }
        }
        return { candlesWritten, durationMs: Date.now() - startedAt };
      })().finally(() => {
        running = undefined;
      });
      return running;
    },

    getRange,

    /** Per-second candles in [fromOpen, toOpen] (within the minute window); the last may be forming. */
    getSeconds(token: SimulatedToken, fromOpen: number, toOpen: number): RawCandle[] {
      const now = options.nowSeconds();
      const start = Math.max(fromOpen, windowStart(token, MINUTE, now));
      const end = Math.min(toOpen, now);
      const out: RawCandle[] = [];
      for (let minute = Math.floor(start / MINUTE) * MINUTE; minute <= end; minute += MINUTE) {
        const until = Math.min(MINUTE, now - minute);
        for (const candle of priceProcess.secondCandles(token.params, minute, until)) {
          if (candle.time >= start && candle.time <= end) out.push(candle);
        }
      }
      if (end === now && (out.length === 0 || out[out.length - 1]!.time < now)) {
        const price = priceProcess.priceAt(token.params, now);
        out.push({ time: now, open: price, high: price, low: price, close: price, volumeCents: 0 });
      }
      return out;
    },

    /** Series currently held in memory (diagnostics and tests). */
    memoryStats(): { series: number; candles: number } {
      let candles = 0;
      for (const series of memory.values()) candles += series.count;
      return { series: memory.size, candles };
    },
  };
}

export type CandleStore = ReturnType<typeof createCandleStore>;
