import { Worker } from 'node:worker_threads';
import { StrategyError, type CandleView, type PositionView, type StrategyParameters } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { CANDLE_FIELDS, stepValues } from './candle-buffer';
import { LIVE_LOAD_CPU_MS, type SandboxLimits } from './js-strategy';

const WORKER_ENTRY = new URL('./js-live-worker-entry.mjs', import.meta.url);

/** Threads live JavaScript runs are spread over; all of one user's runs share one of them. */
export const LIVE_JS_THREADS = 2;
/** Past a job's own budget, how long it may go unanswered before its thread is taken for stuck. */
const STUCK_GRACE_MS = 5000;
/** How long a new thread may take to load and compile QuickJS before it is taken for broken. */
const STARTUP_TIMEOUT_MS = 60_000;
/** Compute a warm-up job may take before it gives the thread back (a later job goes on with it). */
export const WARM_SLICE_MS = 20;
/**
 * How far below the least-served user with work a user coming back is placed: a bot's candle is a
 * round trip, so its owner's queue is empty for a moment after each, and coming back it must not
 * wait behind a busier user's next job.
 */
const RETURN_CREDIT_MS = 100;

interface Reply {
  /** The thread's first message: loaded, QuickJS compiled and run once, listening. */
  ready?: true;
  id?: number;
  opened?: true;
  request?: number;
  intent?: unknown;
  done?: number;
  /** The job's time in the thread. */
  ms?: number;
  error?: { strategy: boolean; message: string };
}

interface Job {
  readonly owner: string;
  readonly message: { type: string; id: number; request?: number; [field: string]: unknown };
  /** The job's own compute budget in the thread. */
  readonly budgetMs: number;
  /** The thread a run's context lives in (none for an open: any thread of the lane will do). */
  readonly generation?: Worker;
  resolve(answer: { reply: Reply; worker: Worker }): void;
  reject(error: unknown): void;
}

const replaced = () => new Error('the live JavaScript thread was replaced');

/**
 * One thread and its queue. Jobs (a run's load, a candle, a slice of warm-up) run one at a time;
 * the next is the oldest job of the user who has used the least compute here (each job's compute is
 * capped by its own budget inside QuickJS). So a user's jobs queue behind their own, and a job
 * waits for the one in flight, then for users who have used less compute than its owner.
 */
