import { Worker } from 'node:worker_threads';
import { ZBacktestResultSchema, type ErrorCode } from '@solterm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../lib/app-error';
import type { BacktestJob, BacktestResultJson, BacktestSpec } from './backtest-job';
import { fillsCsvParts } from './backtest-wire';
import type { PythonSandbox } from '../sandbox/python-sandbox';
import { computeTrial, metricsOfWire } from '../optimize/optimize-trial';

const WORKER_ENTRY = new URL('./backtest-worker-entry.mjs', import.meta.url);

/**
 * Past the time limit the thread is ended. User code's own sandbox deadline (the same limit, from
 * when its run starts) answers first with a clearer message; this covers everything else.
 */
const GRACE_MS = 5_000;

/**
 * Time allowed to a job's preparation (starting the thread and dividing the pair's candles, ~20 µs a
 * candle on a quiet core, ten times that on a loaded one) on top of the time limit, per candle: a year
 * of minutes gets 105 s more.
 */
const PREPARE_MS_PER_CANDLE = 0.2;

/**
 * Backtests one user may have waiting or running at once; past it that user is answered
 * BACKTEST__BUSY (others are not: their jobs have a place in the round).
 */
export const MAX_BACKTESTS_PER_USER = 3;

/** Jobs waiting in all; past it anyone is answered BACKTEST__BUSY. */
const MAX_QUEUED = 24;

/**
 * Bytes of candles the waiting jobs may hold in all (a year of minutes is ~50 MB of legs, a year
 * of hours under 1 MB); a job that would pass it is answered BACKTEST__BUSY.
 */
const MAX_WAITING_BYTES = 256 * 1024 * 1024;

type WorkerMessage =
  | { id: number; started: true }
  | { id: number; progress: { done: number; total: number } }
  | { id: number; json: ArrayBuffer; parts?: string[] }
  | { id: number; job: BacktestJob }
  | { id: number; error: { strategy: boolean; code?: ErrorCode; message: string } };

/** What a job's submitter hears while it waits and runs. */
export interface BacktestEvents {
  /** How many jobs will start before it (the running one included): on acceptance and on each change. */
  onQueue?: (ahead: number) => void;
  /** Candles done of the total: 0 the moment it starts, then as it computes. */
  onProgress?: (done: number, total: number) => void;
  /** Every fill as CSV parts (fillsCsvParts), before the job resolves; only for a spec with an exportId. */
  onExport?: (parts: string[]) => void;
}

interface Pending {
  id: number;
  owner: string;
  spec: BacktestSpec;
  resolve: (json: string) => void;
  reject: (error: unknown) => void;
  events: BacktestEvents;
  /** The place last told (onQueue), to tell only changes. */
  ahead?: number;
  /** What cancel() names it by ("Run and Test Bot" can be cancelled). */
  key?: string | undefined;
}

/** What the thread is doing for the running job: computing it, or dividing a Python job's candles. */
type Running = Pending & {
  timer?: ReturnType<typeof setTimeout>;
  onJob?: (job: BacktestJob) => void;
  /** Aborts a Python job's sandbox process. */
  abort?: AbortController;
};

/**
 * Runs backtests in one worker thread, off the event loop: the API keeps answering while a year of
 * candles or user code computes, and the answer comes back as JSON bytes (BacktestResultJson) that
 * the API sends as they are. One job at a time (the machine has two cores: one for requests); a job
 * past its time limit ends with BACKTEST__TIME_LIMIT and its thread is replaced; the thread's
 * JavaScript heap is capped, and user code also has its sandbox's own limits. Python jobs queue the
 * same way but run in the Python sandbox's process (sandbox/python-sandbox.ts).
 *
 * Shared fairly: each user has a queue of their own, at most MAX_BACKTESTS_PER_USER deep with the
 * running job, and the thread takes the users in turn (round-robin: the user served least recently
 * next), not the jobs in arrival order. A user's first job so starts after the running job and at
 * most one job of each user already waiting when it came: with k such users (k < MAX_QUEUED), after
 * k + 1 jobs, each holding the thread at most 2 × (time limit + grace) (being prepared: the thread
 * started, the pair's candles divided; then computing). When one user floods the queue, after their
 * running job alone: at most 50 s by default, in practice the time limit + grace (25 s), as a small
 * range's candles are ready in milliseconds.
 */
