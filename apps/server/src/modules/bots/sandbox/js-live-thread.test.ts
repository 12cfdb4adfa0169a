import { afterAll, describe, expect, it } from 'vitest';
import { StrategyError, type CandleView } from '@solterm/engine';
import pino from 'pino';
import { createJsLiveThread, type JsLiveRun } from './js-live-thread';
import { LIVE_LOAD_CPU_MS, type SandboxLimits } from './js-strategy';
import { threadCpuMs } from './thread-cpu';

// The live JavaScript threads shared fairly: one user with the most running bots, every candle of
// each spinning to its budget (and starts whose code spins as it loads), keeps another user's candle
// (or start) waiting for the one job in flight at most; the runaway fails alone.

/** A live candle's budget, as live bots have it (live-strategy.ts). */
const CANDLE_MS = 50;
const LIMITS: SandboxLimits = { memoryBytes: 16 * 1024 * 1024, cpuMs: CANDLE_MS, stackBytes: 512 * 1024 };
/**
 * Room for what is not the bound itself on a shared, busy test machine (messages between threads,
 * the test's own event loop, a garbage collection, other processes on the cores); the typical wait
 * is held to the bound more tightly.
 */
const NOISE_MS = 450;
const TYPICAL_NOISE_MS = 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const MAX_RUNNING_BOTS = 5;

const thread = createJsLiveThread({ log: pino({ level: 'silent' }), threads: 1 });
afterAll(() => thread.close());

const candle = (time: number): CandleView => ({ time, open: 1, high: 1, low: 1, close: 1, volume: 1 });
const FLAT = { openLots: 0, maxPositions: 1, lastEntryPrice: Number.NaN };
const open = (owner: string, code: string) =>
  thread.open({ owner, code, parameters: {}, seed: 1, limits: LIMITS });
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};
// Counts its candles: its state survives whatever others do in the thread.
const COUNTER = 'let n = 0;\nfunction onCandle(c) { n += 1; return { action: "buy", reason: String(n) }; }';
const reasonOf = (intent: unknown) => (intent as { reason: string }).reason;

/**
 * The wall time `cpuMs` of compute takes on this machine now. A job's budget is CPU time, so on a
 * busy machine the job in flight holds its thread longer than its budget in wall time (every thread,
 * the victim's included, runs slower alike).
 */
function wallOfCpu(cpuMs: number): number {
  const started = performance.now();
  const cpuStarted = threadCpuMs();
  while (threadCpuMs() - cpuStarted < cpuMs);
  return Math.max(cpuMs, performance.now() - started);
}