function createLane(log: FastifyBaseLogger, stuckGraceMs: number) {
  let worker: Worker | undefined;
  /** The thread has said it is ready: a job's clock runs from then (a start is no user's compute). */
  let ready = false;
  /** Users with jobs queued, in the order they came. */
  const queues = new Map<string, Job[]>();
  /** Compute used here per user (ms); kept while the user has runs here or work queued. */
  const used = new Map<string, number>();
  /** Open runs per user. */
  const runs = new Map<string, number>();
  /** The compute used by the user of the job dispatched last: the least among those waiting then. */
  let floor = 0;
  let current: { job: Job; target: Worker; timer?: NodeJS.Timeout } | undefined;
  let closed = false;

  function thread(): Worker {
    if (worker) return worker;
    const created = new Worker(WORKER_ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      stdout: false,
    });
    ready = false;
    const startup = setTimeout(() => {
      if (worker !== created) return;
      log.warn('live JavaScript thread did not start; replacing it');
      replace(new Error('the live JavaScript thread did not start'));
    }, STARTUP_TIMEOUT_MS).unref();
    created.on('message', (reply: Reply) => {
      if (reply.ready) {
        clearTimeout(startup);
        if (worker !== created) return;
        ready = true;
        if (current?.target === created) current.timer = stuckTimer(current.job);
        return;
      }
      if (!current || current.target !== created) return;
      const { job, timer } = current;
      current = undefined;
      clearTimeout(timer);
      charge(job.owner, reply.ms ?? job.budgetMs);
      job.resolve({ reply, worker: created });
      pump();
    });
    const lost = (error: unknown) => {
      clearTimeout(startup);
      if (worker !== created) return;
      log.warn({ err: error }, 'live JavaScript thread lost; its runs will be rebuilt');
      replace(new Error('the live JavaScript thread stopped'));
    };
    created.on('error', lost);
    created.on('exit', lost);
    created.unref();
    worker = created;
    return created;
  }

  /**
   * The sandbox interrupts a job past its budget; no answer at all means the thread is stuck in this
   * job's code (the thread runs nothing else meanwhile): the job fails, as over budget.
   */
  function stuckTimer(job: Job): NodeJS.Timeout {
    return setTimeout(() => {
      log.warn({ job: job.message.type }, 'live JavaScript thread stuck past a job’s budget; replacing it');
      charge(job.owner, job.budgetMs + stuckGraceMs);
      replace(new StrategyError(`The strategy exceeded its CPU time limit of ${job.budgetMs / 1000} s`));
    }, job.budgetMs + stuckGraceMs);
  }

  function charge(owner: string, ms: number) {
    used.set(owner, (used.get(owner) ?? 0) + ms);
  }

  function forgetIdle(owner: string) {
    if (!runs.get(owner) && !queues.has(owner) && current?.job.owner !== owner) used.delete(owner);
  }

  /** Ends the thread: the job in flight gets `culprit`, the jobs of runs that lived in it fail. */
  function replace(culprit: unknown) {
    const old = worker;
    worker = undefined;
    void old?.terminate();
    const inFlight = current;
    current = undefined;
    if (inFlight) {
      clearTimeout(inFlight.timer);
      inFlight.job.reject(culprit);
    }
    for (const [owner, queue] of queues) {
      const kept = queue.filter((job) => {
        if (job.generation === undefined || job.generation !== old) return true;
        job.reject(replaced());
        return false;
      });
      if (kept.length > 0) queues.set(owner, kept);
      else queues.delete(owner);
    }
    pump();
  }

  function pump() {
    while (!current && !closed && queues.size > 0) {
      let owner: string | undefined;
      let least = Number.POSITIVE_INFINITY;
      for (const candidate of queues.keys()) {
        const spent = used.get(candidate) ?? 0;
        if (spent < least) [owner, least] = [candidate, spent];
      }
      const queue = queues.get(owner!)!;
      const job = queue.shift()!;
      if (queue.length === 0) queues.delete(owner!);
      floor = least;
      if (job.generation !== undefined && job.generation !== worker) {
        job.reject(replaced());
        continue;
      }
      const target = thread();
      // A thread still starting takes the job as it is ready (its port holds the message until then).
      current = { job, target, timer: ready ? stuckTimer(job) : undefined };
      target.postMessage(job.message);
    }
  }

  return {
    /** How many users this lane serves (for placing a new one). */
    get users(): number {
      return new Set([...runs.keys(), ...queues.keys()]).size;
    },
    serves(owner: string): boolean {
      return (runs.get(owner) ?? 0) > 0 || queues.has(owner) || current?.job.owner === owner;
    },
    get worker(): Worker | undefined {
      return worker;
    },
    hold(owner: string) {
      runs.set(owner, (runs.get(owner) ?? 0) + 1);
    },
    release(owner: string) {
      const left = (runs.get(owner) ?? 1) - 1;
      if (left > 0) runs.set(owner, left);
      else runs.delete(owner);
      forgetIdle(owner);
    },
    submit(job: Omit<Job, 'resolve' | 'reject'>): Promise<{ reply: Reply; worker: Worker }> {
      if (closed) return Promise.reject(new Error('the live JavaScript threads are closed'));
      return new Promise((resolve, reject) => {
        let queue = queues.get(job.owner);
        if (!queue) {
          used.set(job.owner, Math.max(used.get(job.owner) ?? 0, floor - RETURN_CREDIT_MS));
          queue = [];
          queues.set(job.owner, queue);
        }
        queue.push({ ...job, resolve, reject });
        pump();
      });
    },
    async close(): Promise<void> {
      closed = true;
      const stopped = new Error('the live JavaScript threads are closed');
      const inFlight = current;
      current = undefined;
      if (inFlight) {
        clearTimeout(inFlight.timer);
        inFlight.job.reject(stopped);
      }
      for (const queue of queues.values()) for (const job of queue) job.reject(stopped);
      queues.clear();
      const old = worker;
      worker = undefined;
      await old?.terminate();
    },
  };
}

