import { Dec, fromBaseUnits } from '../money/decimal';
import { decimalOfNumber, exactOfNumber, toDec, type Exact } from '../money/exact';
import { FillColumns } from '../strategy/fill-columns';
import { buyWithin, StrategyRuntime } from '../strategy/runtime';
import type { SignalStrategyInstance } from '../strategy/strategy';
import type { BacktestInput, BacktestResult } from './backtest';
import { EquityCurve } from './equity-curve';
import { maxDrawdownOf, performanceOf } from './metrics';

const HOUR = 3600;

/**
 * One backtest run's state besides the strategy: the runtime, the exposure, the equity curves marked
 * at each period's last close (exact, converted once a point), and the result computed once at the end.
 */
export class BacktestRun {
  readonly runtime: StrategyRuntime;
  private readonly step: number;
  private readonly initial: Dec;
  private readonly curve: EquityCurve;
  private readonly fills: FillColumns;
  private readonly benchmark: BuyAndHold;
  private readonly every: number;
  /** A close's decimal (decimalOfNumber): its integer and scale. */
  private readonly mid = new Float64Array(2);
  /** Candles with a lot open. */
  private exposed = 0;
  /** The equity period of the current candle: one whose successor is in another period is its last. */
  private bucket = 0;
  /**
   * A hair before the next period's start: a candle before it is in the current period (the
   * division, done only from there on, decides).
   */
  private nextAt = 0.5;

  constructor(private readonly input: BacktestInput) {
    const { series, intervalSeconds } = input;
    if (!(intervalSeconds > 0)) throw new RangeError(`intervalSeconds must be > 0, got ${intervalSeconds}`);
    this.step = Math.max(input.equityStepSeconds ?? HOUR, intervalSeconds);
    this.curve = new EquityCurve(pointsOf(series, this.step));
    this.fills = new FillColumns(input.venue.fastQuotes);
    this.runtime = new StrategyRuntime({
      strategy: input.strategy,
      risk: input.risk,
      venue: input.venue,
      baseDecimals: input.baseDecimals,
      quoteDecimals: input.quoteDecimals,
      initialCash: input.initialCash,
      fillColumns: this.fills,
    });
    this.initial = fromBaseUnits(input.initialCash, input.quoteDecimals);
    this.benchmark = new BuyAndHold(input, pointsOf(series, this.step));
    this.every = input.progressEvery ?? 65_536;
    if (series.length > 0) {
      this.curve.pushDec(series.time[0]!, this.initial);
      this.benchmark.curve.pushDec(series.time[0]!, this.initial);
      this.enter(Math.floor(series.time[0]! / this.step));
    }
  }

  /** The current candle's period is now `bucket`. */
  private enter(bucket: number): void {
    this.bucket = bucket;
    const start = (bucket + 1) * this.step;
    // Far more than the division's rounding: floor(t / step) > bucket implies t ≥ nextAt.
    this.nextAt = start - Math.abs(start) * 1e-9 - 1e-9;
  }

  /** After candle `i` has been through the strategy and the risk rules. */
  after(i: number): void {
    const { series, onProgress } = this.input;
    if (this.runtime.lots.length > 0) this.exposed += 1;
    if (i + 1 === series.length) this.mark(i);
    else if (series.time[i + 1]! >= this.nextAt) this.cross(i);
    if (onProgress && (i + 1) % this.every === 0) onProgress(i + 1, series.length);
  }

  /**
   * Candles [from, to) of a signal strategy, signals[i − from] each: onSignal and after() of each. A
   * candle without a signal whose low and high no lot's risk rule can reach (or with no lot) does
   * nothing but count: the loop skips over runs of them in place, up to the next candle that ends a
   * period (markIndex) or tells progress, and calls out only for the rest.
   */
  signalBlock(strategy: SignalStrategyInstance, from: number, to: number, signals: Uint8Array): void {
    const { runtime, every } = this;
    const { series, onProgress } = this.input;
    if (onProgress && !(Number.isInteger(every) && every > 0)) {
      for (let i = from; i < to; i += 1) {
        runtime.onSignal(series, i, signals[i - from]!, strategy);
        this.after(i);
      }
      return;
    }
    const { low, high } = series;
    // clearOfRisk's bounds (the runtime's array, rewritten in place when a lot opens or closes).
    const { bounds } = runtime;
    let open = runtime.lots.length;
    let exposed = this.exposed;
    // The next candle after which onProgress is told ((i + 1) % every === 0), past the last without it.
    let told = onProgress ? Math.ceil((from + 1) / every) * every - 1 : series.length;
    let markAt = this.markIndex(from);
    for (let i = from; i < to;) {
      const stop = Math.min(to - 1, markAt, told);
      let j = i;
      if (open === 0) {
        while (j <= stop && signals[j - from] === 0) j += 1;
      } else {
        const above = bounds[0]!;
        const below = bounds[1]!;
        while (j <= stop && signals[j - from] === 0 && low[j]! > above && high[j]! < below) j += 1;
        exposed += j - i;
      }
      if (j <= stop) {
        runtime.onSignal(series, j, signals[j - from]!, strategy);
        open = runtime.lots.length;
        if (open > 0) exposed += 1;
      } else j = stop;
      if (j === markAt) {
        if (j === series.length - 1) this.mark(j);
        else this.cross(j);
        markAt = this.markIndex(j + 1);
      }
      if (j === told) {
        this.exposed = exposed;
        told += every;
        onProgress!(j + 1, series.length);
      }
      i = j + 1;
    }
    this.exposed = exposed;
  }

