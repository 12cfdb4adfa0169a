import type { TBacktestCosts, TBacktestProgress, TBotConfig } from '@solterm/contracts';
import { TaskTimeoutError, type JobScheduler, type Task } from '../../../jobs/scheduler';
import { AppError } from '../../../lib/app-error';
import type { BacktestResultJson } from './backtest-job';
import { MAX_BACKTESTS_PER_USER } from './backtest-pool';
import type { BacktestRunner } from './backtest-runner';
import type { ResolvedStrategy } from '../bot-strategy';

/** The scheduler's name of the backtest task. */
export const BACKTEST_TASK = 'backtest';

/** Time limits a submitted backtest may wait for its answer, queued and computed. */
const QUEUE_ROUNDS = 9;
/** The pool's grace past the time limit before it ends a worker thread. */
const GRACE_MS = 5000;

/** One backtest as a job (JSON): the range as ISO times, and who hears its progress. */
export interface BacktestTaskPayload {
  readonly strategy: ResolvedStrategy;
  readonly config: TBotConfig;
  readonly from: string;
  readonly to: string;
  readonly initialBalance: number;
  readonly seed: number;
  readonly userId: string;
  /** The bot backtested; null for "Run and Test Bot" on an unsaved form. */
  readonly botId: string | null;
  /** "Run and Test Bot": the key its cancel names it by (null for a backtest). */
  readonly cancelKey?: string | null;
  /** How fills are priced (absent: the venue's RFQ pricing). */
  readonly costs?: TBacktestCosts;
}

/** Where the backtests of each user computed in this process are (GET /api/bots/backtest/status). */
export function createBacktestStatus() {
  const byUser = new Map<string, Map<number, TBacktestProgress>>();
  let nextJob = 1;
  return {
    /** A job accepted for `userId`: its reports go to `publish`, its place is kept until `done`. */
    track(userId: string, publish: (progress: TBacktestProgress) => void) {
      const job = nextJob++;
      return {
        report(progress: TBacktestProgress) {
          const jobs = byUser.get(userId) ?? new Map<number, TBacktestProgress>();
          jobs.set(job, progress);
          byUser.set(userId, jobs);
          publish(progress);
        },
        done() {
          const jobs = byUser.get(userId);
          jobs?.delete(job);
          if (jobs?.size === 0) byUser.delete(userId);
        },
      };
    },
    /** The user's backtests waiting or running here, in the order they were accepted. */
    of(userId: string): TBacktestProgress[] {
      return [...(byUser.get(userId)?.values() ?? [])];
    },
  };
}

export type BacktestStatus = ReturnType<typeof createBacktestStatus>;

/**
 * Backtests as a scheduler task: whichever process takes the job (this one when embedded; any API or
 * worker process on PostgreSQL) computes it off its event loop and reports its place in the queue,
 * then its progress from its start, to the user's sockets in every process (and to `status`).
 */
export function backtestTask(
  run: BacktestRunner,
  publishProgress: (userId: string, progress: TBacktestProgress) => void,
  status: BacktestStatus = createBacktestStatus(),
): Task<BacktestTaskPayload, BacktestResultJson> {
  return {
    name: BACKTEST_TASK,
    async run(payload) {
      const tracked = status.track(payload.userId, (progress) => publishProgress(payload.userId, progress));
      const report = (fields: Omit<TBacktestProgress, 'bot_id'>) =>
        tracked.report({ bot_id: payload.botId, ...fields });
      try {
        return await run(
          {
            strategy: payload.strategy,
            config: payload.config,
            from: new Date(payload.from),
            to: new Date(payload.to),
            initialBalance: payload.initialBalance,
            seed: payload.seed,
            owner: payload.userId,
            cancelKey: payload.cancelKey,
            ...(payload.costs ? { costs: payload.costs } : {}),
          },
          {
            onQueue: (ahead) =>
              report({
                state: 'queued',
                queue_ahead: ahead,
                candles_done: 0,
                candles_total: 0,
                progress_percentage: 0,
              }),
            onProgress: (done, total) =>
              report({
                state: 'running',
                queue_ahead: 0,
                candles_done: done,
                candles_total: total,
                progress_percentage: total > 0 ? Math.floor((done / total) * 100) : 0,
              }),
          },
        );
      } finally {
        tracked.done();
      }
    },
  };
}

/**
 * Submits backtests to the scheduler and waits for their answer (the result's JSON text). The
 * computing process answers BACKTEST__TIME_LIMIT itself; the submit timeout is a safety net for a job
 * nobody took (every process busy) or whose process died, answered as BACKTEST__BUSY. A user with
 * MAX_BACKTESTS_PER_USER backtests in flight from this process is answered BACKTEST__BUSY at once:
 * the pool bounds each user's share of its own thread, this bounds it in the shared queue on
 * PostgreSQL too, where each process's pool takes one job at a time in order of arrival.
 */
export function backtestSubmitter(scheduler: JobScheduler, timeLimitMs: number) {
  const inFlight = new Map<string, number>();
  return async (payload: BacktestTaskPayload): Promise<BacktestResultJson> => {
    const mine = inFlight.get(payload.userId) ?? 0;
    if (mine >= MAX_BACKTESTS_PER_USER) throw new AppError('BACKTEST__BUSY');
    inFlight.set(payload.userId, mine + 1);
    try {
      return await scheduler.submit<BacktestTaskPayload, BacktestResultJson>(BACKTEST_TASK, payload, {
        timeoutMs: QUEUE_ROUNDS * (timeLimitMs + GRACE_MS),
        // On PostgreSQL the shared queue is taken by priority first: a user's first backtest goes
        // before others' second and third, as the pool's round-robin does within a process.
        priority: MAX_BACKTESTS_PER_USER - mine,
      });
    } catch (error) {
      throw error instanceof TaskTimeoutError ? new AppError('BACKTEST__BUSY') : error;
    } finally {
      const left = (inFlight.get(payload.userId) ?? 1) - 1;
      if (left > 0) inFlight.set(payload.userId, left);
      else inFlight.delete(payload.userId);
    }
  };
}
