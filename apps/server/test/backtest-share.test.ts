import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_CONFIG, ZBacktestResultSchema, type TBot } from '@solterm/contracts';
import { MAX_BACKTESTS_PER_USER } from '../src/modules/bots/backtest/backtest-pool';
import { bearer, call, createClock, createTestApp, registerUser, type TestApp } from './helpers/test-app';

const NOW = new Date('2026-01-15T12:00:00Z');
const RANGE = { start_date: '2025-12-01', end_date: '2025-12-31', initial_balance: 1000 };

// The backtest thread is shared fairly (part 2 backtests; SECURITY.md "shared workers"): one user's
// flood of backtests that compute until their time limit neither fills the queue for everyone (the
// whole server answered BACKTEST__BUSY for 9 × the limit) nor keeps another user's backtest waiting
// behind all of it.
describe('the backtest thread shared between users', () => {
  let app: TestApp;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    app = await createTestApp({
      clock: createClock(NOW),
      env: { MARKET_SEED: 'backtest-share', MARKET_TICK_MS: '3600000', BACKTEST_TIME_LIMIT_MS: '1500' },
    });
    alice = (await registerUser(app)).token;
    bob = (await registerUser(app)).token;
  });

  afterAll(async () => {
    await app?.close();
  });

  const post = <T>(url: string, token: string, payload: object) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(token) });
  const createBot = async (token: string, strategy: object) => {
    const { status, body } = await post<TBot>('/api/bots', token, {
      name: 'Bot',
      config: { ...DEFAULT_BOT_CONFIG, amount: 1 },
      ...strategy,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data.bot_id;
  };

  it('refuses a flooding user past their share and serves another user next', async () => {
    const spinner = await createBot(alice, {
      strategy_type: 'scalper',
      config: { ...DEFAULT_BOT_CONFIG, amount: 1, code: 'function onCandle() {\n  while (true) {}\n}' },
    });
    const sma = await createBot(bob, { strategy_type: 'sma_crossover' });
    const finished: string[] = [];
    const flood = Array.from({ length: 9 }, (_, i) =>
      post('/api/bots/backtest', alice, { ...RANGE, bot_id: spinner }).then((answer) => {
        if (answer.status !== 503) finished.push(`alice${i}`);
        return answer;
      }),
    );
    const bobs = post('/api/bots/backtest', bob, { ...RANGE, bot_id: sma }).then((answer) => {
      finished.push('bob');
      return answer;
    });

    const answer = await bobs;
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    expect(answer.response.headers['content-type']).toMatch(/^application\/json/);
    expect(ZBacktestResultSchema.parse(answer.body.data).candles).toBeGreaterThan(700);

    const floods = await Promise.all(flood);
    const refused = floods.filter((flooded) => flooded.status === 503);
    expect(refused).toHaveLength(9 - MAX_BACKTESTS_PER_USER);
    for (const busy of refused) {
      expect(busy.body).toMatchObject({
        success: false,
        error: 'Too many backtests are running. Please try again in a moment.',
      });
    }
    const computed = floods.filter((flooded) => flooded.status !== 503);
    for (const stopped of computed) {
      expect(stopped.status).toBe(422);
      expect(stopped.body.error).toBe('The strategy exceeded its CPU time limit of 1.5 s');
    }
    // Bob's came after all of Alice's and was served next: after the one running, before her others.
    expect(finished.indexOf('bob')).toBe(1);
    expect(finished).toHaveLength(MAX_BACKTESTS_PER_USER + 1);

    // Her share is hers again once her backtests are done.
    const again = await post('/api/bots/backtest', alice, { ...RANGE, bot_id: spinner });
    expect(again.status).toBe(422);
  }, 60_000);
});
