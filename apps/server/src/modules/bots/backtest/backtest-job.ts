import type { TBacktestCosts, TBacktestResult, TBotConfig } from '@solterm/contracts';
import {
  candleSeriesOf,
  runBacktest,
  runBacktestAsync,
  type AsyncBatchStrategyInstance,
  type BacktestInput,
  type BacktestResult,
  type BatchStrategyInstance,
  type CandleSeries,
  type SizingMode,
  type StrategyInstance,
  type StrategyParameters,
  type WireCandle,
} from '@solterm/engine';
import type { RawCandle } from '../../market/market.service';
import type { TrialSpec } from '../optimize/optimize-trial';
import { backtestRules } from './backtest-rules';
import { resultToWire } from './backtest-wire';

/** A backtest as plain data: what the worker thread needs to compute it (structured-cloneable). */
export interface BacktestJob {
  readonly strategy:
    | { readonly kind: 'builtin'; readonly type: string; readonly parameters: StrategyParameters }
    | {
        readonly kind: 'javascript' | 'python';
        readonly code: string;
        readonly parameters: StrategyParameters;
      };
  readonly risk: {
    readonly amount: string;
    readonly maxPositions: number;
    readonly stopLossPercent: string | null;
    readonly takeProfitPercent: string | null;
    /** How buys are sized (null or absent: fixed_base of `amount`). */
    readonly sizing?: { readonly mode: SizingMode; readonly value: string } | null;
  };
  /** How fills are priced (absent: the venue's RFQ pricing). */
  readonly costs?: TBacktestCosts;
  readonly candles: readonly WireCandle[];
  readonly intervalSeconds: number;
  readonly interval: TBotConfig['interval'];
  readonly symbol: string;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  readonly quoteUsdPrice: string;
  /** Quote base units, as a decimal integer string. */
  readonly initialCash: string;
  readonly seed: number;
  /** Time the strategy may compute, ms. */
  readonly cpuMs: number;
  /** The range asked for, unix seconds (default: the candles'): a range cut to the data is said. */
  readonly requestedFrom?: number;
  readonly requestedTo?: number;
  /** Where every fill is kept for export (backtest-exports.ts); none: no export. */
  readonly exportId?: string;
  /** A trial of an optimisation: its folds are backtested instead (optimize/optimize-trial.ts). */
  readonly trial?: TrialSpec;
}

/**
 * A backtest as the pool queues it: the job with its pair's candles still as the two USD legs,
 * packed (packCandles) so that they move to the worker thread as two transferred buffers rather
 * than ~17,500 cloned objects. The worker thread divides them (market/pair-candles.ts): ~35,000
 * decimal divisions for a year of hours would otherwise stall the event loop ~0.4 s a backtest.
 */
export type BacktestSpec = Omit<BacktestJob, 'candles'> & {
  readonly legs: { readonly base: Float64Array<ArrayBuffer>; readonly quote: Float64Array<ArrayBuffer> };
};

const PACKED_FIELDS = 6;

/** Candles as one Float64Array: time, open, high, low, close, volumeCents of each in turn. */
export function packCandles(candles: readonly RawCandle[]): Float64Array<ArrayBuffer> {
  const packed = new Float64Array(candles.length * PACKED_FIELDS);
  let at = 0;
  for (const candle of candles) {
    packed[at++] = candle.time;
    packed[at++] = candle.open;
    packed[at++] = candle.high;
    packed[at++] = candle.low;
    packed[at++] = candle.close;
    packed[at++] = candle.volumeCents;
  }
  return packed;
}

/** The candles packCandles packed. */
export function unpackCandles(packed: Float64Array): RawCandle[] {
  const candles: RawCandle[] = [];
  for (let at = 0; at + PACKED_FIELDS <= packed.length; at += PACKED_FIELDS) {
    candles.push({
      time: packed[at]!,
      open: packed[at + 1]!,
      high: packed[at + 2]!,
      low: packed[at + 3]!,
      close: packed[at + 4]!,
      volumeCents: packed[at + 5]!,
    });
  }
  return candles;
}