export function createBacktestPool(options: {
  log: FastifyBaseLogger;
  timeLimitMs: number;
  heapMb?: number;
  /** Past the time limit, how long before the thread is ended (default GRACE_MS). */
  graceMs?: number;
  /** Where Python jobs run (its processes are the caller's to close). */
  python: PythonSandbox;
  /** Bytes of candles waiting jobs may hold in all (default MAX_WAITING_BYTES). */
  maxWaitingBytes?: number;
}) {
  let worker: Worker | undefined;
  let nextId = 1;
  let running: Running | undefined;
  /** Each user's waiting jobs, in order of the users' arrival. */
  const waiting = new Map<string, Pending[]>();
  let waitingCount = 0;
  let waitingBytes = 0;
  const bytesOf = (spec: BacktestSpec) => spec.legs.base.byteLength + spec.legs.quote.byteLength;
  /** Each user's jobs waiting or running. */
  const held = new Map<string, number>();
  /** When each user holding jobs was last served (a count of jobs started); forgotten at none held. */
  const lastServed = new Map<string, number>();
  let serves = 0;
  const { python } = options;

  function spawn(): Worker {
    const thread = new Worker(WORKER_ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 768 },
      stdout: false,
      stderr: false,
    });
    thread.on('message', (message: WorkerMessage) => {
      if (!running || running.id !== message.id) return;
      if ('started' in message) {
        arm(running, thread);
        return;
      }
      if ('progress' in message) {
        running.events.onProgress?.(message.progress.done, message.progress.total);
        return;
      }
      const job = running;
      if ('job' in message && job.onJob) {
        // A Python job's candles: the job goes on in the sandbox, still holding the slot.
        clearTimeout(job.timer);
        job.timer = undefined;
        job.onJob(message.job);
        return;
      }
      finish();
      if ('json' in message) {
        if (message.parts) job.events.onExport?.(message.parts);
        job.resolve(Buffer.from(message.json).toString('utf8'));
      } else if ('error' in message) job.reject(errorOf(message.error));
      else job.reject(new Error('backtest worker answered out of turn'));
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

  function errorOf(error: { strategy: boolean; code?: ErrorCode; message: string }): Error {
    if (error.code) return new AppError(error.code, error.message);
    if (error.strategy) return new AppError('BACKTEST__STRATEGY_FAILED', error.message);
    return new Error(error.message);
  }

  function finish() {
    if (running) {
      clearTimeout(running.timer);
      const left = (held.get(running.owner) ?? 1) - 1;
      if (left > 0) held.set(running.owner, left);
      else {
        held.delete(running.owner);
        lastServed.delete(running.owner);
      }
    }
    running = undefined;
    pump();
  }

  /**
   * Of `queues`, the user whose job goes next: the user served least recently (one who has not been
   * served yet first, in order of arrival), so each user waiting gets one job in before anyone gets a
   * second.
   */
  function nextOwner(queues: Map<string, Pending[]>, served: Map<string, number>): string | undefined {
    let owner: string | undefined;
    for (const candidate of queues.keys()) {
      if (owner === undefined || (served.get(candidate) ?? 0) < (served.get(owner) ?? 0)) owner = candidate;
    }
    return owner;
  }

  /** The next job: the oldest of nextOwner's. */
  function takeNext(): Pending | undefined {
    const owner = nextOwner(waiting, lastServed);
    if (owner === undefined) return undefined;
    const jobs = waiting.get(owner)!;
    const next = jobs.shift()!;
    if (jobs.length === 0) waiting.delete(owner);
    waitingCount -= 1;
    waitingBytes -= bytesOf(next.spec);
    lastServed.set(owner, (serves += 1));
    return next;
  }

  /**
   * Tells each waiting job its place as things stand: the jobs takeNext would start before it, and
   * the running one. (A newcomer's first job may later go ahead of others' second ones: told again.)
   */
  function tellPlaces() {
    const queues = new Map([...waiting].map(([owner, jobs]) => [owner, [...jobs]]));
    const served = new Map(lastServed);
    let count = serves;
    let ahead = running ? 1 : 0;
    for (let owner = nextOwner(queues, served); owner !== undefined; owner = nextOwner(queues, served)) {
      const jobs = queues.get(owner)!;
      const job = jobs.shift()!;
      if (jobs.length === 0) queues.delete(owner);
      served.set(owner, (count += 1));
      if (job.ahead !== ahead) {
        job.ahead = ahead;
        job.events.onQueue?.(ahead);
      }
      ahead += 1;
    }
  }

  /**
   * Ends the running job past the time limit and grace: the thread is ended (whatever it computes)
   * and replaced for the next job. Armed when the job is sent (starting the thread and dividing the
   * pair's candles are not the job's compute, but are bounded too) and again when it starts computing.
   */
  function arm(next: Running, thread: Worker, preparing = false) {
    clearTimeout(next.timer);
    const candles = next.spec.legs.base.length / 6;
    next.timer = setTimeout(
      () => {
        if (running?.id !== next.id) return;
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
      options.timeLimitMs + (options.graceMs ?? GRACE_MS) + (preparing ? candles * PREPARE_MS_PER_CANDLE : 0),
    );
  }

  /** Sends the running job's spec to the thread (a Python job only for its candles). */
  function post(next: Running, candlesOnly: boolean) {
    worker ??= spawn();
    arm(next, worker, true);
    const { base, quote } = next.spec.legs;
    worker.postMessage({ id: next.id, spec: next.spec, candlesOnly }, [base.buffer, quote.buffer]);
  }

  function pump() {
    if (!running) start();
    tellPlaces();
  }

  function start() {
    const next = takeNext();
    if (!next) return;
    running = next;
    // Its bar from the start: the candles are the legs' (the pair's may be fewer, told as it computes).
    next.events.onProgress?.(0, next.spec.legs.base.length / 6);
    if (next.spec.strategy.kind !== 'python') return post(next, false);
    // The sandbox process keeps its own time and memory limits; the thread divides its candles first.
    const settle = (outcome: () => void) => {
      if (running?.id === next.id) finish();
      try {
        outcome();
      } catch (error) {
        next.reject(error);
      }
    };
    const abort = (running.abort = new AbortController());
    let parts: string[] | undefined;
    const keep = next.spec.exportId
      ? (fills: Parameters<typeof fillsCsvParts>[0]) => (parts = fillsCsvParts(fills, next.spec))
      : undefined;
    running.onJob = (job) => {
      const { trial } = job;
      if (trial) {
        // A trial of an optimisation: each fold's windows run in the sandbox, one after another.
        const runWindow = async (window: BacktestJob) =>
          metricsOfWire(
            ZBacktestResultSchema.parse(await python.run(window, undefined, undefined, abort.signal)),
          );
        return void computeTrial(job, trial, runWindow).then(
          (result) => settle(() => next.resolve(JSON.stringify(result))),
          (error: unknown) => settle(() => next.reject(error)),
        );
      }
      return void python.run(job, next.events.onProgress, keep, abort.signal).then(
        // The Python sandbox answers a result object: checked and serialised here, Python jobs only.
        (result) =>
          settle(() => {
            const json = JSON.stringify(ZBacktestResultSchema.parse(result));
            if (parts) next.events.onExport?.(parts);
            next.resolve(json);
          }),
        (error: unknown) => settle(() => next.reject(error)),
      );
    };
    post(running, true);
  }

  return {
    /**
     * Computes a backtest of `owner` (a user id); resolves with its result as JSON text (a
     * TBacktestResult, checked against the API's schema). `events` hear its place in the queue, how
     * many candles are done as it runs, and its fills for export. BACKTEST__BUSY when `owner` already has MAX_BACKTESTS_PER_USER waiting or
     * running, or when MAX_QUEUED wait in all or their candles would pass MAX_WAITING_BYTES.
     */
    run(
      spec: BacktestSpec,
      owner: string,
      events: BacktestEvents = {},
      key?: string,
    ): Promise<BacktestResultJson> {
      const mine = held.get(owner) ?? 0;
      const bytes = bytesOf(spec);
      if (
        mine >= MAX_BACKTESTS_PER_USER ||
        waitingCount >= MAX_QUEUED ||
        waitingBytes + bytes > (options.maxWaitingBytes ?? MAX_WAITING_BYTES)
      ) {
        return Promise.reject(new AppError('BACKTEST__BUSY'));
      }
      return new Promise((resolve, reject) => {
        held.set(owner, mine + 1);
        const jobs = waiting.get(owner) ?? [];
        jobs.push({ id: nextId++, owner, spec, resolve, reject, events, key });
        waiting.set(owner, jobs);
        waitingCount += 1;
        waitingBytes += bytes;
        pump();
      });
    },
    /**
     * Cancels the job run() was given `key` for: a waiting one leaves the queue; a running one's
     * thread is ended (replaced for the next job) or its Python process killed. It rejects with
     * BACKTEST__CANCELLED. False when no such job is waiting or running (it finished).
     */
    cancel(key: string): boolean {
      const cancelled = () => new AppError('BACKTEST__CANCELLED');
      for (const [owner, jobs] of waiting) {
        const index = jobs.findIndex((job) => job.key === key);
        if (index < 0) continue;
        const [job] = jobs.splice(index, 1);
        if (jobs.length === 0) waiting.delete(owner);
        waitingCount -= 1;
        waitingBytes -= bytesOf(job!.spec);
        const left = (held.get(owner) ?? 1) - 1;
        if (left > 0) held.set(owner, left);
        else held.delete(owner);
        job!.reject(cancelled());
        return true;
      }
      const job = running;
      if (!job || job.key !== key) return false;
      if (job.abort && !job.timer) {
        // In the Python sandbox: its process is killed, the thread stays.
        job.abort.abort();
      } else {
        const thread = worker;
        worker = undefined;
        void thread?.terminate();
        job.abort?.abort();
      }
      finish();
      job.reject(cancelled());
      return true;
    },
    async close(): Promise<void> {
      for (const jobs of waiting.values()) for (const job of jobs) job.reject(new AppError('BACKTEST__BUSY'));
      waiting.clear();
      waitingCount = 0;
      waitingBytes = 0;
      held.clear();
      lastServed.clear();
      const thread = worker;
      worker = undefined;
      await thread?.terminate();
    },
  };
}

export type BacktestPool = ReturnType<typeof createBacktestPool>;
