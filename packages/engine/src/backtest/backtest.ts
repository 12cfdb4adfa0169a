import type { CandleSeries } from '../market/candle-series';
import type { Dec } from '../money/decimal';
import type {
  BatchStrategyInstance,
  PositionView,
  RiskRules,
  SignalStrategyInstance,
  StrategyInstance,
} from '../strategy/strategy';
import type { RuntimeFill, VenuePort } from '../strategy/runtime';
import { BacktestRun } from './backtest-run';
import type { EquityPoint } from './equity-curve';
import type { Performance } from './metrics';

export type { EquityPoint } from './equity-curve';

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
  /** The same points as kept (see BacktestResult.equityLog). */
  readonly equityLog: EquityLog;
  /** Base units bought, and the quote units left over (the first buy's rounding). */
  readonly baseAmount: bigint;
  readonly cashLeft: bigint;
}

export interface BacktestResult extends Performance {
  /** Slippage paid (spread, impact, rounding to base units), whole quote tokens. */
  readonly slippagePaid: Dec;
  readonly benchmark: Benchmark;
  readonly candles: number;
  /** Made on the first read (from equityLog). */
  readonly equityCurve: readonly EquityPoint[];
  /** Made on the first read (from fillLog). */
  readonly fills: readonly RuntimeFill[];
  /**
   * The equity curve and the fills as the run kept them, each point's decimal and each fill object
   * made when read and kept by no one: what reads them once (the API's answer and export) reads
   * these. Not enumerable: the result's spread, JSON and equality see `equityCurve` and `fills`.
   */
  readonly equityLog: EquityLog;
  readonly fillLog: FillLog;
  /** Cash at the end, quote base units (the open lots are in `finalBalance` at the last close). */
  readonly finalCash: bigint;
  readonly openLots: number;
  readonly refusedBuys: number;
  /** Buys refused because they cost more than the cash (the rest of refusedBuys: max positions). */
  readonly unfundedBuys: number;
  /** The first of those: its cost and the cash then, quote base units. */
  readonly firstUnfunded: { readonly cost: bigint; readonly cash: bigint } | null;
}

/** An equity curve as a backtest keeps it: each point's time, and its decimal made when read. */
export interface EquityLog {
  readonly length: number;
  timeAt(i: number): number;
  decimalAt(i: number): Dec;
}

/** A backtest's fills as it keeps them: each made into a fill object when read. */
export interface FillLog {
  readonly length: number;
  at(i: number): RuntimeFill;
}

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
  const { strategy } = input;
  if (!('batched' in strategy)) return runPerCandle(input);
  const steps = batchedSteps(input);
  let step = steps.next(null);
  while (!step.done) {
    const { from, to, position } = step.value;
    step = steps.next(strategy.onCandles(from, to, position));
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
  const steps = batchedSteps({ ...input, strategy: PLACEHOLDER_BATCH });
  let step = steps.next(null);
  while (!step.done) {
    const { from, to, position } = step.value;
    step = steps.next(await strategy.onCandles(from, to, position));
  }
  return step.value;
}

/** Stands in for an async strategy inside batchedSteps, which only reads that it is batched. */
const PLACEHOLDER_BATCH: BatchStrategyInstance = {
  batched: true,
  onCandles() {
    throw new TypeError('a batched strategy is fed through batchedSteps');
  },
};

/**
 * The loop of a per-candle strategy (the built-ins): a plain function, so the engine compiles its
 * loop (a generator's is not optimised mid-run, and would box every double it touches). A signal
 * strategy computes its signals a block of candles at a time, in one loop over the closes.
 */
function runPerCandle(input: BacktestInput): BacktestResult {
  const run = new BacktestRun(input);
  const { runtime } = run;
  const { series, strategy } = input;
  if (isSignalStrategy(strategy)) {
    const signals = new Uint8Array(Math.min(SIGNAL_BLOCK, series.length));
    for (let from = 0; from < series.length; from += SIGNAL_BLOCK) {
      const to = Math.min(series.length, from + SIGNAL_BLOCK);
      strategy.signals(series, from, to, signals);
      run.signalBlock(strategy, from, to, signals);
    }
    return run.result();
  }
  for (let i = 0; i < series.length; i += 1) {
    runtime.onSeriesCandle(series, i);
    run.after(i);
  }
  return run.result();
}

/** Candles whose signals are computed in one go. */
const SIGNAL_BLOCK = 4096;

function isSignalStrategy(
  strategy: StrategyInstance | BatchStrategyInstance,
): strategy is SignalStrategyInstance {
  return 'signals' in strategy && typeof strategy.signals === 'function';
}

/** The loop of a batched strategy: its runs are yielded to the driver and answered through next(). */
function* batchedSteps(
  input: BacktestInput,
): Generator<BatchRequest, BacktestResult, { index: number; intent: unknown } | null> {
  const run = new BacktestRun(input);
  const { runtime } = run;
  const { series } = input;
  const { time, open, high, low, close } = series;
  // Candles before `fed` have been given to the strategy; `hit` is its pending intent.
  let fed = 0;
  let hit: { index: number; intent: unknown } | null = null;
  let length = MIN_RUN;
  for (let i = 0; i < series.length; i += 1) {
    const t = time[i]!;
    if (runtime.lots.length > 0) runtime.closeAtRisk(t, open[i]!, high[i]!, low[i]!);
    if (i >= fed) {
      const limit = runtime.nextRiskIndex(series, i + 1, Math.min(series.length, i + length));
      hit = yield { from: i, to: limit, position: runtime.positionView };
      fed = hit ? hit.index + 1 : limit;
      length = hit ? MIN_RUN : Math.min(length * 2, MAX_RUN);
    }
    if (hit && hit.index === i) {
      runtime.act(hit.intent, t, close[i]!);
      hit = null;
    }
    run.after(i);
  }
  return run.result();
}
