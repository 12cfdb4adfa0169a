import type { TBacktestProgress, TBacktestResult, TBotConfig } from '@solterm/contracts';
import { TaskTimeoutError, type JobScheduler, type Task } from '../../jobs/scheduler';
import { AppError } from '../../lib/app-error';
import type { BacktestRunner } from './backtest-runner';
import type { ResolvedStrategy } from './bot-strategy';

/** The scheduler's name of the backtest task. */
export const BACKTEST_TASK = 'backtest';

/** Backtests a process may have waiting (the pool's queue) plus the one running. */
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
}

/**
 * Backtests as a scheduler task: whichever process takes the job (this one when embedded; any API or
 * worker process on PostgreSQL) computes it off its event loop and reports progress to the user's
 * sockets in every process.
 */
export function backtestTask(
  run: BacktestRunner,
  publishProgress: (userId: string, progress: TBacktestProgress) => void,
): Task<BacktestTaskPayload, TBacktestResult> {
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
 * Submits backtests to the scheduler and waits for their answer. The computing process answers
 * BACKTEST__TIME_LIMIT itself; the submit timeout is a safety net for a job nobody took (every
 * process busy) or whose process died, answered as BACKTEST__BUSY.
 */
export function backtestSubmitter(scheduler: JobScheduler, timeLimitMs: number) {
  return (payload: BacktestTaskPayload): Promise<TBacktestResult> =>
    scheduler
      .submit<BacktestTaskPayload, TBacktestResult>(BACKTEST_TASK, payload, {
        timeoutMs: QUEUE_ROUNDS * (timeLimitMs + GRACE_MS),
      })
      .catch((error: unknown) => {
        throw error instanceof TaskTimeoutError ? new AppError('BACKTEST__BUSY') : error;
      });
}
