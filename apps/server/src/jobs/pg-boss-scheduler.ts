import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { runLoop, type JobScheduler, type RecurringJob } from './scheduler';

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

/**
 * Singleton jobs as leases on pg-boss: each singleton is a `stately` queue (at most one job
 * created, one active), so at most one process holds it. The holder runs the job every interval for
 * a lease, enqueues the next lease and completes; every process polls the queue, so the next lease
 * goes to whichever asks first. A killed holder's lease expires (`expireInSeconds`), pg-boss's
 * supervision (every second here) fails it into a retry, and another process takes it: the failover
 * is at most expiry + 1 s supervision + one poll.
 */
export function createPgBossScheduler(options: PgBossSchedulerOptions): JobScheduler {
  const { log } = options;
  const leaseMs = options.leaseMs ?? 5000;
  const expireInSeconds = Math.ceil((options.expireAfterMs ?? leaseMs + 5000) / 1000);
  const pollingIntervalSeconds = (options.pollingIntervalMs ?? 500) / 1000;
  const singletons: RecurringJob[] = [];
  const local: RecurringJob[] = [];
  let state: { boss: PgBoss; controller: AbortController; loops: Promise<void>[] } | undefined;
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
    const loops = local.map((job) =>
      runLoop(job, controller.signal, (error) => log.error({ err: error, job: job.name }, 'job run failed')),
    );
    state = { boss, controller, loops };
  }

  const register = (list: RecurringJob[]) => (job: RecurringJob) => {
    if (state || starting) throw new Error(`job '${job.name}' registered after the scheduler started`);
    list.push(job);
  };

  return {
    kind: 'pg-boss',
    singleton: register(singletons),
    everyProcess: register(local),
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
