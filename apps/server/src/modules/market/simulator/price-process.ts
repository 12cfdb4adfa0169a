import { hash4, hashString, normal } from '../../../lib/counter-hash';
import { BridgeShapes, SHAPE_COUNT, SHAPE_POINTS, SHAPE_STEPS } from './bridge-shapes';
import { HOUR, MINUTE, quantise, type HourPath, type PathParams } from './price-path';
import { PriceShifts } from './price-shifts';
import { minuteVolumeCents, secondWeights } from './volume-profile';

export { HOUR, MINUTE, quantise, type HourPath, type PathParams } from './price-path';
import type { RawCandle } from '../candle-aggregation';

/**
 * The simulator's price process: a pure function of (seed, token, time). Any second's price, and any
 * candle, can be recomputed without state, so history, live ticks and tests agree by construction.
 *
 * Construction, in log price and in units of the token's hourly volatility σ:
 *
 * 1. **Hour anchors** — the log deviation at each hour boundary is a sum of 13 octaves of value
 *    noise (cells of 1, 2, 4 … 4096 hours, amplitude √cell): locally a random walk (an hourly step
 *    has variance 1, Brownian scaling up to ~6 months) that reverts to the base price beyond that
 *    (stationary standard deviation ≈ 37σ). Hour anchors mix a shared market factor with the
 *    token's own noise (`marketBeta`), so tokens move together at hourly and longer scales.
 * 2. **Minutes** — inside an hour the path is a Brownian bridge between the two anchors.
 * 3. **Seconds** — inside a minute, a Brownian bridge between the two minute boundaries.
 *
 * Bridges are drawn from a seeded library of 1,024 standard 60-step bridge shapes, picked per
 * hour / minute by a counter-based hash. Because a minute's path is a straight line plus a scaled
 * shape, its high and low are found on the shape's precomputed convex hull in a few steps, so a year
 * of exact hourly candles (every second accounted for) costs about a second to compute.
 *
 * Floats are used only here, inside the random process; prices leave it quantised to a fixed number
 * of significant digits and are treated as decimals from then on. Math.exp/Math.log are those of the
 * running V8, so exact reproduction is guaranteed on one Node version (the tests pin seeds, not digits).
 */

const OCTAVES = 13;

// Hash stream tags: each random quantity draws from its own stream.
const STREAM_ANCHOR = 0xa7c40;
const STREAM_HOUR_SHAPE = 0x40b12;
const STREAM_MINUTE_SHAPE = 0x3e7a1;
const MARKET_FACTOR_KEY = 0x6d6b74;

/** The random machinery shared by every token of one seed: the shape library and its hulls. */
export class PriceProcess {
  readonly seedKey: number;
  private readonly shapes: BridgeShapes;
  /** Per-token caches (keyed by the params object: numeric keys, no string building in hot loops). */
  private readonly caches = new Map<
    PathParams,
    { anchors: Map<number, number>; hours: Map<number, HourPath> }
  >();
  private readonly marketCache = new Map<number, number>();
  private readonly scratch = new Float64Array(2);
  private readonly hourScratch = new Float64Array(2);
  /** Dev price shifts (POST /api/dev/market/shift), added whenever a log price is read. */
  readonly shifts = new PriceShifts();

  constructor(seed: string) {
    this.seedKey = hashString(`solterm-market:${seed}`);
    this.shapes = new BridgeShapes(this.seedKey);
  }

  /** Value noise of one octave stream at hour `hour` (standard normal marginals at cell corners). */
  private octaves(key: number, hour: number): number {
    let sum = 0;
    for (let octave = 0; octave < OCTAVES; octave += 1) {
      const cell = 2 ** octave;
      const index = Math.floor(hour / cell);
      const fraction = (hour - index * cell) / cell;
      const left = normal(this.seedKey, key ^ STREAM_ANCHOR, octave, index);
      const right = fraction === 0 ? 0 : normal(this.seedKey, key ^ STREAM_ANCHOR, octave, index + 1);
      sum += Math.sqrt(cell) * (left + (right - left) * fraction);
    }
    // Each hourly step of the sum has variance ≈ 4; halve it to unit variance.
    return 0.5 * sum;
  }

