import type { ErrorCode } from '@solterm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { AppError, isAppError } from '../lib/app-error';
import { runLoop, TaskTimeoutError, type JobScheduler, type RecurringJob, type Task } from './scheduler';

export interface PgBossSchedulerOptions {
  /** The PostgreSQL every API and worker process shares. */
  connectionString: string;
  log: FastifyBaseLogger;
  /** How long a process holds a singleton job before handing it on (default 5 s). */
  leaseMs?: number;
  /**
   * How long a lease may stay active before pg-boss takes it as abandoned (its holder killed) and
   * gives it to another process (default lease + 5 s). A holder's last run may overrun its lease;
   * jobs are safe to overlap (keepers claim each order once), this only bounds the failover.
   */
  expireAfterMs?: number;
  /** How often idle processes look for a lease to take (default 0.5 s, pg-boss's minimum). */
  pollingIntervalMs?: number;
  /** pg-boss's schema (default `pgboss`). */
  schema?: string;
}

const QUEUE_PREFIX = 'solterm.';
export const TASK_PREFIX = 'solterm.task.';
/** How often a submitter looks for its job's answer. */
const ANSWER_POLL_MS = 50;

/** What a task's worker stores as the job's output: the answer, or the error to rethrow. */
type TaskOutcome =
  | { ok: true; value: unknown }
  | { ok: false; code?: ErrorCode; message: string; details?: Record<string, unknown> };

/**
 * Singleton jobs as leases on pg-boss: each singleton is a `stately` queue (at most one job
 * created, one active), so at most one process holds it. The holder runs the job every interval for
 * a lease, enqueues the next lease and completes; every process polls the queue, so the next lease
 * goes to whichever asks first. A killed holder's lease expires (`expireInSeconds`), pg-boss's
 * supervision (every second here) fails it into a retry, and another process takes it: the failover
 * is at most expiry + 1 s supervision + one poll.
 *
 * Tasks (on-demand work, a backtest) are plain queues without retries: each process that registered
 * a task works its queue; a submitter sends a job (waking its own worker when it has one, so it need
 * not wait for a poll), reads the answer the worker stored as the job's output, and deletes the job.
 */
