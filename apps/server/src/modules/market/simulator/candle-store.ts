import { aggregateCandles, type RawCandle } from '../candle-aggregation';
import { HOUR, MINUTE, type PriceProcess } from './price-process';
import type { SimulatedToken } from './simulated-tokens';

/** Resolutions the simulator computes candles at: one minute and one hour (coarser ones aggregate these). */
export type SeriesResolution = typeof MINUTE | typeof HOUR;
const DAY = 86_400;

/** Days of one-hour candles the simulated market has: a year, the longest chart the spec draws. */
export const HOURLY_HISTORY_DAYS = 365;
/** Days of one-minute (and one-second) candles the simulated market has. */
export const MINUTE_HISTORY_DAYS = 7;
/** Closed candles the cache holds at most, over every token and resolution (~40 bytes each). */
export const DEFAULT_MAX_CACHED_CANDLES = 1_000_000;

/** Candles per cache chunk: a day of minutes, thirty days of hours (each ~5–40 ms to compute). */
const CHUNK_CANDLES: Readonly<Record<SeriesResolution, number>> = { [MINUTE]: 1440, [HOUR]: 720 };

/**
 * A run of consecutive closed candles from an aligned start, in columns (no per-candle objects),
 * filled from the start as far as a request needed.
 */
class Chunk {
  count = 0;
  private readonly open: Float64Array;
  private readonly high: Float64Array;
  private readonly low: Float64Array;
  private readonly close: Float64Array;
  private readonly volume: Float64Array;

  constructor(
    readonly start: number,
    readonly resolution: number,
    capacity: number,
  ) {
    this.open = new Float64Array(capacity);
    this.high = new Float64Array(capacity);
    this.low = new Float64Array(capacity);
    this.close = new Float64Array(capacity);
    this.volume = new Float64Array(capacity);
  }

  /** Open time after the last candle held. */
  get end(): number {
    return this.start + this.count * this.resolution;
  }

  append(candle: RawCandle): void {
    const index = this.count;
    this.open[index] = candle.open;
    this.high[index] = candle.high;
    this.low[index] = candle.low;
    this.close[index] = candle.close;
    this.volume[index] = candle.volumeCents;
    this.count += 1;
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
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface CandleStoreOptions {
  priceProcess: PriceProcess;
  nowSeconds(): number;
  /** Closed candles cached at most (default {@link DEFAULT_MAX_CACHED_CANDLES}); least recently used go first. */
  maxCachedCandles?: number;
}

/**
 * The simulator's candle history, computed on demand. The price process is a pure function of
 * (seed, token, second), so nothing is stored: closed one-minute and one-hour candles are computed
 * when first asked for, in aligned chunks kept in a bounded least-recently-used cache, and the
 * forming candle is computed at every read. A cached candle and a recomputed one are identical.
 */
export function createCandleStore(options: CandleStoreOptions) {
  const { priceProcess } = options;
  const maxCachedCandles = options.maxCachedCandles ?? DEFAULT_MAX_CACHED_CANDLES;
  /** Insertion order is recency: a read moves its chunk to the end, eviction takes from the front. */
  const chunks = new Map<string, Chunk>();
  let cachedCandles = 0;

  /** Open time of the oldest candle the market has at this resolution (its history window). */
  function windowStart(
    token: SimulatedToken,
    resolution: SeriesResolution,
    now: number,
    history: 'chart' | 'all' = 'chart',
  ): number {
    const lastClosed = Math.floor(now / resolution) * resolution - resolution;
    const launch = Math.ceil(token.launchedAtSeconds / resolution) * resolution;
    if (history === 'all') return launch;
    const days = resolution === MINUTE ? MINUTE_HISTORY_DAYS : HOURLY_HISTORY_DAYS;
    return Math.max(launch, lastClosed - days * DAY + resolution);
  }

  function closedCandle(token: SimulatedToken, resolution: SeriesResolution, openTime: number): RawCandle {
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

  /** The chunk holding `openTime`, filled at least through `through`; whether anything was computed. */
  function chunkThrough(
    token: SimulatedToken,
    resolution: SeriesResolution,
    openTime: number,
    through: number,
  ): { chunk: Chunk; computed: boolean } {
    const span = CHUNK_CANDLES[resolution] * resolution;
    const start = Math.floor(openTime / span) * span;
    const key = `${token.mint}:${resolution}:${start}`;
    let chunk = chunks.get(key);
    if (chunk) chunks.delete(key);
    else chunk = new Chunk(start, resolution, CHUNK_CANDLES[resolution]);
    chunks.set(key, chunk);
    const last = Math.min(through, start + span - resolution);
    const before = chunk.count;
    while (chunk.end <= last) chunk.append(closedCandle(token, resolution, chunk.end));
    cachedCandles += chunk.count - before;
    return { chunk, computed: chunk.count > before };
  }

  function evict(): void {
    for (const [key, chunk] of chunks) {
      if (cachedCandles <= maxCachedCandles) return;
      chunks.delete(key);
      cachedCandles -= chunk.count;
    }
  }

  /**
   * Candles of one resolution with open times in [fromOpen, toOpen] (clamped to the history
   * window, or to the token's launch with `history` 'all'), oldest first; the last is the forming candle when the range reaches now. Yields to the
   * event loop after each chunk it had to compute, so a cold year of hours never stalls other requests.
   */
  async function getRange(
    token: SimulatedToken,
    resolution: SeriesResolution,
    fromOpen: number,
    toOpen: number,
    history: 'chart' | 'all' = 'chart',
  ): Promise<RawCandle[]> {
    const now = options.nowSeconds();
    const lastClosed = Math.floor(now / resolution) * resolution - resolution;
    let openTime = Math.max(
      Math.ceil(fromOpen / resolution) * resolution,
      windowStart(token, resolution, now, history),
    );
    const out: RawCandle[] = [];
    const closedThrough = Math.min(toOpen, lastClosed);
    while (openTime <= closedThrough) {
      const { chunk, computed } = chunkThrough(token, resolution, openTime, closedThrough);
      const last = Math.min(closedThrough, chunk.end - resolution);
      for (; openTime <= last; openTime += resolution) out.push(chunk.at(openTime));
      if (computed) {
        evict();
        if (openTime <= closedThrough) await yieldToEventLoop();
      }
    }
    if (openTime <= toOpen && openTime <= now) {
      if (resolution === MINUTE) {
        out.push(formingMinute(token, openTime, now));
      } else {
        // The forming hour: its closed minutes and the forming minute.
        const currentMinute = Math.floor(now / MINUTE) * MINUTE;
        const minutes = await getRange(token, MINUTE, openTime, currentMinute);
        out.push(aggregateCandles(minutes, HOUR)[0] ?? formingMinute(token, openTime, now));
      }
    }
    return out;
  }

  return {
    windowStart,

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

    /** What the cache holds (diagnostics and tests). */
    cacheStats(): { chunks: number; candles: number } {
      return { chunks: chunks.size, candles: cachedCandles };
    },
  };
}

export type CandleStore = ReturnType<typeof createCandleStore>;
