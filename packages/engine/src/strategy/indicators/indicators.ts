// Incremental technical indicators: each `update` is O(1) in time and memory, so a strategy costs
// the same on the millionth candle as on the first. They work on doubles: an indicator is a signal,
// not money (fills and balances are exact, in the backtest runner and the venue).
// Each returns NaN until it has seen enough values (its warm-up).

/** Simple moving average over the last `period` values. */
export class Sma {
  private readonly window: Float64Array;
  private index = 0;
  private count = 0;
  // The running sum and the value, in a typed array: a double stored in a field is boxed anew on each
  // update (one allocation per candle per indicator in a backtest).
  private readonly state = Float64Array.of(0, Number.NaN);

  constructor(readonly period: number) {
    assertPeriod(period);
    this.window = new Float64Array(period);
  }

  get value(): number {
    return this.state[VALUE]!;
  }

  update(x: number): number {
    const state = this.state;
    const old = this.window[this.index]!;
    this.window[this.index] = x;
    this.index = this.index + 1 === this.period ? 0 : this.index + 1;
    if (this.count < this.period) {
      this.count += 1;
      state[SUM] = state[SUM]! + x;
    } else {
      state[SUM] = state[SUM]! + (x - old);
    }
    // Re-summed once per full window: running sums of doubles drift otherwise.
    if (this.index === 0) state[SUM] = sumOf(this.window);
    state[VALUE] = this.count === this.period ? state[SUM]! / this.period : Number.NaN;
    return state[VALUE]!;
  }

  /**
   * update() of each of values[from, to), its result in out[i − from]: the same doubles, kept in
   * locals. The once-a-window re-sum is the sum of the values written since the window last wrapped,
   * in order from 0: accumulated as they come (window[0, index) before the first), so it is not a
   * burst of `period` dependent additions.
   */
  updateAll(values: Float64Array, from: number, to: number, out: Float64Array): void {
    const { window, period, state } = this;
    let sum = state[SUM]!;
    let value = state[VALUE]!;
    let index = this.index;
    let count = this.count;
    let partial = partialSum(window, index);
    for (let i = from; i < to; i += 1) {
      const x = values[i]!;
      const old = window[index]!;
      window[index] = x;
      partial += x;
      index = index + 1 === period ? 0 : index + 1;
      sum = count < period ? sum + x : sum + (x - old);
      if (count < period) count += 1;
      if (index === 0) {
        sum = partial;
        partial = 0;
      }
      value = count === period ? sum / period : Number.NaN;
      out[i - from] = value;
    }
    state[SUM] = sum;
    state[VALUE] = value;
    this.index = index;
    this.count = count;
  }