export function createPgBossScheduler(options: PgBossSchedulerOptions): JobScheduler {
  const { log } = options;
  const leaseMs = options.leaseMs ?? 5000;
  const expireInSeconds = Math.ceil((options.expireAfterMs ?? leaseMs + 5000) / 1000);
  const pollingIntervalSeconds = (options.pollingIntervalMs ?? 500) / 1000;
  const singletons: RecurringJob[] = [];
  const local: RecurringJob[] = [];
  const tasks: Task<unknown, unknown>[] = [];
  let state:
    | { boss: PgBoss; controller: AbortController; loops: Promise<void>[]; taskWorkers: Map<string, string> }
    | undefined;
  let starting: Promise<void> | undefined;

  const queueOf = (job: RecurringJob) => `${QUEUE_PREFIX}${job.name}`;

  async function holdLease(boss: PgBoss, job: RecurringJob, signal: AbortSignal): Promise<void> {
    const deadline = performance.now() + leaseMs;
    log.debug({ job: job.name, leaseMs }, 'job lease taken');
    await runLoop(
      job,
      signal,
      (error) => log.error({ err: error, job: job.name }, 'job run failed'),
      () => performance.now() >= deadline,
    );
    // Hand the job on (to this or another process) before completing this lease: stately keeps
    // one lease queued while this one is active, so there is never a moment with none.
    await boss.send(queueOf(job), {}, { singletonKey: job.name, retryLimit: 1_000_000, expireInSeconds });
  }

  /**
   * Processes starting together on one PostgreSQL create the same queue at once, and PostgreSQL may
   * answer one of them "deadlock detected" (40P01); creating a queue is idempotent, so it is tried again.
   */
  async function retryOnDeadlock(create: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await create();
      } catch (error) {
        if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
      }
    }
  }

  const createdQueues = new Set<string>();
  async function ensureTaskQueue(boss: PgBoss, queue: string): Promise<void> {
    if (createdQueues.has(queue)) return;
    await retryOnDeadlock(() => boss.createQueue(queue, { name: queue, policy: 'standard', retryLimit: 0 }));
    createdQueues.add(queue);
  }

  async function startBoss(): Promise<void> {
    const boss = new PgBoss({
      connectionString: options.connectionString,
      schema: options.schema ?? 'pgboss',
      max: 3,
      application_name: 'solterm-jobs',
      schedule: false,
      maintenanceIntervalSeconds: 1,
    });
    boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
    await boss.start();
    const controller = new AbortController();
    for (const job of singletons) {
      const queue = queueOf(job);
      await retryOnDeadlock(() =>
        boss.createQueue(queue, { name: queue, policy: 'stately', retryLimit: 1_000_000, expireInSeconds }),
      );
      await boss.work(queue, { pollingIntervalSeconds, batchSize: 1 }, async () => {
        if (!controller.signal.aborted) await holdLease(boss, job, controller.signal);
      });
      // The first process to start seeds the lease; the others' sends are refused by the policy.
      await boss.send(queue, {}, { singletonKey: job.name, retryLimit: 1_000_000, expireInSeconds });
    }
    // Tasks: a plain queue each, no retries (a backtest that failed fails the same way again).
    const taskWorkers = new Map<string, string>();
    for (const task of tasks) {
      const queue = `${TASK_PREFIX}${task.name}`;
      await ensureTaskQueue(boss, queue);
      const workerId = await boss.work<unknown>(
        queue,
        { pollingIntervalSeconds, batchSize: 1 },
        async ([job]): Promise<TaskOutcome> => {
          try {
            return { ok: true, value: await task.run(job!.data) };
          } catch (error) {
            if (isAppError(error)) {
              return {
                ok: false,
                code: error.code,
                message: error.message,
                ...(error.details ? { details: error.details } : {}),
              };
            }
            log.error({ err: error, task: task.name }, 'task failed');
            return { ok: false, message: error instanceof Error ? error.message : String(error) };
          }
        },
      );
      taskWorkers.set(task.name, workerId);
    }
    const loops = local.map((job) =>
      runLoop(job, controller.signal, (error) => log.error({ err: error, job: job.name }, 'job run failed')),
    );
    state = { boss, controller, loops, taskWorkers };
  }

  const register = (list: RecurringJob[]) => (job: RecurringJob) => {
    if (state || starting) throw new Error(`job '${job.name}' registered after the scheduler started`);
    list.push(job);
  };

  return {
    kind: 'pg-boss',
    singleton: register(singletons),
    everyProcess: register(local),
    task(task) {
      if (state || starting) throw new Error(`task '${task.name}' registered after the scheduler started`);
      tasks.push(task as Task<unknown, unknown>);
    },
    async submit<P, R>(
      name: string,
      payload: P,
      { timeoutMs, priority = 0 }: { timeoutMs: number; priority?: number },
    ): Promise<R> {
      await starting;
      if (!state) throw new Error(`the scheduler is not running: task '${name}' cannot be submitted`);
      const { boss, taskWorkers } = state;
      const queue = `${TASK_PREFIX}${name}`;
      // The queue may not exist yet when no process that works it has started.
      if (!taskWorkers.has(name)) await ensureTaskQueue(boss, queue);
      const id = await boss.send(queue, payload as object, {
        priority,
        retryLimit: 0,
        expireInSeconds: Math.ceil(timeoutMs / 1000),
      });
      if (!id) throw new Error(`task '${name}' was not queued`);
      // This process works the queue too: wake its worker rather than wait for its next poll.
      const ownWorker = taskWorkers.get(name);
      if (ownWorker) boss.notifyWorker(ownWorker);
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const job = await boss.getJobById<P>(queue, id);
        if (job && (job.state === 'completed' || job.state === 'failed' || job.state === 'cancelled')) {
          await boss.deleteJob(queue, id).catch(() => undefined);
          const outcome = job.output as TaskOutcome | null;
          if (outcome?.ok) return outcome.value as R;
          if (outcome && 'code' in outcome && outcome.code) {
            throw new AppError(outcome.code, outcome.message, outcome.details);
          }
          throw new Error(outcome?.message ?? `task '${name}' ${job.state}`);
        }
        if (performance.now() > deadline) {
          await boss.cancel(queue, id).catch(() => undefined);
          throw new TaskTimeoutError(`task '${name}' got no answer within ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, ANSWER_POLL_MS));
      }
    },
    start() {
      starting ??= startBoss().finally(() => (starting = undefined));
      return state ? Promise.resolve() : starting;
    },
    async stop() {
      await starting?.catch(() => undefined);
      if (!state) return;
      const { boss, controller, loops } = state;
      state = undefined;
      controller.abort();
      // Graceful: wait for a lease in progress (it hands the job on as it ends), then close.
      await boss.stop({ graceful: true, wait: true, timeout: 15_000 });
      await Promise.all(loops);
    },
  };
}
