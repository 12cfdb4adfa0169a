import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessScheduler } from '../src/jobs/in-process-scheduler';
import { createPgBossScheduler, TASK_PREFIX } from '../src/jobs/pg-boss-scheduler';
import { TaskTimeoutError, type JobScheduler, type RecurringJob, type Task } from '../src/jobs/scheduler';
import { AppError } from '../src/lib/app-error';
import { openTestDatabase, type TestDatabase } from './helpers/test-app';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that records each run as [who, start, end] and fails if two runs ever overlap. */
function recordingJob(
  name: string,
  runs: { who: string; start: number; end: number }[],
  who: string,
  ms = 30,
) {
  let active = 0;
  return {
    overlaps: 0,
    job: {
      name,
      intervalMs: 20,
      async run() {
        active++;
        const start = performance.now();
        await sleep(ms);
        active--;
        runs.push({ who, start, end: performance.now() });
      },
    } satisfies RecurringJob,
    get active() {
      return active;
    },
  };
}

/** A task that doubles a number, refuses negatives with an AppError and crashes on zero. */
function doubler(who: string): Task<{ n: number }, { doubled: number; by: string }> {
  return {
    name: 'double',
    async run({ n }) {
      if (n < 0) throw new AppError('BACKTEST__NO_DATA', `no data for ${n}`);
      if (n === 0) throw new TypeError('zero');
      await sleep(20);
      return { doubled: n * 2, by: who };
    },
  };
}

function overlapping(runs: { start: number; end: number }[]): number {
  const sorted = [...runs].sort((a, b) => a.start - b.start);
  let overlaps = 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i]!.start < sorted[i - 1]!.end) overlaps++;
  return overlaps;
}

describe('in-process scheduler', () => {
  it('runs a job repeatedly and stop waits for the run in flight', async () => {
    const scheduler = createInProcessScheduler(log);
    const runs: { who: string; start: number; end: number }[] = [];
    const recorder = recordingJob('tick', runs, 'me', 50);
    scheduler.singleton(recorder.job);
    await scheduler.start();
    await scheduler.start();
    await sleep(200);
    await scheduler.stop();
    expect(recorder.active).toBe(0);
    const count = runs.length;
    expect(count).toBeGreaterThanOrEqual(2);
    await sleep(120);
    expect(runs).toHaveLength(count);
    await scheduler.stop();
  });

  it('keeps running after a failed run, and refuses a job registered once started', async () => {
    const scheduler = createInProcessScheduler(log);
    let calls = 0;
    scheduler.everyProcess({
      name: 'flaky',
      intervalMs: 10,
      async run() {
        calls++;
        if (calls === 1) throw new Error('first run fails');
      },
    });
    await scheduler.start();
    await sleep(100);
    expect(() => scheduler.singleton({ name: 'late', intervalMs: 10, run: async () => {} })).toThrow(
      /after the scheduler started/,
    );
    await scheduler.stop();
    expect(calls).toBeGreaterThan(1);
  });
});

describe('in-process tasks', () => {
  it('computes a submitted job here, rethrowing its AppError', async () => {
    const scheduler = createInProcessScheduler(log);
    scheduler.task(doubler('me'));
    expect(await scheduler.submit('double', { n: 21 }, { timeoutMs: 1000 })).toEqual({
      doubled: 42,
      by: 'me',
    });
    const refused = await scheduler.submit('double', { n: -1 }, { timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'BACKTEST__NO_DATA', message: 'no data for -1' });
    await expect(scheduler.submit('nothing', {}, { timeoutMs: 1000 })).rejects.toThrow(/no task 'nothing'/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('pg-boss scheduler (PostgreSQL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  }, 60_000);
  afterAll(() => database?.cleanup());

  const scheduler = (): JobScheduler =>
    createPgBossScheduler({
      connectionString: database.url!,
      log,
      leaseMs: 600,
      expireAfterMs: 2000,
      pollingIntervalMs: 500,
    });

  it('runs a singleton in one process at a time and hands it on when its holder stops', async () => {
    const runs: { who: string; start: number; end: number }[] = [];
    const [a, b] = [scheduler(), scheduler()];
    a.singleton(recordingJob('keeper', runs, 'a').job);
    b.singleton(recordingJob('keeper', runs, 'b').job);
    await Promise.all([a.start(), b.start()]);
    await sleep(4000);
    expect(runs.length).toBeGreaterThan(10);
    expect(overlapping(runs)).toBe(0);

    // The holder stops (a deploy): the other process carries on alone.
    const holder = runs.at(-1)!.who;
    await (holder === 'a' ? a : b).stop();
    const handedOver = runs.length;
    await sleep(2500);
    const after = runs.slice(handedOver);
    expect(after.length).toBeGreaterThan(3);
    expect(new Set(after.map((run) => run.who))).toEqual(new Set([holder === 'a' ? 'b' : 'a']));
    expect(overlapping(runs)).toBe(0);
    await Promise.all([a.stop(), b.stop()]);
  }, 30_000);

  it('hands a submitted task to a process that works it, with its answer or its AppError back', async () => {
    const [api, worker] = [scheduler(), scheduler()];
    worker.task(doubler('worker'));
    await Promise.all([api.start(), worker.start()]);
    const answers = await Promise.all(
      [1, 2, 3].map((n) => api.submit('double', { n }, { timeoutMs: 10_000 })),
    );
    expect(answers).toEqual([
      { doubled: 2, by: 'worker' },
      { doubled: 4, by: 'worker' },
      { doubled: 6, by: 'worker' },
    ]);
    const refused = await api.submit('double', { n: -5 }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'BACKTEST__NO_DATA', message: 'no data for -5', status: 422 });
    await expect(api.submit('double', { n: 0 }, { timeoutMs: 10_000 })).rejects.toThrow('zero');
    // Nobody works this one: the submitter gives up at its timeout.
    await expect(api.submit('nobody', { n: 1 }, { timeoutMs: 800 })).rejects.toBeInstanceOf(TaskTimeoutError);
    await Promise.all([api.stop(), worker.stop()]);
  }, 30_000);

  it('takes waiting jobs of a higher priority first (a user’s first backtest before others’ later ones)', async () => {
    const [api, worker] = [scheduler(), scheduler()];
    const order: number[] = [];
    worker.task<{ n: number }, number>({
      name: 'ordered',
      async run({ n }) {
        order.push(n);
        return n;
      },
    });
    await api.start();
    // Queued while no process works the queue, each once the one before is stored: two second
    // backtests, then a first one.
    const queued = async () => {
      const result = await database.database.db.execute(
        `select count(*)::int as n from pgboss.job where name = '${TASK_PREFIX}ordered'`,
      );
      return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
    };
    const submitted: Promise<number>[] = [];
    for (const [n, priority] of [
      [1, 2],
      [2, 2],
      [3, 3],
    ] as const) {
      submitted.push(api.submit('ordered', { n }, { timeoutMs: 20_000, priority }));
      await expect.poll(queued, { timeout: 10_000, interval: 50 }).toBe(n);
    }
    await worker.start();
    await Promise.all(submitted);
    expect(order).toEqual([3, 1, 2]);
    await Promise.all([api.stop(), worker.stop()]);
  }, 30_000);
});
