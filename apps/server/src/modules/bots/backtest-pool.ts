import { Worker } from 'node:worker_threads';
import type { TBacktestResult } from '@solterm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { BacktestJob } from './backtest-job';
import type { PythonSandbox } from './sandbox/python-sandbox';

const WORKER_ENTRY = new URL('./backtest-worker-entry.mjs', import.meta.url);

/**
 * Past the time limit the thread is ended. User code's own sandbox deadline (the same limit, from
 * when its run starts) answers first with a clearer message; this covers everything else.
 */
const GRACE_MS = 5_000;

/** Jobs waiting for the worker at most; more are refused as busy. */
const MAX_QUEUED = 8;

interface WorkerMessage {
  id: number;
  progress?: { done: number; total: number };
  result?: TBacktestResult;
  error?: { strategy: boolean; message: string };
}

interface Pending {
  id: number;
  job: BacktestJob;
  resolve: (result: TBacktestResult) => void;
  reject: (error: unknown) => void;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Runs backtests in one worker thread, off the event loop: the API keeps answering while a year of
 * candles or user code computes. One job at a time (the machine has two cores: one for requests);
 * a job past its time limit ends with BACKTEST__TIME_LIMIT and its thread is replaced; the thread's
 * JavaScript heap is capped, and user code also has its sandbox's own limits. Python jobs queue the
 * same way but run in the Python sandbox's process (sandbox/python-sandbox.ts).
 */
export function createBacktestPool(options: {
  log: FastifyBaseLogger;
  timeLimitMs: number;
  heapMb?: number;
  /** Past the time limit, how long before the thread is ended (default GRACE_MS). */
  graceMs?: number;
  /** Where Python jobs run (its processes are the caller's to close). */
  python: PythonSandbox;
}) {
  let worker: Worker | undefined;
  let nextId = 1;
  let running: (Pending & { timer?: ReturnType<typeof setTimeout> }) | undefined;
  const queue: Pending[] = [];
  const { python } = options;

  function spawn(): Worker {
    const thread = new Worker(WORKER_ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 768 },
      stdout: false,
      stderr: false,
    });
    thread.on('message', (message: WorkerMessage) => {
      if (!running || running.id !== message.id) return;
      if (message.progress) {
        running.onProgress?.(message.progress.done, message.progress.total);
        return;
      }
      const job = running;
      finish();
      if (message.result) job.resolve(message.result);
      else if (message.error?.strategy)
        job.reject(new AppError('BACKTEST__STRATEGY_FAILED', message.error.message));
      else job.reject(new Error(message.error?.message ?? 'backtest failed'));
    });
    thread.on('error', (error) => {
      options.log.error({ err: error }, 'backtest worker failed');
      const job = running;
      worker = undefined;
      if (job) {
        finish();
        job.reject(
          /memory/i.test(error.message)
            ? new AppError('BACKTEST__STRATEGY_FAILED', 'The backtest ran out of memory')
            : error,
        );
      }
    });
    thread.on('exit', () => {
      if (worker === thread) worker = undefined;
    });
    thread.unref();
    return thread;
  }

  function finish() {
    if (running) clearTimeout(running.timer);
    running = undefined;
    pump();
  }

  function pump() {
    if (running) return;
    const next = queue.shift();
    if (!next) return;
    if (next.job.strategy.kind === 'python') {
      // The sandbox process keeps its own time and memory limits.
      running = next;
      python.run(next.job, next.onProgress).then(
        (result) => (finish(), next.resolve(result)),
        (error: unknown) => (finish(), next.reject(error)),
      );
      return;
    }
    worker ??= spawn();
    const thread = worker;
    const timer = setTimeout(
      () => {
        if (running?.id !== next.id) return;
        // Past its limit: the thread is ended (whatever it computes) and replaced for the next job.
        worker = undefined;
        void thread.terminate();
        finish();
        next.reject(
          new AppError(
            'BACKTEST__TIME_LIMIT',
            `The backtest took longer than ${Math.round(options.timeLimitMs / 1000)} s and was stopped. Shorten the range.`,
          ),
        );
      },
      options.timeLimitMs + (options.graceMs ?? GRACE_MS),
    );
    running = { ...next, timer };
    thread.postMessage({ id: next.id, job: next.job });
  }

  return {
    /** Computes a job; `onProgress` hears how many candles are done as it runs. */
    run(job: BacktestJob, onProgress?: (done: number, total: number) => void): Promise<TBacktestResult> {
      if (queue.length >= MAX_QUEUED) return Promise.reject(new AppError('BACKTEST__BUSY'));
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, job, resolve, reject, ...(onProgress ? { onProgress } : {}) });
        pump();
      });
    },
    async close(): Promise<void> {
      for (const job of queue.splice(0)) job.reject(new AppError('BACKTEST__BUSY'));
      const thread = worker;
      worker = undefined;
      await thread?.terminate();
    },
  };
}

export type BacktestPool = ReturnType<typeof createBacktestPool>;
