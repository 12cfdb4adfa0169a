import { parentPort } from 'node:worker_threads';
import {
  getBuiltInStrategy,
  resolveParameters,
  seededRandom,
  StrategyError,
  type CandleSeries,
} from '@solterm/engine';
import { computeBacktest, type BacktestJob, type JobStrategy } from './backtest-job';
import { createJsStrategy, DEFAULT_SANDBOX_LIMITS } from './sandbox/js-strategy';

/** Built-in strategies and user JavaScript (QuickJS) run in this thread; Python has its own process. */
async function threadStrategy(job: BacktestJob, series: CandleSeries): Promise<JobStrategy> {
  const spec = job.strategy;
  if (spec.kind === 'builtin') {
    const builtIn = getBuiltInStrategy(spec.type);
    if (!builtIn) throw new RangeError(`unknown strategy ${spec.type}`);
    const parameters = resolveParameters(builtIn, spec.parameters);
    return { strategy: builtIn.create(parameters, seededRandom(job.seed)), dispose: () => {} };
  }
  if (spec.kind !== 'javascript') throw new RangeError(`${spec.kind} strategies do not run in this thread`);
  const sandboxed = await createJsStrategy({
    code: spec.code,
    series,
    parameters: spec.parameters,
    seed: job.seed,
    limits: { ...DEFAULT_SANDBOX_LIMITS, cpuMs: job.cpuMs },
  });
  return { strategy: sandboxed, dispose: () => sandboxed.dispose() };
}

// The backtest worker thread: computes one job at a time, reports { id, progress } as it goes and
// answers { id, result } or { id, error: { strategy, message } }. A job that runs past its limit is
// ended by the pool terminating this thread, so nothing here needs to watch the clock.
parentPort!.on('message', (message: { id: number; job: BacktestJob }) => {
  const progress = (done: number, total: number) =>
    parentPort!.postMessage({ id: message.id, progress: { done, total } });
  computeBacktest(message.job, (series) => threadStrategy(message.job, series), progress).then(
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