/** Mallory's runs, each with `depth` candles queued at all times, every one spinning to its budget. */
function flood(runs: JsLiveRun[], depth: number) {
  let on = true;
  const failures: string[] = [];
  const loops = runs.map(async (run) => {
    while (on) {
      const results = await Promise.allSettled(
        Array.from({ length: depth }, (_, k) => run.step(candle(k * 60), FLAT)),
      );
      for (const result of results) {
        failures.push(result.status === 'rejected' ? (result.reason as Error).message : 'answered');
      }
      // Lets timers run should the thread answer at once (a replaced thread fails every step).
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  return {
    failures,
    async stop() {
      on = false;
      await Promise.all(loops);
    },
  };
}

describe('the live JavaScript threads, shared fairly among users', () => {
  it('a user’s spinning bots keep another user’s candle waiting one candle’s budget at most, and fail alone', async () => {
    const mallory = await Promise.all(
      Array.from({ length: MAX_RUNNING_BOTS }, () => open('mallory', 'function onCandle() { for (;;) {} }')),
    );
    const victor = await open('victor', COUNTER);
    const attack = flood(mallory, 10);
    await until(() => attack.failures.length >= MAX_RUNNING_BOTS);
    const candleWallMs = wallOfCpu(CANDLE_MS);
    const waits: number[] = [];
    const reasons: string[] = [];
    for (let k = 1; k <= 20; k += 1) {
      const started = performance.now();
      reasons.push(reasonOf(await victor.step(candle(k * 60), FLAT)));
      waits.push(performance.now() - started);
    }
    await attack.stop();
    // The bound: the job in flight when Victor's candle comes (one of Mallory's, ≤ its 50 ms budget),
    // then Victor's own compute; Mallory's 50 queued candles are behind him, not ahead.
    expect(median(waits)).toBeLessThan(candleWallMs + TYPICAL_NOISE_MS);
    expect(Math.max(...waits)).toBeLessThan(candleWallMs + NOISE_MS);
    // Each of Mallory's candles failed alone, over its own budget; Victor's state went on untouched
    // (no thread was replaced: his run counted every candle).
    expect(new Set(attack.failures)).toEqual(new Set(['The strategy exceeded its CPU time limit of 0.05 s']));
    expect(reasons).toEqual(Array.from({ length: 20 }, (_, k) => String(k + 1)));
    for (const run of [...mallory, victor]) run.dispose();
  });

  it('starts whose code spins as it loads keep another user’s start waiting one load’s budget at most', async () => {
    const busy = await Promise.all(
      Array.from({ length: MAX_RUNNING_BOTS }, () => open('mallory', 'function onCandle() { for (;;) {} }')),
    );
    const attack = flood(busy, 4);
    const spinning = Array.from({ length: 12 }, () =>
      open('mallory', 'for (;;) {}\nfunction onCandle() { return null; }').then(
        () => 'opened',
        (error: Error) =>
          error instanceof StrategyError ? error.message : `not the strategy's: ${error.message}`,
      ),
    );
    await until(() => attack.failures.length >= MAX_RUNNING_BOTS);
    const loadWallMs = wallOfCpu(LIVE_LOAD_CPU_MS);
    const started = performance.now();
    const victor = await open('victor', COUNTER);
    const waited = performance.now() - started;
    expect(reasonOf(await victor.step(candle(60), FLAT))).toBe('1');
    await attack.stop();
    expect(new Set(await Promise.all(spinning))).toEqual(
      new Set([`The strategy exceeded its CPU time limit of ${LIVE_LOAD_CPU_MS / 1000} s`]),
    );
    // The job in flight is at most one of Mallory's loads (250 ms) or candles (50 ms).
    expect(waited).toBeLessThan(loadWallMs + NOISE_MS);
    for (const run of [...busy, victor]) run.dispose();
  });

  it('warms a run in slices, as many candles as it is given, in order', async () => {
    const run = await open('wendy', COUNTER);
    await run.warm(
      Array.from({ length: 500 }, (_, k) => candle(k * 60)),
      FLAT,
    );
    expect(reasonOf(await run.step(candle(500 * 60), FLAT))).toBe('501');
    run.dispose();
  });

  it('gives a live strategy no clock, and date arithmetic on the candle’s time', async () => {
    const run = await open(
      'carol',
      `function onCandle(c) {
        const day = new Date(c.time * 1000).toISOString().slice(0, 10);
        if (c.time > 60) return { action: 'buy', reason: String(new Date()) };
        return { action: 'buy', reason: day };
      }`,
    );
    expect(reasonOf(await run.step(candle(60), FLAT))).toBe('1970-01-01');
    await expect(run.step(candle(120), FLAT)).rejects.toThrow(
      /the current date is not available to strategies: use candle\.time/,
    );
    run.dispose();
  });
});

describe('a live JavaScript thread starting', () => {
  it('charges its start (modules, the wasm compile) to no user: a job’s clock runs once the thread is ready', async () => {
    // A stuck job is taken for one 1 ms past its budget: a thread's start (hundreds of ms) counted
    // in the first job's time would fail that job as over budget.
    const fresh = createJsLiveThread({ log: pino({ level: 'silent' }), threads: 1, stuckGraceMs: 1 });
    try {
      const run = await fresh.open({
        owner: 'first',
        code: COUNTER,
        parameters: {},
        seed: 1,
        limits: LIMITS,
      });
      expect(reasonOf(await run.step(candle(60), FLAT))).toBe('1');
      run.dispose();
    } finally {
      await fresh.close();
    }
  });
});