  /**
   * updateAll of two averages over the same values in one loop (their additions overlap), and where
   * `a`'s value minus `b`'s (the doubles of a.update(x) − b.update(x)) crossed zero: out[i − from]
   * is CROSSED_UP when the difference went from ≤ 0 to > 0, CROSSED_DOWN from ≥ 0 to < 0, else 0
   * (NaN, before both are full, fails every comparison: it crosses nothing). previous[0]: the difference before `from` (NaN at
   * first), and after the call the last one.
   */
  static crossings(
    a: Sma,
    b: Sma,
    values: Float64Array,
    from: number,
    to: number,
    previous: Float64Array,
    out: Uint8Array,
  ): void {
    const windowA = a.window;
    const windowB = b.window;
    const periodA = a.period;
    const periodB = b.period;
    let sumA = a.state[SUM]!;
    let sumB = b.state[SUM]!;
    let valueA = a.state[VALUE]!;
    let valueB = b.state[VALUE]!;
    let indexA = a.index;
    let indexB = b.index;
    let countA = a.count;
    let countB = b.count;
    let partialA = partialSum(windowA, indexA);
    let partialB = partialSum(windowB, indexB);
    let before = previous[0]!;
    const up = CROSSED_UP;
    const down = CROSSED_DOWN;
    let i = from;
    for (; i < to && (countA < periodA || countB < periodB); i += 1) {
      const x = values[i]!;
      const oldA = windowA[indexA]!;
      const oldB = windowB[indexB]!;
      windowA[indexA] = x;
      windowB[indexB] = x;
      partialA += x;
      partialB += x;
      indexA = indexA + 1 === periodA ? 0 : indexA + 1;
      indexB = indexB + 1 === periodB ? 0 : indexB + 1;
      sumA = countA < periodA ? sumA + x : sumA + (x - oldA);
      sumB = countB < periodB ? sumB + x : sumB + (x - oldB);
      if (countA < periodA) countA += 1;
      if (countB < periodB) countB += 1;
      if (indexA === 0) {
        sumA = partialA;
        partialA = 0;
      }
      if (indexB === 0) {
        sumB = partialB;
        partialB = 0;
      }
      valueA = countA === periodA ? sumA / periodA : Number.NaN;
      valueB = countB === periodB ? sumB / periodB : Number.NaN;
      const diff = valueA - valueB;
      // crossing(before, diff), written out: a call would box both doubles when not inlined.
      out[i - from] = before <= 0 && diff > 0 ? up : before >= 0 && diff < 0 ? down : 0;
      before = diff;
    }
    // Both windows full: the same steps without the warm-up's tests.
    for (; i < to; i += 1) {
      const x = values[i]!;
      const oldA = windowA[indexA]!;
      const oldB = windowB[indexB]!;
      windowA[indexA] = x;
      windowB[indexB] = x;
      partialA += x;
      partialB += x;
      sumA += x - oldA;
      sumB += x - oldB;
      indexA += 1;
      indexB += 1;
      if (indexA === periodA) {
        indexA = 0;
        sumA = partialA;
        partialA = 0;
      }
      if (indexB === periodB) {
        indexB = 0;
        sumB = partialB;
        partialB = 0;
      }
      valueA = sumA / periodA;
      valueB = sumB / periodB;
      const diff = valueA - valueB;
      // crossing(before, diff), written out: a call would box both doubles when not inlined.
      out[i - from] = before <= 0 && diff > 0 ? up : before >= 0 && diff < 0 ? down : 0;
      before = diff;
    }
    previous[0] = before;
    a.state[SUM] = sumA;
    a.state[VALUE] = valueA;
    a.index = indexA;
    a.count = countA;
    b.state[SUM] = sumB;
    b.state[VALUE] = valueB;
    b.index = indexB;
    b.count = countB;
  }
}

/** Sma.crossings' marks. */
export const CROSSED_UP = 1;
export const CROSSED_DOWN = 2;

/** window[0, index) summed in order from 0: the re-sum's first `index` additions. */
function partialSum(window: Float64Array, index: number): number {
  let sum = 0;
  for (let k = 0; k < index; k += 1) sum += window[k]!;
  return sum;
}

const SUM = 0;
const VALUE = 1;

/** Exponential moving average (α = 2 / (period + 1)), seeded with the SMA of its first `period` values. */
export class Ema {
  private readonly alpha: number;
  private readonly seed: Sma;
  /** The value, in a typed array (see Sma). */
  private readonly state = Float64Array.of(Number.NaN);

  constructor(readonly period: number) {
    assertPeriod(period);
    this.alpha = 2 / (period + 1);
    this.seed = new Sma(period);
  }

  get value(): number {
    return this.state[0]!;
  }

  update(x: number): number {
    const state = this.state;
    if (Number.isNaN(state[0]!)) {
      state[0] = this.seed.update(x);
      return state[0]!;
    }
    state[0] = state[0]! + this.alpha * (x - state[0]!);
    return state[0]!;
  }

  /** update() of each of values[from, to), its result in out[i − from] (see Sma.updateAll). */
  updateAll(values: Float64Array, from: number, to: number, out: Float64Array): void {
    const { alpha, state } = this;
    let value = state[0]!;
    for (let i = from; i < to; i += 1) {
      const x = values[i]!;
      value = Number.isNaN(value) ? this.seed.update(x) : value + alpha * (x - value);
      out[i - from] = value;
    }
    state[0] = value;
  }
}

/** Relative strength index with Wilder's smoothing (0–100); needs `period + 1` values. */
export class Rsi {
  private previous = Number.NaN;
  private count = 0;
  private gain = 0;
  private loss = 0;
  value = Number.NaN;

  constructor(readonly period: number) {
    assertPeriod(period);
  }