/** A live run's strategy in its thread. */
export interface JsLiveRun {
  /** One candle: the strategy's intent (unchecked), or a StrategyError. */
  step(candle: CandleView, position: PositionView): Promise<unknown>;
  /** Candles before the run's start, the position unchanged, intents unread. */
  warm(candles: readonly CandleView[], position: PositionView): Promise<void>;
  dispose(): void;
}

/**
 * Live user-JavaScript strategies in a few worker threads (js-live-worker.ts): a QuickJS context per
 * run, stepped a candle at a time, so user code never runs on the API's event loop. Each job's
 * compute is capped inside QuickJS by the run's own budget (its load's, a candle's, a warm-up
 * slice's), whatever it waited; a user's runs share one thread, whose queue serves the user with
 * the least compute used first. A job that runs over its budget fails alone; one that never
 * answers (not expected: QuickJS interrupts it) fails as over budget and its thread is replaced,
 * the other runs it held getting a plain Error (the runner rebuilds them).
 */
export function createJsLiveThread(options: {
  log: FastifyBaseLogger;
  threads?: number;
  stuckGraceMs?: number;
}) {
  const lanes = Array.from({ length: options.threads ?? LIVE_JS_THREADS }, () =>
    createLane(options.log, options.stuckGraceMs ?? STUCK_GRACE_MS),
  );
  let nextId = 1;

  /** The lane of a user's runs; a new user goes to the lane serving the fewest. */
  const laneOf = (owner: string) =>
    lanes.find((lane) => lane.serves(owner)) ??
    lanes.reduce((best, lane) => (lane.users < best.users ? lane : best));

  const failure = (error: NonNullable<Reply['error']>) =>
    error.strategy ? new StrategyError(error.message) : new Error(error.message);

  return {
    /**
     * Opens a run's strategy, for `owner` (the user whose bot it is: the unit of fair sharing).
     *
     * @throws StrategyError when the code does not load.
     */
    async open(init: {
      owner: string;
      code: string;
      parameters: StrategyParameters;
      seed: number;
      limits: SandboxLimits;
    }): Promise<JsLiveRun> {
      const { owner, limits } = init;
      const lane = laneOf(owner);
      const id = nextId++;
      lane.hold(owner);
      let generation: Worker;
      try {
        const opened = await lane.submit({
          owner,
          message: {
            type: 'open',
            id,
            code: init.code,
            parameters: init.parameters,
            seed: init.seed,
            limits,
          },
          budgetMs: Math.max(limits.cpuMs, LIVE_LOAD_CPU_MS),
        });
        if (opened.reply.error) throw failure(opened.reply.error);
        generation = opened.worker;
      } catch (error) {
        lane.release(owner);
        throw error;
      }
      let disposed = false;
      const ask = async (message: Job['message'], budgetMs: number) => {
        if (disposed) throw new Error('the live strategy was disposed');
        const { reply } = await lane.submit({ owner, message, budgetMs, generation });
        if (reply.error) throw failure(reply.error);
        return reply;
      };
      return {
        async step(candle, position) {
          const reply = await ask(
            { type: 'step', id, request: nextId++, values: stepValues(candle, position) },
            limits.cpuMs,
          );
          return reply.intent;
        },
        async warm(candles, position) {
          const flat = candles.flatMap((c) => [c.time, c.open, c.high, c.low, c.close, c.volume]);
          const { openLots, maxPositions, lastEntryPrice } = position;
          for (let from = 0; from < candles.length;) {
            const reply = await ask(
              {
                type: 'warm',
                id,
                request: nextId++,
                candles: flat.slice(from * CANDLE_FIELDS),
                position: [openLots, maxPositions, Number.isNaN(lastEntryPrice) ? null : lastEntryPrice],
                sliceMs: WARM_SLICE_MS,
              },
              // A slice ends after the candle that passes WARM_SLICE_MS; that candle has its own budget.
              WARM_SLICE_MS + limits.cpuMs,
            );
            from += reply.done!;
          }
        },
        dispose() {
          if (disposed) return;
          disposed = true;
          lane.release(owner);
          if (lane.worker === generation) generation.postMessage({ type: 'close', id });
        },
      };
    },
    async close(): Promise<void> {
      await Promise.all(lanes.map((lane) => lane.close()));
    },
  };
}

export type JsLiveThread = ReturnType<typeof createJsLiveThread>;
