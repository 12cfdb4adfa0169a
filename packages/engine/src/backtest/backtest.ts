import type { CandleSeries } from '../market/candle-series';
import { Dec, fromBaseUnits } from '../money/decimal';
import { add, exactOfNumber, exactUnits, mul, toDec, type Exact } from '../money/exact';
import type { BatchStrategyInstance, PositionView, RiskRules, StrategyInstance } from '../strategy/strategy';
import { buyWithin, StrategyRuntime, type RuntimeFill, type VenuePort } from '../strategy/runtime';
import { maxDrawdownOf, performanceOf, type Performance } from './metrics';

export interface BacktestInput {
  /** Per candle, or batched over `series` (user code in a sandbox). */
  readonly strategy: StrategyInstance | BatchStrategyInstance;
  readonly risk: RiskRules;
  /** Closed candles, oldest first, all of one interval. */
  readonly series: CandleSeries;
  /** Length of one candle, seconds. */
  readonly intervalSeconds: number;
  readonly venue: VenuePort;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** Quote base units the bot starts with. */
  readonly initialCash: bigint;
  /** Seconds between equity points (default: hourly, the spec's curve; never finer than a candle). */
  readonly equityStepSeconds?: number;
  /** Told every `progressEvery` candles (default 65,536); may throw to end the run (a time limit). */
  readonly onProgress?: (done: number, total: number) => void;
  readonly progressEvery?: number;
}

export interface EquityPoint {
  /** Unix seconds at the end of the period. */
  readonly time: number;
  /** Cash plus open lots at the period's last close, whole quote tokens. */
  readonly equity: Dec;
}

/**
 * Buy and hold over the same candles: the whole initial cash buys at the first candle's open through
 * the same venue (fees and slippage included, the largest amount that fits), held to the end and
 * marked at the same points as the strategy's equity.
 */
export interface Benchmark {
  readonly finalBalance: Dec;
  /** Percent. */
  readonly totalReturn: Dec;
  /** Percent (≥ 0). */
  readonly maxDrawdown: Dec;
  readonly equityCurve: readonly EquityPoint[];
  /** Base units bought, and the quote units left over (the first buy's rounding). */
  readonly baseAmount: bigint;
  readonly cashLeft: bigint;
}

export interface BacktestResult extends Performance {
  /** Slippage paid (spread, impact, rounding to base units), whole quote tokens. */
  readonly slippagePaid: Dec;
  readonly benchmark: Benchmark;
  readonly candles: number;
  readonly equityCurve: readonly EquityPoint[];
  readonly fills: readonly RuntimeFill[];
  /** Cash at the end, quote base units (the open lots are in `finalBalance` at the last close). */
  readonly finalCash: bigint;
  readonly openLots: number;
  readonly refusedBuys: number;
  /** Buys refused because they cost more than the cash (the rest of refusedBuys: max positions). */
  readonly unfundedBuys: number;
  /** The first of those: its cost and the cash then, quote base units. */
  readonly firstUnfunded: { readonly cost: bigint; readonly cash: bigint } | null;
}

const HOUR = 3600;
/** Candles a batched strategy is fed per call: from MIN_RUN after an intent, doubling to MAX_RUN. */
const MIN_RUN = 64;
const MAX_RUN = 65_536;

/** A batched strategy's run of candles to answer (see BatchStrategyInstance.onCandles). */
export interface BatchRequest {
  readonly from: number;
  readonly to: number;
  readonly position: PositionView;
}

/** A batched strategy answering over a channel (user code in another process): one request at a time. */
export interface AsyncBatchStrategyInstance {
  readonly batched: true;
  onCandles(
    from: number,
    to: number,
    position: PositionView,
  ): Promise<{ index: number; intent: unknown } | null>;
}

/**
 * Runs a strategy over a candle series: every candle through the one runtime live bots use, fills
 * priced by the venue port, equity marked at each period's last close. Deterministic: the same input
 * gives the same result.
 */
export function runBacktest(input: BacktestInput): BacktestResult {
  const batched = 'batched' in input.strategy ? input.strategy : null;
  const steps = backtestSteps(input);
  let step = steps.next(null);
  while (!step.done) {
    const { from, to, position } = step.value;
    step = steps.next(batched!.onCandles(from, to, position));
  }
  return step.value;
}

/**
 * runBacktest for a strategy that answers asynchronously: the candles and every fill are computed
 * here, the strategy only says which candle of each run it acts on and how. The event loop turns
 * between runs.
 */
export async function runBacktestAsync(
  input: Omit<BacktestInput, 'strategy'> & { readonly strategy: AsyncBatchStrategyInstance },
): Promise<BacktestResult> {
  const { strategy } = input;
  const steps = backtestSteps({ ...input, strategy: PLACEHOLDER_BATCH });
  let step = steps.next(null);
  while (!step.done) {
    const { from, to, position } = step.value;
    step = steps.next(await strategy.onCandles(from, to, position));
  }
  return step.value;
}

