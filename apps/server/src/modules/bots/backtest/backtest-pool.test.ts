import { afterAll, describe, expect, it } from 'vitest';
import { ZBacktestResultSchema } from '@solterm/contracts';
import { PYTHON_TEMPLATES } from '@solterm/engine';
import { pino } from 'pino';
import type { RawCandle } from '../../market/market.service';
import { packCandles, type BacktestSpec } from './backtest-job';
import { createBacktestPool, MAX_BACKTESTS_PER_USER } from './backtest-pool';
import { createPythonSandbox } from '../sandbox/python-sandbox';

// One-minute candles of a zigzag, in USD, and a quote worth exactly 1 USD: the SMA crossover trades on
// every turn.
const base: RawCandle[] = Array.from({ length: 2000 }, (_, i) => {
  const close = 100 + (i % 40 < 20 ? i % 20 : 20 - (i % 20));
  return { time: 60 * i, open: close, high: close + 0.5, low: close - 0.5, close, volumeCents: 100 };
});
const quote: RawCandle[] = base.map(({ time }) => ({
  time,
  open: 1,
  high: 1,
  low: 1,
  close: 1,
  volumeCents: 100,
}));
// (A spec's candles move to the worker thread: each run gets its own.)
const job = (): BacktestSpec => ({
  strategy: { kind: 'builtin', type: 'sma_crossover', parameters: { short_window: 2, long_window: 5 } },
  risk: { amount: '0.001', maxPositions: 1, stopLossPercent: null, takeProfitPercent: null },
  legs: { base: packCandles(base), quote: packCandles(quote) },
  intervalSeconds: 60,
  interval: '1M',
  symbol: 'SOL/USDC',
  baseDecimals: 9,
  quoteDecimals: 6,
  quoteUsdPrice: '1',
  initialCash: '1000000000',
  seed: 1,
  cpuMs: 50,
});
/** A JavaScript strategy that computes until its CPU budget (ms) is spent. */
const spinner = (cpuMs: number): BacktestSpec => ({
  ...job(),
  strategy: { kind: 'javascript', code: 'function onCandle() { while (true) {} }', parameters: {} },
  cpuMs,
});
const log = pino({ level: 'silent' });
// Its processes start for the one Python job.
const python = createPythonSandbox({ log, timeLimitMs: 60_000 });
const pool = createBacktestPool({ log, timeLimitMs: 60_000, python });
afterAll(async () => {
  await pool.close();
  python.close();
});

