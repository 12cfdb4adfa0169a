import type { TBacktestResult, TOptimizeMetrics, TOptimizeTrial } from '@solterm/contracts';
import { Dec, type BacktestResult } from '@solterm/engine';
import { AppError } from '../../../lib/app-error';
import { toWireNumber } from '../../../lib/wire-decimal';
import type { BacktestJob } from '../backtest/backtest-job';

/**
 * What makes a backtest job a trial of an optimisation: its candles are cut into `folds` consecutive
 * segments, each trained on its first `trainFraction` and tested on the rest. `cacheKey` names the
 * optimisation: the worker thread keeps its divided candles for the next trial.
 */
export interface TrialSpec {
  readonly folds: number;
  readonly trainFraction: number;
  readonly cacheKey: string;
}

/** A trial's answer (the pool's JSON text): each fold's windows and figures. */
export type TrialResult = Pick<TOptimizeTrial, 'folds'>;

/** Candles a window must hold at least (a test window of one candle says nothing). */
export const MIN_WINDOW_CANDLES = 2;

/**
 * The folds' windows as candle index ranges [start, end): `count` candles in `folds` consecutive
 * segments (the last takes the remainder); in each, the train window comes first and the test window
 * after it, so no fold trains on a candle it tests on, nor on any later one.
 */
export function foldWindows(
  count: number,
  folds: number,
  trainFraction: number,
): Array<{ train: [number, number]; test: [number, number] }> {
  const size = Math.floor(count / folds);
  const windows: Array<{ train: [number, number]; test: [number, number] }> = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const start = fold * size;
    const end = fold === folds - 1 ? count : start + size;
    const split = start + Math.round((end - start) * trainFraction);
    if (split - start < MIN_WINDOW_CANDLES || end - split < MIN_WINDOW_CANDLES) {
      throw new AppError(
        'OPTIMIZE__INVALID_RANGES',
        `${count} candles are too few for ${folds} folds: each fold's train and test windows need ${MIN_WINDOW_CANDLES} candles at least. Lengthen the range or use fewer folds.`,
      );
    }
    windows.push({ train: [start, split], test: [split, end] });
  }
  return windows;
}

/** A window's figures from a backtest result on the wire (the Python sandbox's answer). */
export function metricsOfWire(result: Pick<TBacktestResult, keyof TOptimizeMetrics>): TOptimizeMetrics {
  return {
    total_return: result.total_return,
    sharpe_ratio: result.sharpe_ratio,
    sortino_ratio: result.sortino_ratio,
    calmar_ratio: result.calmar_ratio,
    profit_factor: result.profit_factor,
    max_drawdown: result.max_drawdown,
    win_rate: result.win_rate,
    total_trades: result.total_trades,
    candles: result.candles,
  };
}

/** A window's figures from the engine's result, rounded as the backtest result's (backtest-wire.ts). */
export function metricsOfResult(result: BacktestResult): TOptimizeMetrics {
  const ratio = (value: Dec) => toWireNumber(value.toDecimalPlaces(6, Dec.ROUND_HALF_UP));
  return {
    total_return: ratio(result.totalReturn),
    sharpe_ratio: ratio(result.sharpeRatio),
    sortino_ratio: ratio(result.sortinoRatio),
    calmar_ratio: ratio(result.calmarRatio),
    profit_factor: result.profitFactor === null ? null : ratio(result.profitFactor),
    max_drawdown: ratio(result.maxDrawdown),
    win_rate: ratio(result.winRate),
    total_trades: result.totalTrades,
    candles: result.candles,
  };
}

/**
 * Backtests a trial's folds, each window as a backtest job of its own candles only (`runWindow`: the
 * backtest functions of the thread, or the Python sandbox): the in-sample run never holds a candle
 * of its test window, and the test run none of what follows it.
 */
export async function computeTrial(
  job: BacktestJob,
  trial: TrialSpec,
  runWindow: (window: BacktestJob) => Promise<TOptimizeMetrics>,
): Promise<TrialResult> {
  const { candles } = job;
  const step = job.intervalSeconds;
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  const folds: TrialResult['folds'] = [];
  for (const { train, test } of foldWindows(candles.length, trial.folds, trial.trainFraction)) {
    const windowOf = ([start, end]: [number, number]): BacktestJob => {
      const { exportId: _export, trial: _trial, ...rest } = job;
      return {
        ...rest,
        candles: candles.slice(start, end),
        requestedFrom: candles[start]!.time,
        requestedTo: candles[end - 1]!.time,
      };
    };
    const describe = ([start, end]: [number, number]) => ({
      start: iso(candles[start]!.time),
      end: iso(candles[end - 1]!.time + step),
      candles: end - start,
    });
    const inSample = await runWindow(windowOf(train));
    const outOfSample = await runWindow(windowOf(test));
    folds.push({
      train: describe(train),
      test: describe(test),
      in_sample: inSample,
      out_of_sample: outOfSample,
    });
  }
  return { folds };
}