  /** The shared market factor at the start of `hour`. */
  private marketFactor(hour: number): number {
    const cached = this.marketCache.get(hour);
    if (cached !== undefined) return cached;
    const value = this.octaves(MARKET_FACTOR_KEY, hour);
    if (this.marketCache.size > 50_000) this.marketCache.clear();
    this.marketCache.set(hour, value);
    return value;
  }

  /** The log price at the start of `hour` (hours since the unix epoch). */
  private cacheOf(params: PathParams) {
    let cache = this.caches.get(params);
    if (!cache) this.caches.set(params, (cache = { anchors: new Map(), hours: new Map() }));
    return cache;
  }

  anchor(params: PathParams, hour: number): number {
    const anchors = this.cacheOf(params).anchors;
    const cached = anchors.get(hour);
    if (cached !== undefined) return cached;
    let value: number;
    if (params.peg) {
      value =
        this.anchor(params.peg.ref, hour) +
        params.peg.logRatio +
        params.sigmaHour * this.octaves(params.key, hour);
    } else {
      const beta = params.marketBeta;
      const units =
        beta * this.marketFactor(hour) + Math.sqrt(1 - beta * beta) * this.octaves(params.key, hour);
      value = params.logBase + params.sigmaHour * units;
    }
    if (anchors.size > 20_000) anchors.clear();
    anchors.set(hour, value);
    return value;
  }

  /** The path of one hour: minute-boundary log prices and the seconds' bridges. Cached. */
  hourPath(params: PathParams, hour: number): HourPath {
    const hours = this.cacheOf(params).hours;
    const cached = hours.get(hour);
    if (cached) return cached;
    const path = this.computeHourPath(params, hour);
    if (hours.size > 2_000) hours.clear();
    hours.set(hour, path);
    return path;
  }

  private hours(params: PathParams): Map<number, HourPath> {
    return this.cacheOf(params).hours;
  }

  private computeHourPath(params: PathParams, hour: number): HourPath {
    if (params.peg) {
      // A pegged token rides its reference's path plus a drift that is linear within the hour.
      const ref = this.hourPath(params.peg.ref, hour);
      const start = this.anchor(params, hour) - this.anchor(params.peg.ref, hour);
      const end = this.anchor(params, hour + 1) - this.anchor(params.peg.ref, hour + 1);
      const logs = new Float64Array(SHAPE_POINTS);
      for (let j = 0; j < SHAPE_POINTS; j += 1)
        logs[j] = ref.logs[j]! + start + ((end - start) * j) / SHAPE_STEPS;
      return { hour, logs, secondShapes: ref.secondShapes, secondSigma: ref.secondSigma };
    }
    const start = this.anchor(params, hour);
    const end = this.anchor(params, hour + 1);
    const shape = hash4(this.seedKey, params.key ^ STREAM_HOUR_SHAPE, 0, hour) & (SHAPE_COUNT - 1);
    const minuteSigma = params.sigmaHour / Math.sqrt(SHAPE_STEPS);
    const logs = new Float64Array(SHAPE_POINTS);
    for (let j = 0; j < SHAPE_POINTS; j += 1) {
      logs[j] = start + ((end - start) * j) / SHAPE_STEPS + minuteSigma * this.shapes.at(shape, j);
    }
    const secondShapes = new Int32Array(SHAPE_STEPS);
    const firstMinute = hour * 60;
    for (let j = 0; j < SHAPE_STEPS; j += 1) {
      secondShapes[j] =
        hash4(this.seedKey, params.key ^ STREAM_MINUTE_SHAPE, 0, firstMinute + j) & (SHAPE_COUNT - 1);
    }
    return { hour, logs, secondShapes, secondSigma: minuteSigma / Math.sqrt(SHAPE_STEPS) };
  }