describe('the backtest worker pool', () => {
  it('ends a job past its time limit with the spec’s message', async () => {
    // A limit no job can meet (starting the thread alone takes longer).
    const strict = createBacktestPool({ log, timeLimitMs: 1, graceMs: 0, python });
    const error = await strict.run(job(), 'alice').catch((e: unknown) => e);
    await strict.close();
    expect(error).toMatchObject({
      code: 'BACKTEST__TIME_LIMIT',
      message: 'The backtest took longer than 0 s and was stopped. Shorten the range.',
    });
  }, 30_000);

  it('answers the result as JSON text the API sends as it is', async () => {
    const json = await pool.run(job(), 'alice');
    expect(typeof json).toBe('string');
    const result = ZBacktestResultSchema.parse(JSON.parse(json));
    expect(result.candles).toBe(2000);
    expect(result.total_trades).toBeGreaterThan(10);
  }, 30_000);

  it('runs a Python job in its sandbox on the candles the thread divided, answered as JSON text', async () => {
    const json = await pool.run(
      {
        ...job(),
        strategy: { kind: 'python', code: PYTHON_TEMPLATES.sma_crossover, parameters: {} },
        cpuMs: 30_000,
      },
      'alice',
    );
    const result = ZBacktestResultSchema.parse(JSON.parse(json));
    expect(result.candles).toBe(2000);
    expect(result.total_trades).toBeGreaterThan(10);
  }, 60_000);

  it('says when the range asked for starts before the data (the run starts at the first candle)', async () => {
    const json = await pool.run({ ...job(), requestedFrom: -30 * 86_400, requestedTo: 60 * 1999 }, 'alice');
    const result = ZBacktestResultSchema.parse(JSON.parse(json));
    expect(result.start_date).toBe('1970-01-01T00:00:00.000Z');
    expect(result.requested_start_date).toBe('1969-12-02T00:00:00.000Z');
    expect(result.notices).toEqual([
      'No SOL/USDC data before 1970-01-01: the backtest starts there, not on 1969-12-02.',
    ]);
    const whole = ZBacktestResultSchema.parse(JSON.parse(await pool.run(job(), 'alice')));
    expect(whole.notices).toEqual([]);
  }, 30_000);

  it('tells each waiting job its place in the round as it changes, and its start at candle 0', async () => {
    const heard: Record<string, (string | number)[]> = {};
    const events = (name: string) => ({
      onQueue: (ahead: number) => (heard[name] ??= []).push(ahead),
      onProgress: (done: number) => done === 0 && (heard[name] ??= []).push('start'),
    });
    const runs = [
      pool.run(spinner(300), 'alice', events('alice1')).catch(() => null),
      pool.run(spinner(300), 'alice', events('alice2')).catch(() => null),
      pool.run(spinner(300), 'alice', events('alice3')).catch(() => null),
      pool.run(job(), 'bob', events('bob')),
    ];
    await Promise.all(runs);
    // Bob came last but goes second: Alice's second and third each move back one place.
    expect(heard).toEqual({
      alice1: ['start'],
      alice2: [1, 2, 1, 'start'],
      alice3: [2, 3, 2, 1, 'start'],
      bob: [1, 'start'],
    });
  }, 60_000);

  it('shares the thread fairly: a flooding user is refused past their share, another is served next', async () => {
    const finished: string[] = [];
    const track = (name: string, run: Promise<string>) =>
      run.then(
        () => finished.push(name),
        (error: unknown) => finished.push(`${name}:${(error as { code?: string }).code ?? 'error'}`),
      );
    // Alice's strategies each spin through a 400 ms budget; she may hold three backtests at once.
    const alice = Array.from({ length: MAX_BACKTESTS_PER_USER }, (_, i) =>
      track(`alice${i + 1}`, pool.run(spinner(400), 'alice')),
    );
    const refused = await pool.run(spinner(400), 'alice').catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'BACKTEST__BUSY',
      message: 'Too many backtests are running. Please try again in a moment.',
    });
    // Bob's comes after all of Alice's, and is served next: after her running one, before her others.
    const bob = track('bob', pool.run(job(), 'bob'));
    await Promise.all([...alice, bob]);
    expect(finished).toEqual([
      'alice1:BACKTEST__STRATEGY_FAILED',
      'bob',
      'alice2:BACKTEST__STRATEGY_FAILED',
      'alice3:BACKTEST__STRATEGY_FAILED',
    ]);
    // Her share is free again once her backtests are done.
    await expect(pool.run(job(), 'alice')).resolves.toEqual(expect.any(String));
  }, 60_000);

  it('refuses a job whose candles would pass what waiting jobs may hold', async () => {
    // Room for two waiting jobs' candles (2,000 candles, two legs, six doubles each).
    const tight = createBacktestPool({ log, timeLimitMs: 60_000, python, maxWaitingBytes: 2 * 192_000 });
    const held = ['a', 'b', 'c'].map((user) => tight.run(spinner(50), user).catch((e: unknown) => e));
    const refused = await tight.run(job(), 'd').catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'BACKTEST__BUSY' });
    await Promise.all(held);
    await expect(tight.run(job(), 'd')).resolves.toEqual(expect.any(String));
    await tight.close();
  }, 60_000);

  it('refuses anyone once 24 backtests wait in all', async () => {
    const users = Array.from({ length: 9 }, (_, i) => `user${i}`);
    // 27 asked: one runs, 24 wait, the 26th and 27th are refused.
    const held = users.flatMap((user) =>
      Array.from({ length: 3 }, () => pool.run(spinner(50), user).catch((e: unknown) => e)),
    );
    const refused = await pool.run(job(), 'newcomer').catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'BACKTEST__BUSY' });
    const outcomes = await Promise.all(held);
    expect(
      outcomes.filter((outcome) => (outcome as { code?: string }).code === 'BACKTEST__BUSY'),
    ).toHaveLength(2);
  }, 60_000);
});