/** Stands in for an async strategy inside backtestSteps, which only reads that it is batched. */
const PLACEHOLDER_BATCH: BatchStrategyInstance = {
  batched: true,
  onCandles() {
    throw new TypeError('a batched strategy is fed through backtestSteps');
  },
};

/** The backtest loop; a batched strategy's runs are yielded to the driver and answered through next(). */
function* backtestSteps(
  input: BacktestInput,
): Generator<BatchRequest, BacktestResult, { index: number; intent: unknown } | null> {
  const { series, intervalSeconds } = input;
  if (!(intervalSeconds > 0)) throw new RangeError(`intervalSeconds must be > 0, got ${intervalSeconds}`);
  const step = Math.max(input.equityStepSeconds ?? HOUR, intervalSeconds);
  const runtime = new StrategyRuntime({
    strategy: input.strategy,
    risk: input.risk,
    venue: input.venue,
    baseDecimals: input.baseDecimals,
    quoteDecimals: input.quoteDecimals,
    initialCash: input.initialCash,
  });
  const initial = fromBaseUnits(input.initialCash, input.quoteDecimals);
  const curve: EquityPoint[] = [];
  const benchmarkCurve: EquityPoint[] = [];
  if (series.length > 0) {
    curve.push({ time: series.time[0]!, equity: initial });
    benchmarkCurve.push({ time: series.time[0]!, equity: initial });
  }
  const held =
    series.length > 0
      ? buyWithin(input.venue, input.initialCash, exactOfNumber(series.open[0]!), input)
      : null;
  const heldBase = held ? exactUnits(held.baseAmount, input.baseDecimals) : null;
  const heldCash = exactUnits(input.initialCash - (held?.fill.quoteAmount ?? 0n), input.quoteDecimals);
  const holding = (mid: number): Exact =>
    heldBase ? add(heldCash, mul(heldBase, exactOfNumber(mid))) : heldCash;
  const every = input.progressEvery ?? 65_536;
  const { time, open, high, low, close, volume } = series;
  let exposed = 0;
  const batched = 'batched' in input.strategy ? input.strategy : null;
  // Batched strategies: candles before `fed` have been given to the strategy; `hit` is its pending intent.
  let fed = 0;
  let hit: { index: number; intent: unknown } | null = null;
  let run = MIN_RUN;
  for (let i = 0; i < series.length; i += 1) {
    const t = time[i]!;
    if (batched) {
      if (runtime.lots.length > 0) runtime.closeAtRisk(t, open[i]!, high[i]!, low[i]!);
      if (i >= fed) {
        const limit = runtime.nextRiskIndex(series, i + 1, Math.min(series.length, i + run));
        hit = yield { from: i, to: limit, position: runtime.positionView };
        fed = hit ? hit.index + 1 : limit;
        run = hit ? MIN_RUN : Math.min(run * 2, MAX_RUN);
      }
      if (hit && hit.index === i) {
        runtime.act(hit.intent, t, close[i]!);
        hit = null;
      }
    } else {
      runtime.onCandle(t, open[i]!, high[i]!, low[i]!, close[i]!, volume[i]!);
    }
    if (runtime.lots.length > 0) exposed += 1;
    const bucket = Math.floor(t / step);
    const isLast = i + 1 === series.length || Math.floor(time[i + 1]! / step) !== bucket;
    if (isLast) {
      curve.push({
        time: Math.max((bucket + 1) * step, t + intervalSeconds),
        equity: toDec(runtime.equityAt(close[i]!)),
      });
      benchmarkCurve.push({ time: curve[curve.length - 1]!.time, equity: toDec(holding(close[i]!)) });
    }
    if (input.onProgress && (i + 1) % every === 0) input.onProgress(i + 1, series.length);
  }
  const finalBalance = curve.length > 0 ? curve[curve.length - 1]!.equity : initial;
  const benchmarkFinal =
    benchmarkCurve.length > 0 ? benchmarkCurve[benchmarkCurve.length - 1]!.equity : initial;
  return {
    ...performanceOf({
      initial,
      final: finalBalance,
      curve,
      fills: runtime.fills,
      quoteDecimals: input.quoteDecimals,
      periodSeconds: step,
      exposure: series.length === 0 ? new Dec(0) : new Dec(exposed).div(series.length).times(100),
      fees: toDec(runtime.fees),
    }),
    slippagePaid: toDec(runtime.slippage),
    benchmark: {
      finalBalance: benchmarkFinal,
      totalReturn: initial.isZero() ? new Dec(0) : benchmarkFinal.minus(initial).div(initial).times(100),
      maxDrawdown: maxDrawdownOf(benchmarkCurve),
      equityCurve: benchmarkCurve,
      baseAmount: held?.baseAmount ?? 0n,
      cashLeft: input.initialCash - (held?.fill.quoteAmount ?? 0n),
    },
    candles: series.length,
    equityCurve: curve,
    fills: runtime.fills,
    finalCash: runtime.cash,
    openLots: runtime.lots.length,
    refusedBuys: runtime.refusedBuys,
    unfundedBuys: runtime.unfundedBuys,
    firstUnfunded: runtime.firstUnfunded,
  };
}