  /** Log price at second `i` (0..60) of minute `j` (0..59) of an hour path. */
  secondLog(path: HourPath, j: number, i: number): number {
    const open = path.logs[j]!;
    const close = path.logs[j + 1]!;
    const shape = path.secondShapes[j]!;
    return open + ((close - open) * i) / SHAPE_STEPS + path.secondSigma * this.shapes.at(shape, i);
  }

  /**
   * Highest and lowest log price inside minute `j` (over its 61 second boundaries), found on the
   * shape's convex hulls; written into `out` as [high, low] (no allocation: this runs ~10⁷ times).
   */
  minuteExtremes(path: HourPath, j: number, out: Float64Array): void {
    const open = path.logs[j]!;
    const slope = (path.logs[j + 1]! - open) / SHAPE_STEPS;
    this.shapes.extremes(path.secondShapes[j]!, slope, path.secondSigma, out);
    out[0] = out[0]! + open;
    out[1] = out[1]! + open;
  }

  /** minuteExtremes with the dev shifts: second by second when a shift starts inside the minute. */
  private shiftedMinuteExtremes(params: PathParams, path: HourPath, j: number, out: Float64Array): void {
    const start = path.hour * HOUR + j * MINUTE;
    if (!this.shifts.shiftedWithin(params, start, start + MINUTE)) {
      this.minuteExtremes(path, j, out);
      const offset = this.shifts.offsetAt(params, start);
      out[0] = out[0]! + offset;
      out[1] = out[1]! + offset;
      return;
    }
    let high = -Infinity;
    let low = Infinity;
    for (let i = 0; i <= SHAPE_STEPS; i += 1) {
      const log = this.secondLog(path, j, i) + this.shifts.offsetAt(params, start + i);
      if (log > high) high = log;
      if (log < low) low = log;
    }
    out[0] = high;
    out[1] = low;
  }

  /** Converts a log price to the token's quantised price. */
  toPrice(params: PathParams, log: number): number {
    let price = Math.exp(log);
    if (params.band) price = Math.min(params.band[1], Math.max(params.band[0], price));
    return quantise(price, params.significantDigits);
  }

  /**
   * The candle of one whole minute starting at `minuteStart` (unix seconds, a multiple of 60):
   * open at the minute's start, close at its end, high and low over every second in between.
   */
  minuteCandle(params: PathParams, minuteStart: number): RawCandle {
    const hour = Math.floor(minuteStart / HOUR);
    const path = this.hourPath(params, hour);
    const j = (minuteStart - hour * HOUR) / MINUTE;
    return this.minuteCandleOf(params, path, j, minuteStart);
  }

  private minuteCandleOf(params: PathParams, path: HourPath, j: number, time: number): RawCandle {
    const extremes = this.scratch;
    this.shiftedMinuteExtremes(params, path, j, extremes);
    return {
      time,
      open: this.toPrice(params, path.logs[j]! + this.shifts.offsetAt(params, time)),
      high: this.toPrice(params, extremes[0]!),
      low: this.toPrice(params, extremes[1]!),
      close: this.toPrice(params, path.logs[j + 1]! + this.shifts.offsetAt(params, time + MINUTE)),
      volumeCents: minuteVolumeCents(this.seedKey, params, path, j),
    };
  }

  /** The 60 minute candles of one hour, in order. */
  hourMinuteCandles(params: PathParams, hour: number): RawCandle[] {
    const path = this.hourPath(params, hour);
    const candles: RawCandle[] = new Array(SHAPE_STEPS);
    for (let j = 0; j < SHAPE_STEPS; j += 1)
      candles[j] = this.minuteCandleOf(params, path, j, hour * HOUR + j * MINUTE);
    return candles;
  }

