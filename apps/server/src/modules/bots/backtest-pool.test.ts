import { afterAll, describe, expect, it } from 'vitest';
import type { WireCandle } from '@solterm/engine';
import { pino } from 'pino';
import type { BacktestJob } from './backtest-job';
import { createBacktestPool } from './backtest-pool';
import { createPythonSandbox } from './sandbox/python-sandbox';

// One-minute candles of a zigzag: the SMA crossover trades on every turn.
const candles: WireCandle[] = Array.from({ length: 400_000 }, (_, i) => {
  const close = 100 + (i % 40 < 20 ? i % 20 : 20 - (i % 20));
  return { time: 60 * i, open: close, high: close + 0.5, low: close - 0.5, close, volume: 1 };
});
const job: BacktestJob = {
  strategy: { kind: 'builtin', type: 'sma_crossover', parameters: { short_window: 2, long_window: 5 } },
  risk: { amount: '0.001', maxPositions: 1, stopLossPercent: null, takeProfitPercent: null },
  candles,
  intervalSeconds: 60,
  interval: '1M',
  symbol: 'SOL/USDC',
  baseDecimals: 9,
  quoteDecimals: 6,
  quoteUsdPrice: '1',
  initialCash: '1000000000',
  seed: 1,
  cpuMs: 50,
};
const log = pino({ level: 'silent' });
// Never started: these jobs are built-ins, which run in the worker thread.
const python = createPythonSandbox({ log, timeLimitMs: 60_000 });
const pool = createBacktestPool({ log, timeLimitMs: 60_000, python });
afterAll(() => pool.close());

describe('the backtest worker pool', () => {
  it('ends a job past its time limit with the spec’s message', async () => {
    // A limit no job can meet (starting the thread alone takes longer).
    const strict = createBacktestPool({ log, timeLimitMs: 1, graceMs: 0, python });
    const error = await strict.run(job).catch((e: unknown) => e);
    await strict.close();
    expect(error).toMatchObject({
      code: 'BACKTEST__TIME_LIMIT',
      message: 'The backtest took longer than 0 s and was stopped. Shorten the range.',
    });
  }, 30_000);

  it('refuses a job when eight are already waiting', async () => {
    const small = { ...job, candles: candles.slice(0, 2000) };
    const running = Array.from({ length: 9 }, () => pool.run(small).catch((e: unknown) => e));
    const refused = await pool.run(small).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'BACKTEST__BUSY',
      message: 'Too many backtests are running. Please try again in a moment.',
    });
    await Promise.all(running);
  }, 60_000);
});