  update(x: number): number {
    if (Number.isNaN(this.previous)) {
      this.previous = x;
      return this.value;
    }
    const change = x - this.previous;
    this.previous = x;
    const up = change > 0 ? change : 0;
    const down = change < 0 ? -change : 0;
    if (this.count < this.period) {
      this.gain += up / this.period;
      this.loss += down / this.period;
      this.count += 1;
      if (this.count < this.period) return this.value;
    } else {
      this.gain = (this.gain * (this.period - 1) + up) / this.period;
      this.loss = (this.loss * (this.period - 1) + down) / this.period;
    }
    this.value = this.loss === 0 ? (this.gain === 0 ? 50 : 100) : 100 - 100 / (1 + this.gain / this.loss);
    return this.value;
  }
}

/**
 * Bollinger bands: the SMA of `period` values ± `width` population standard deviations. Mean and
 * squared deviations are kept by Welford's sliding update (a running sum of squares would cancel
 * catastrophically on large prices), recomputed from the window once per period.
 */
export class Bollinger {
  private readonly window: Float64Array;
  private index = 0;
  private count = 0;
  private mean = 0;
  private squares = 0;
  middle = Number.NaN;
  upper = Number.NaN;
  lower = Number.NaN;

  constructor(
    readonly period: number,
    readonly width: number,
  ) {
    assertPeriod(period);
    this.window = new Float64Array(period);
  }

  update(x: number): number {
    const old = this.window[this.index]!;
    this.window[this.index] = x;
    this.index = this.index + 1 === this.period ? 0 : this.index + 1;
    if (this.count < this.period) {
      this.count += 1;
      const delta = x - this.mean;
      this.mean += delta / this.count;
      this.squares += delta * (x - this.mean);
    } else {
      const before = this.mean;
      this.mean += (x - old) / this.period;
      this.squares += (x - old) * (x - this.mean + old - before);
    }
    // Recomputed once per full window (amortised O(1)): sliding updates drift otherwise.
    if (this.index === 0) {
      this.mean = sumOf(this.window) / this.period;
      this.squares = 0;
      for (const value of this.window) {
        const deviation = value - this.mean;
        this.squares += deviation * deviation;
      }
    }
    if (this.count < this.period) return this.middle;
    this.middle = this.mean;
    const deviation = Math.sqrt(Math.max(0, this.squares / this.period));
    this.upper = this.middle + this.width * deviation;
    this.lower = this.middle - this.width * deviation;
    return this.middle;
  }
}

/** Average true range with Wilder's smoothing; needs `period` candles. */
export class Atr {
  private previousClose = Number.NaN;
  private count = 0;
  value = Number.NaN;
  private sum = 0;

  constructor(readonly period: number) {
    assertPeriod(period);
  }

  update(high: number, low: number, close: number): number {
    const range = Number.isNaN(this.previousClose)
      ? high - low
      : Math.max(high - low, Math.abs(high - this.previousClose), Math.abs(low - this.previousClose));
    this.previousClose = close;
    if (this.count < this.period) {
      this.sum += range;
      this.count += 1;
      if (this.count === this.period) this.value = this.sum / this.period;
      return this.value;
    }
    this.value = (this.value * (this.period - 1) + range) / this.period;
    return this.value;
  }
}

/** MACD: EMA(fast) − EMA(slow), its EMA(signal), and their difference (the histogram). */
export class Macd {
  private readonly fastEma: Ema;
  private readonly slowEma: Ema;
  private readonly signalEma: Ema;
  macd = Number.NaN;
  signal = Number.NaN;
  histogram = Number.NaN;

  constructor(fast = 12, slow = 26, signal = 9) {
    if (!(fast < slow)) throw new RangeError(`MACD needs fast < slow, got ${fast} and ${slow}`);
    this.fastEma = new Ema(fast);
    this.slowEma = new Ema(slow);
    this.signalEma = new Ema(signal);
  }

  update(x: number): number {
    const fast = this.fastEma.update(x);
    const slow = this.slowEma.update(x);
    if (Number.isNaN(slow)) return this.macd;
    this.macd = fast - slow;
    this.signal = this.signalEma.update(this.macd);
    this.histogram = Number.isNaN(this.signal) ? Number.NaN : this.macd - this.signal;
    return this.macd;
  }
}

function assertPeriod(period: number): void {
  if (!Number.isInteger(period) || period < 1 || period > 100_000) {
    throw new RangeError(`an indicator period must be an integer from 1 to 100000, got ${period}`);
  }
}

function sumOf(values: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[i]!;
  return sum;
}
