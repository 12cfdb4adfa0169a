/**
 * The job scheduler port: background work (keepers, reconciliation, later bots, funding and
 * liquidation) is registered here instead of timers of its own. Two implementations: in-process
 * (the embedded default) and pg-boss on PostgreSQL, where API and worker processes share the work.
 */
export interface RecurringJob {
  /** A stable name: the queue of the job on PostgreSQL. */
  readonly name: string;
  /** Pause between the end of one run and the start of the next. */
  readonly intervalMs: number;
  /** One run; `signal` aborts when the scheduler stops (finish the current step, then return). */
  run(signal: AbortSignal): Promise<void>;
}

/**
 * On-demand work (a backtest): each submitted payload is computed once, by a process that registered
 * the task — on PostgreSQL any of them, so heavy work spreads over API and worker processes.
 * Payloads and answers are JSON.
 */
export interface Task<P, R> {
  /** A stable name: the queue of the task on PostgreSQL. */
  readonly name: string;
  /** Computes one job; an AppError it throws reaches the submitter as the same AppError. */
  run(payload: P): Promise<R>;
}

/** A submitted job got no answer in time (no process took it, or the one that did died). */
export class TaskTimeoutError extends Error {
  override readonly name = 'TaskTimeoutError';
}

export interface JobScheduler {
  readonly kind: 'in-process' | 'pg-boss';
  /**
   * A job exactly one process runs at a time, whichever holds it (a keeper): on PostgreSQL the
   * holder keeps it for a lease and hands it on; a killed holder's job moves to another process.
   */
  singleton(job: RecurringJob): void;
  /** Work every process runs for itself (its own sockets' fan-out), never shared. */
  everyProcess(job: RecurringJob): void;
  /** Registers the handler of a task: this process computes jobs of it. */
  task<P, R>(task: Task<P, R>): void;
  /**
   * Submits one job of a task and waits for its answer (rejects with the handler's AppError, or with
   * TaskTimeoutError after `timeoutMs`). On PostgreSQL waiting jobs of a higher `priority` (default
   * 0) are taken first, then the oldest; in-process every job runs at once (the task orders them).
   */
  submit<P, R>(name: string, payload: P, options: { timeoutMs: number; priority?: number }): Promise<R>;
  /** Starts running what is registered (idempotent). */
  start(): Promise<void>;
  /** Stops and waits for running jobs to finish their current run (idempotent; stops a start in flight). */
  stop(): Promise<void>;
}

/**
 * Runs `job` again and again with `intervalMs` between runs until `signal` aborts; a failed run is
 * reported and the loop goes on. Resolves once the loop has ended (the current run included).
 */
export async function runLoop(
  job: RecurringJob,
  signal: AbortSignal,
  onError: (error: unknown) => void,
  until: () => boolean = () => false,
): Promise<void> {
  while (!signal.aborted && !until()) {
    try {
      await job.run(signal);
    } catch (error) {
      onError(error);
    }
    if (signal.aborted || until()) return;
    await pause(job.intervalMs, signal);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
