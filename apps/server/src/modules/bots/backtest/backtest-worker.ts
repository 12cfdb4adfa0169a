import { parentPort } from 'node:worker_threads';
import {
  getBuiltInStrategy,
  resolveParameters,
  seededRandom,
  StrategyError,
  type CandleSeries,
} from '@solterm/engine';
import { ZBacktestResultSchema, type ErrorCode, type TBacktestResult } from '@solterm/contracts';
import { AppError, isAppError } from '../../../lib/app-error';
import { divideCandles } from '../../market/pair-candles';
import {
  computeBacktest,
  computeBacktestFigures,
  unpackCandles,
  type BacktestJob,
  type BacktestSpec,
  type JobStrategy,
} from './backtest-job';
import { fillsCsvParts } from './backtest-wire';
import { createJsStrategy, DEFAULT_SANDBOX_LIMITS } from '../sandbox/js-strategy';
import { computeTrial, metricsOfResult } from '../optimize/optimize-trial';

type Fills = Parameters<typeof fillsCsvParts>[0];

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

/** A job's error, as the pool rebuilds it: an AppError when `code` is set. */
interface JobError {
  strategy: boolean;
  code?: ErrorCode;
  message: string;
}

/** An optimisation's divided candles, kept for its next trial (the same legs: its range is fixed). */
let kept: { key: string; candles: BacktestJob['candles'] } | undefined;

/** The spec's job with its pair candles: the base's USD candles over the quote's (market/pair-candles.ts). */
function jobOf(spec: BacktestSpec): BacktestJob {
  const { legs, ...job } = spec;
  const key = spec.trial?.cacheKey;
  const candles =
    key !== undefined && kept?.key === key
      ? kept.candles
      : divideCandles(unpackCandles(legs.base), unpackCandles(legs.quote));
  kept = key === undefined ? undefined : { key, candles };
  if (candles.length === 0)
    throw new AppError('BACKTEST__NO_DATA', `No candles of ${spec.symbol} in that range`);
  return { ...job, candles };
}

function errorOf(error: unknown): JobError {
  if (isAppError(error)) return { strategy: false, code: error.code, message: error.message };
  return {
    strategy: error instanceof StrategyError || error instanceof RangeError,
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * The answer as UTF-8 JSON bytes, checked against the API's result schema here: the event loop
 * receives one transferred buffer and sends it as it is, instead of cloning ~20,000 objects, checking
 * and serialising them (~600 KB for a year of hours) while every other request waits.
 */
function answerBytes(result: TBacktestResult): ArrayBuffer {
  return new TextEncoder().encode(JSON.stringify(ZBacktestResultSchema.parse(result))).buffer as ArrayBuffer;
}

// The backtest worker thread: computes one job at a time, reports { id, started } once its candles
// are divided and { id, progress } as it goes, and answers { id, json, parts } (the result's JSON
// bytes, transferred, and for a job with an exportId every fill as CSV parts) or { id, error }. `candlesOnly` asks
// for the job with its divided candles instead ({ id, job }: a Python job, which runs in its own
// process). A job that runs past its limit is ended by the pool terminating this thread, so nothing
// here needs to watch the clock.
parentPort!.on('message', (message: { id: number; spec: BacktestSpec; candlesOnly?: boolean }) => {
  const { id } = message;
  const progress = (done: number, total: number) =>
    parentPort!.postMessage({ id, progress: { done, total } });
  void (async () => {
    const job = jobOf(message.spec);
    if (message.candlesOnly) return parentPort!.postMessage({ id, job });
    parentPort!.postMessage({ id, started: true });
    if (job.trial) {
      // A trial of an optimisation: each fold's windows backtested by the same functions as a backtest.
      const trial = await computeTrial(job, job.trial, async (window) =>
        metricsOfResult(await computeBacktestFigures(window, (series) => threadStrategy(window, series))),
      );
      const bytes = new TextEncoder().encode(JSON.stringify(trial)).buffer as ArrayBuffer;
      return parentPort!.postMessage({ id, json: bytes }, [bytes]);
    }
    let parts: string[] | undefined;
    const keep = job.exportId ? (fills: Fills) => (parts = fillsCsvParts(fills, job)) : undefined;
    const json = answerBytes(
      await computeBacktest(job, (series) => threadStrategy(job, series), progress, keep),
    );
    parentPort!.postMessage({ id, json, parts }, [json]);
  })().catch((error: unknown) => parentPort!.postMessage({ id, error: errorOf(error) }));
});
