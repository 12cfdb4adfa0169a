import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessScheduler } from '../src/jobs/in-process-scheduler';
import { createPgBossScheduler } from '../src/jobs/pg-boss-scheduler';
import type { JobScheduler, RecurringJob } from '../src/jobs/scheduler';
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
});