  /**
   * Highest and lowest log price over minutes [fromJ, toJ) of an hour path, exactly, into `out`.
   * A minute's high is at most max(open, close) + σ·max(shape), so only minutes whose bound beats
   * the best so far are evaluated on their hulls (typically a handful of the sixty).
   */
  private hourExtremes(
    params: PathParams,
    path: HourPath,
    fromJ: number,
    toJ: number,
    out: Float64Array,
  ): void {
    const start = path.hour * HOUR;
    if (this.shifts.shiftedWithin(params, start + fromJ * MINUTE, start + toJ * MINUTE)) {
      // A dev shift inside the range: every minute on its own (rare, and only in dev).
      let high = -Infinity;
      let low = Infinity;
      for (let j = fromJ; j < toJ; j += 1) {
        this.shiftedMinuteExtremes(params, path, j, this.scratch);
        if (this.scratch[0]! > high) high = this.scratch[0]!;
        if (this.scratch[1]! < low) low = this.scratch[1]!;
      }
      out[0] = high;
      out[1] = low;
      return;
    }
    const offset = this.shifts.offsetAt(params, start + fromJ * MINUTE);
    this.unshiftedHourExtremes(path, fromJ, toJ, out);
    out[0] = out[0]! + offset;
    out[1] = out[1]! + offset;
  }

  private unshiftedHourExtremes(path: HourPath, fromJ: number, toJ: number, out: Float64Array): void {
    const logs = path.logs;
    const sigma = path.secondSigma;
    let high = -Infinity;
    let low = Infinity;
    for (let j = fromJ; j < toJ; j += 1) {
      const a = logs[j]!;
      const b = logs[j + 1]!;
      if ((a > b ? a : b) > high) high = a > b ? a : b;
      if ((a < b ? a : b) < low) low = a < b ? a : b;
    }
    const extremes = this.scratch;
    for (let j = fromJ; j < toJ; j += 1) {
      const a = logs[j]!;
      const b = logs[j + 1]!;
      const shape = path.secondShapes[j]!;
      const mayRaise = (a > b ? a : b) + sigma * this.shapes.max[shape]! > high;
      const mayLower = (a < b ? a : b) + sigma * this.shapes.min[shape]! < low;
      if (!mayRaise && !mayLower) continue;
      this.minuteExtremes(path, j, extremes);
      if (extremes[0]! > high) high = extremes[0]!;
      if (extremes[1]! < low) low = extremes[1]!;
    }
    out[0] = high;
    out[1] = low;
  }

  /** The candle of one whole hour (the aggregate of its 60 minutes, every second accounted for). */
  hourCandle(params: PathParams, hour: number): RawCandle {
    // Not cached here: the candle store caches whole hour candles, computed once, in order.
    const path = this.hours(params).get(hour) ?? this.computeHourPath(params, hour);
    const extremes = this.hourScratch;
    this.hourExtremes(params, path, 0, SHAPE_STEPS, extremes);
    let volumeCents = 0;
    for (let j = 0; j < SHAPE_STEPS; j += 1) volumeCents += minuteVolumeCents(this.seedKey, params, path, j);
    return {
      time: hour * HOUR,
      open: this.toPrice(params, path.logs[0]! + this.shifts.offsetAt(params, hour * HOUR)),
      high: this.toPrice(params, extremes[0]!),
      low: this.toPrice(params, extremes[1]!),
      close: this.toPrice(params, path.logs[SHAPE_STEPS]! + this.shifts.offsetAt(params, (hour + 1) * HOUR)),
      volumeCents,
    };
  }

