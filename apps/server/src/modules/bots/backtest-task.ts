import type { TBacktestProgress, TBotConfig } from '@solterm/contracts';
import { TaskTimeoutError, type JobScheduler, type Task } from '../../jobs/scheduler';
import { AppError } from '../../lib/app-error';
import type { BacktestResultJson } from './backtest-job';
import { MAX_BACKTESTS_PER_USER } from './backtest-pool';
import type { BacktestRunner } from './backtest-runner';
import type { ResolvedStrategy } from './bot-strategy';

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
}

/**
 * Backtests as a scheduler task: whichever process takes the job (this one when embedded; any API or
 * worker process on PostgreSQL) computes it off its event loop and reports progress to the user's
 * sockets in every process.
 */
export function backtestTask(
  run: BacktestRunner,
  publishProgress: (userId: string, progress: TBacktestProgress) => void,
): Task<BacktestTaskPayload, BacktestResultJson> {
  return {
    name: BACKTEST_TASK,
    run: (payload) =>
      run(
        {
          strategy: payload.strategy,
          config: payload.config,
          from: new Date(payload.from),
          to: new Date(payload.to),
          initialBalance: payload.initialBalance,
          seed: payload.seed,
          owner: payload.userId,
          cancelKey: payload.cancelKey,
        },
        (done, total) =>
          publishProgress(payload.userId, {
            bot_id: payload.botId,
            candles_done: done,
            candles_total: total,
            progress_percentage: Math.floor((done / total) * 100),
          }),
      ),
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