  /**
   * The first candle from `k` on after which after() marks or crosses: the last candle, or one whose
   * successor is at or past nextAt. The candles are oldest first (BacktestInput.series): the one
   * before the first candle at or past nextAt, found by the interval's guess, else by bisection.
   */
  private markIndex(k: number): number {
    const { series, intervalSeconds } = this.input;
    const { time } = series;
    const last = series.length - 1;
    const { nextAt } = this;
    if (k >= last || time[k + 1]! >= nextAt) return k;
    // time[low] < nextAt: the answer is the last such candle from `low` on.
    const low = k + 1;
    const guess = Math.min(last, low + Math.floor((nextAt - time[low]!) / intervalSeconds));
    if (guess >= low && time[guess]! < nextAt && (guess === last || time[guess + 1]! >= nextAt)) return guess;
    if (time[last]! < nextAt) return last;
    let below = low;
    let above = last;
    while (above - below > 1) {
      const middle = (below + above) >> 1;
      if (time[middle]! < nextAt) below = middle;
      else above = middle;
    }
    return below;
  }

  /** Candle `i + 1` is at or past nextAt: a point at `i` when it starts a new period. */
  private cross(i: number): void {
    const next = Math.floor(this.input.series.time[i + 1]! / this.step);
    if (next !== this.bucket) {
      this.mark(i);
      this.enter(next);
    }
  }

  /** The equity points at candle `i`, the last of its period (the caller enters the next period). */
  private mark(i: number): void {
    const { series, quoteDecimals, baseDecimals, intervalSeconds } = this.input;
    const { runtime, mid } = this;
    const time = Math.max((this.bucket + 1) * this.step, series.time[i]! + intervalSeconds);
    const close = series.close[i]!;
    if (decimalOfNumber(close, mid)) {
      // The close's decimal as an integer below 2^53 and its scale: both curves on doubles.
      const heldScale = baseDecimals + mid[1]!;
      if (runtime.lots.length > 0) {
        this.curve.pushHeld(time, runtime.cash, quoteDecimals, runtime.heldBase(), mid[0]!, heldScale);
      } else this.curve.pushCash(time, runtime.cash, quoteDecimals);
      this.benchmark.markAt(time, mid[0]!, heldScale);
    } else {
      const exact = exactOfNumber(close);
      if (runtime.lots.length > 0) this.curve.push(time, runtime.equityOf(exact));
      else this.curve.pushCash(time, runtime.cash, quoteDecimals);
      this.benchmark.mark(time, exact);
    }
  }

  /**
   * The result of the finished run: the metrics computed once, from the curve's doubles and the
   * fills' PnL; the fills and both equity curves are made into objects when first read.
   */
  result(): BacktestResult {
    const { input, runtime, initial, curve, step, exposed, fills } = this;
    const { series } = input;
    const finalBalance = curve.length > 0 ? curve.decimalAt(curve.length - 1) : initial;
    const benchmarkCurve = this.benchmark.curve;
    const benchmarkFinal =
      benchmarkCurve.length > 0 ? benchmarkCurve.decimalAt(benchmarkCurve.length - 1) : initial;
    const benchmark = lazily(
      {
        finalBalance: benchmarkFinal,
        totalReturn: initial.isZero() ? new Dec(0) : benchmarkFinal.minus(initial).div(initial).times(100),
        maxDrawdown: maxDrawdownOf(benchmarkCurve),
        baseAmount: this.benchmark.baseAmount,
        cashLeft: this.benchmark.cashLeft,
      },
      { equityCurve: () => benchmarkCurve.points },
      { equityLog: benchmarkCurve },
    );
    return lazily(
      {
        ...performanceOf({
          initial,
          final: finalBalance,
          curve,
          fills,
          quoteDecimals: input.quoteDecimals,
          periodSeconds: step,
          exposure: series.length === 0 ? new Dec(0) : new Dec(exposed).div(series.length).times(100),
          fees: toDec(runtime.fees),
        }),
        slippagePaid: toDec(runtime.slippage),
        benchmark,
        candles: series.length,
        finalCash: runtime.cash,
        openLots: runtime.lots.length,
        refusedBuys: runtime.refusedBuys,
        unfundedBuys: runtime.unfundedBuys,
        firstUnfunded: runtime.firstUnfunded,
      },
      { equityCurve: () => curve.points, fills: () => fills.toArray() },
      { equityLog: curve, fillLog: fills },
    );
  }
}

