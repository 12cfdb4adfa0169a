import { parentPort } from 'node:worker_threads';
import { StrategyError } from '@solterm/engine';
import { computeBacktest, type BacktestJob } from './backtest-job';

// The backtest worker thread: computes one job at a time, reports { id, progress } as it goes and
// answers { id, result } or { id, error: { strategy, message } }. A job that runs past its limit is
// ended by the pool terminating this thread, so nothing here needs to watch the clock.
parentPort!.on('message', (message: { id: number; job: BacktestJob }) => {
  const progress = (done: number, total: number) =>
    parentPort!.postMessage({ id: message.id, progress: { done, total } });
  computeBacktest(message.job, progress).then(
    (result) => parentPort!.postMessage({ id: message.id, result }),
    (error: unknown) =>
      parentPort!.postMessage({
        id: message.id,
        error: {
          strategy: error instanceof StrategyError || error instanceof RangeError,
          message: error instanceof Error ? error.message : String(error),
        },
      }),
  );
});