/**
 * A backtest's answer as the JSON text of its TBacktestResult, made (and checked against the API's
 * schema) where it was computed: the API sends it as it is, without parsing or serialising it.
 */
export type BacktestResultJson = string;

/** Candles between two progress reports at least. */
const PROGRESS_MIN_CANDLES = 4096;

/** A strategy made for one job, and what to release when the job is done. */
export interface JobStrategy {
  readonly strategy: StrategyInstance | BatchStrategyInstance;
  dispose(): void;
}

/**
 * Computes a backtest job with the strategy `createStrategy` makes over the job's candles (built-in
 * and JavaScript ones, in the worker thread).
 */
export async function computeBacktest(
  job: BacktestJob,
  createStrategy: (series: CandleSeries) => Promise<JobStrategy>,
  onProgress?: (done: number, total: number) => void,
  onFills?: (fills: BacktestResult['fillLog']) => void,
): Promise<TBacktestResult> {
  const series = candleSeriesOf(job.candles);
  const { strategy, dispose } = await createStrategy(series);
  try {
    const result = runBacktest({ ...backtestInput(job, series, onProgress), strategy });
    onFills?.(result.fillLog);
    return resultOf(job, result);
  } finally {
    dispose();
  }
}

/**
 * A backtest job's engine result, without its wire form (no equity curve or trade list to convert):
 * the optimiser's windows, which keep only the figures (optimize/optimize-trial.ts).
 */
export async function computeBacktestFigures(
  job: BacktestJob,
  createStrategy: (series: CandleSeries) => Promise<JobStrategy>,
): Promise<BacktestResult> {
  const series = candleSeriesOf(job.candles);
  const { strategy, dispose } = await createStrategy(series);
  try {
    return runBacktest({ ...backtestInput(job, series, undefined), strategy });
  } finally {
    dispose();
  }
}

/**
 * Computes a backtest job here, every fill and figure, with a strategy that only answers which candle
 * of each run it acts on (user Python in its sandbox process: nothing it says is a result).
 */
export async function computeBacktestAsync(
  job: BacktestJob,
  series: CandleSeries,
  strategy: AsyncBatchStrategyInstance,
  onProgress?: (done: number, total: number) => void,
  onFills?: (fills: BacktestResult['fillLog']) => void,
): Promise<TBacktestResult> {
  const result = await runBacktestAsync({ ...backtestInput(job, series, onProgress), strategy });
  onFills?.(result.fillLog);
  return resultOf(job, result);
}

function backtestInput(
  job: BacktestJob,
  series: CandleSeries,
  onProgress: ((done: number, total: number) => void) | undefined,
): Omit<BacktestInput, 'strategy'> {
  return {
    ...backtestRules(job),
    series,
    intervalSeconds: job.intervalSeconds,
    // About twenty progress reports a run, none for short ones.
    progressEvery: Math.max(PROGRESS_MIN_CANDLES, Math.ceil(job.candles.length / 20)),
    ...(onProgress ? { onProgress } : {}),
  };
}

const VENUE_COSTS: TBacktestCosts = { model: 'venue', fee_bps: null, slippage_bps: null };

function resultOf(job: BacktestJob, result: BacktestResult): TBacktestResult {
  const step = job.intervalSeconds;
  const first = job.candles[0]!.time;
  const last = job.candles[job.candles.length - 1]!.time;
  return resultToWire(result, {
    symbol: job.symbol,
    interval: job.interval,
    from: first,
    to: last + step,
    baseDecimals: job.baseDecimals,
    quoteDecimals: job.quoteDecimals,
    requestedFrom: job.requestedFrom ?? first,
    requestedTo: job.requestedTo ?? last,
    intervalSeconds: step,
    maxPositions: job.risk.maxPositions,
    exportId: job.exportId ?? null,
    costs: job.costs ?? VENUE_COSTS,
    sizing: job.risk.sizing
      ? { mode: job.risk.sizing.mode, value: Number(job.risk.sizing.value) }
      : { mode: 'fixed_base', value: Number(job.risk.amount) },
  });
}