/** The points of a curve marked every `step` seconds over `series`, at most: one a period, and the start. */
function pointsOf(series: BacktestInput['series'], step: number): number {
  const n = series.length;
  if (n === 0) return 1;
  const periods = Math.floor(series.time[n - 1]! / step) - Math.floor(series.time[0]! / step) + 1;
  return Math.min(n, periods) + 1;
}

/**
 * `target` with each of `made`'s properties made on its first read (an enumerable getter that
 * replaces itself with the value it made: spread, JSON and equality see a plain property), and
 * `hidden`'s as properties that are not enumerable. The getters are one function per key for every
 * object, found by key in a hidden map of the target: a getter made anew for each object would give
 * each result a map (a shape) of its own, and the code reading results would deoptimise on each.
 */
function lazily<T extends object, M extends Record<string, unknown>, H extends Record<string, unknown>>(
  target: T,
  made: { readonly [K in keyof M]: () => M[K] },
  hidden: H,
): T & M & H {
  for (const [key, value] of Object.entries(hidden)) {
    Object.defineProperty(target, key, { value, enumerable: false, writable: false, configurable: false });
  }
  Object.defineProperty(target, MAKERS, {
    value: made,
    enumerable: false,
    writable: false,
    configurable: false,
  });
  for (const key of Object.keys(made)) {
    Object.defineProperty(target, key, { enumerable: true, configurable: true, get: lazyGetter(key) });
  }
  return target as T & M & H;
}

/** Where lazily() keeps an object's makers. */
const MAKERS = Symbol('makers');
const lazyGetters = new Map<string, () => unknown>();

/** The getter of lazily()'s property `key`, one for all objects. */
function lazyGetter(key: string): () => unknown {
  let getter = lazyGetters.get(key);
  if (getter === undefined) {
    getter = function (this: { [MAKERS]: Record<string, () => unknown> }) {
      const value = this[MAKERS][key]!();
      Object.defineProperty(this, key, { value, enumerable: true, writable: false, configurable: false });
      return value;
    };
    lazyGetters.set(key, getter);
  }
  return getter;
}

/**
 * The buy-and-hold benchmark: the whole initial cash buys at the first candle's open (the largest
 * amount whose fill fits), marked at each equity point's close.
 */
class BuyAndHold {
  readonly curve: EquityCurve;
  readonly baseAmount: bigint;
  readonly cashLeft: bigint;
  /** cashLeft and baseAmount × mid brought to one scale for the mid scale last seen. */
  private midScale = -1;
  private cashAtScale = 0n;

  constructor(
    private readonly input: BacktestInput,
    points: number,
  ) {
    this.curve = new EquityCurve(points);
    const { series } = input;
    const held =
      series.length > 0
        ? buyWithin(input.venue, input.initialCash, exactOfNumber(series.open[0]!), input)
        : null;
    this.baseAmount = held?.baseAmount ?? 0n;
    this.cashLeft = input.initialCash - (held?.fill.quoteAmount ?? 0n);
  }

  /** mark() at the mid of integer `mid` (a double) and scale `heldScale` − baseDecimals. */
  markAt(time: number, mid: number, heldScale: number): void {
    const { quoteDecimals } = this.input;
    if (this.baseAmount === 0n) this.curve.pushCash(time, this.cashLeft, quoteDecimals);
    else this.curve.pushHeld(time, this.cashLeft, quoteDecimals, this.baseAmount, mid, heldScale);
  }

  /** An equity point: the cash left plus the held base at `mid` (add(cash, mul(base, mid)) exactly). */
  mark(time: number, mid: Exact): void {
    const { baseDecimals, quoteDecimals } = this.input;
    if (this.baseAmount === 0n) {
      this.curve.pushCash(time, this.cashLeft, quoteDecimals);
      return;
    }
    const heldScale = baseDecimals + mid.scale;
    const scale = Math.max(quoteDecimals, heldScale);
    if (mid.scale !== this.midScale) {
      this.midScale = mid.scale;
      this.cashAtScale = this.cashLeft * 10n ** BigInt(scale - quoteDecimals);
    }
    const held = this.baseAmount * mid.n;
    const n = this.cashAtScale + (scale === heldScale ? held : held * 10n ** BigInt(scale - heldScale));
    this.curve.pushExact(time, n, scale);
  }
}