  /**
   * Highest and lowest price and total volume over the whole minutes opening in
   * [fromMinute, toMinute) (unix seconds, multiples of 60), without building candles: the 24 h
   * statistics of every token are refreshed from this once a minute.
   */
  rangeStats(
    params: PathParams,
    fromMinute: number,
    toMinute: number,
  ): { high: number; low: number; volumeCents: number } {
    let high = -Infinity;
    let low = Infinity;
    let volumeCents = 0;
    const extremes = this.hourScratch;
    for (let minute = fromMinute; minute < toMinute;) {
      const hour = Math.floor(minute / HOUR);
      const path = this.hourPath(params, hour);
      const fromJ = (minute - hour * HOUR) / MINUTE;
      const toJ = Math.min(SHAPE_STEPS, (toMinute - hour * HOUR) / MINUTE);
      this.hourExtremes(params, path, fromJ, toJ, extremes);
      if (extremes[0]! > high) high = extremes[0]!;
      if (extremes[1]! < low) low = extremes[1]!;
      for (let j = fromJ; j < toJ; j += 1) volumeCents += minuteVolumeCents(this.seedKey, params, path, j);
      minute = hour * HOUR + toJ * MINUTE;
    }
    if (high === -Infinity) return { high: NaN, low: NaN, volumeCents: 0 };
    return { high: this.toPrice(params, high), low: this.toPrice(params, low), volumeCents };
  }

  /** Traded value of the first `seconds` seconds of a minute, in whole cents (the forming minute). */
  partialMinuteVolumeCents(params: PathParams, minuteStart: number, seconds: number): number {
    if (seconds <= 0) return 0;
    const hour = Math.floor(minuteStart / HOUR);
    const path = this.hourPath(params, hour);
    const volume = minuteVolumeCents(this.seedKey, params, path, (minuteStart - hour * HOUR) / MINUTE);
    if (seconds >= SHAPE_STEPS) return volume;
    const { weights, total } = secondWeights(this.seedKey, params, minuteStart);
    let partial = 0;
    for (let i = 0; i < seconds; i += 1) partial += weights[i]!;
    // The same cumulative rounding as secondCandles, so the two agree to the cent.
    return Math.round((volume * partial) / total);
  }

  /** The price at a whole unix second. */
  priceAt(params: PathParams, unixSecond: number): number {
    const second = Math.floor(unixSecond);
    const hour = Math.floor(second / HOUR);
    const path = this.hourPath(params, hour);
    const withinHour = second - hour * HOUR;
    const j = Math.floor(withinHour / MINUTE);
    const log = this.secondLog(path, j, withinHour - j * MINUTE) + this.shifts.offsetAt(params, second);
    return this.toPrice(params, log);
  }

  /**
   * Per-second candles of one minute, from its start up to (not including) second `untilSecond`
   * within it (60 = the whole minute). Candle `t` opens at the price of second t and closes at
   * second t+1; its volume is the minute's volume split over its seconds (sums exactly).
   */
  secondCandles(params: PathParams, minuteStart: number, untilSecond = SHAPE_STEPS): RawCandle[] {
    const hour = Math.floor(minuteStart / HOUR);
    const path = this.hourPath(params, hour);
    const j = (minuteStart - hour * HOUR) / MINUTE;
    const volume = minuteVolumeCents(this.seedKey, params, path, j);
    // Cumulative rounding so the seconds' volumes sum to the minute's exactly.
    const { weights, total } = secondWeights(this.seedKey, params, minuteStart);
    const candles: RawCandle[] = [];
    let cumulative = 0;
    let previousCut = 0;
    let previousPrice = this.toPrice(
      params,
      this.secondLog(path, j, 0) + this.shifts.offsetAt(params, minuteStart),
    );
    for (let i = 0; i < Math.min(untilSecond, SHAPE_STEPS); i += 1) {
      cumulative += weights[i]!;
      const cut = i === SHAPE_STEPS - 1 ? volume : Math.round((volume * cumulative) / total);
      const next = this.toPrice(
        params,
        this.secondLog(path, j, i + 1) + this.shifts.offsetAt(params, minuteStart + i + 1),
      );
      candles.push({
        time: minuteStart + i,
        open: previousPrice,
        high: Math.max(previousPrice, next),
        low: Math.min(previousPrice, next),
        close: next,
        volumeCents: cut - previousCut,
      });
      previousCut = cut;
      previousPrice = next;
    }
    return candles;
  }
}
