import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_BOT_CONFIG,
  ZBacktestResultSchema,
  ZOptimizationSchema,
  type TBot,
  type TOptimization,
  type TOptimizationProgress,
} from '@solterm/contracts';
import { MAX_BACKTESTS_PER_USER } from '../src/modules/bots/backtest/backtest-pool';
import { bearer, call, createClock, createTestApp, registerUser, type TestApp } from './helpers/test-app';
import { listen, TestSocket } from './helpers/ws-client';

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

  // The optimiser (POST /api/bots/optimize) runs its trials as jobs of this same shared thread.
  describe('the parameter optimiser', () => {
    let url: string | undefined;
    const SMA_RANGE = { ...RANGE, start_date: '2025-12-01', end_date: '2025-12-20' };
    const walk = { folds: 2, train_fraction: 0.7 };
    const optimise = (token: string, body: object) =>
      post<{ optimization_id: string }>('/api/bots/optimize', token, body);
    const read = async (token: string, id: string) =>
      call<TOptimization>(app, { method: 'GET', url: `/api/bots/optimize/${id}`, headers: bearer(token) });
    /** The socket's optimization_progress pushes of `id` until it ends (completed, cancelled or failed). */
    const until = async (socket: TestSocket, id: string, states = ['completed', 'cancelled', 'failed']) => {
      const seen: TOptimizationProgress[] = [];
      for (;;) {
        const message = await socket.next();
        if (message.type !== 'optimization_progress') continue;
        const data = message.data as TOptimizationProgress;
        if (data.optimization_id !== id) continue;
        seen.push(data);
        if (states.includes(data.state)) return seen;
      }
    };
    const socketOf = async (token: string) => TestSocket.authenticated((url ??= await listen(app)), token);

    it('visits every point of a grid, folds after folds, the best by out-of-sample objective, repeatably', async () => {
      const sma = await createBot(alice, { strategy_type: 'sma_crossover' });
      const aliceSocket = await socketOf(alice);
      const bobSocket = await socketOf(bob);
      const body = {
        ...SMA_RANGE,
        bot_id: sma,
        parameters: { short_window: { min: 3, max: 5, step: 1 }, long_window: { min: 20, max: 30, step: 5 } },
        objective: 'total_return',
        method: 'grid',
        max_trials: 9,
        walk_forward: walk,
      };
      const started = await optimise(alice, body);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const id = started.body.data.optimization_id;
      const pushes = await until(aliceSocket, id);
      expect(pushes.at(-1)).toMatchObject({ state: 'completed', trials_done: 9, trials_total: 9 });
      expect(pushes[0]!.state).toBe('queued');
      expect((await bobSocket.drain()).filter((message) => message.type === 'optimization_progress')).toEqual(
        [],
      );

      const result = ZOptimizationSchema.parse((await read(alice, id)).body.data);
      const points = result.trials.map(
        (trial) => `${trial.parameters.short_window}/${trial.parameters.long_window}`,
      );
      expect(points.sort()).toEqual(['3/20', '3/25', '3/30', '4/20', '4/25', '4/30', '5/20', '5/25', '5/30']);
      for (const trial of result.trials) {
        expect(trial.error).toBeNull();
        expect(trial.folds).toHaveLength(2);
        for (const fold of trial.folds) {
          // Trained strictly before it is tested, each window its own candles.
          expect(Date.parse(fold.train.end)).toBeLessThanOrEqual(Date.parse(fold.test.start));
          expect(fold.in_sample.candles).toBe(fold.train.candles);
          expect(fold.out_of_sample.candles).toBe(fold.test.candles);
        }
        expect(Date.parse(trial.folds[0]!.test.end)).toBeLessThanOrEqual(
          Date.parse(trial.folds[1]!.train.start),
        );
      }
      const bestOos = Math.max(...result.trials.map((trial) => trial.out_of_sample_objective!));
      expect(result.best?.out_of_sample_objective).toBe(bestOos);
      const best = result.trials.find((trial) => trial.index === result.best!.index)!;
      expect(result.overfitting_warning !== null).toBe(
        best.in_sample_objective! > 0 && best.out_of_sample_objective! < best.in_sample_objective! / 2,
      );
      // Only its owner reads or cancels it.
      expect((await read(bob, id)).status).toBe(404);
      expect((await post(`/api/bots/optimize/${id}/cancel`, bob, {})).status).toBe(404);

      // The same request (the same seed) gives the same trials.
      const again = await optimise(alice, body);
      expect(again.status).toBe(200);
      await until(aliceSocket, again.body.data.optimization_id);
      const repeat = ZOptimizationSchema.parse(
        (await read(alice, again.body.data.optimization_id)).body.data,
      );
      expect(repeat.trials).toEqual(result.trials);
      expect(repeat.best).toEqual(result.best);
      await aliceSocket.close();
      await bobSocket.close();
    }, 60_000);

    it('never trains a fold on its test window: a strategy that could only score there by peeking trades nothing in-sample', async () => {
      // It buys at the candle of hour `at` and exits at the next: its whole score is one move, which
      // only a run holding that hour's candles can make. Tried at every other hour of two days.
      const code = [
        'function onCandle(candle, ctx) {',
        '  const hour = candle.time / 3600;',
        "  if (hour === params.at) return { action: 'buy', reason: 'peek' };",
        "  if (hour === params.at + 1 && ctx.openLots > 0) return { action: 'exit', reason: 'peek' };",
        '  return null;',
        '}',
      ].join('\n');
      const peeker = await createBot(alice, {
        strategy_type: 'scalper',
        config: { ...DEFAULT_BOT_CONFIG, amount: 1, code, parameters: { at: 0 } },
      });
      const first = Date.parse('2025-12-01T00:00:00Z') / 3_600_000;
      const socket = await socketOf(alice);
      const started = await optimise(alice, {
        bot_id: peeker,
        start_date: '2025-12-01T00:00:00Z',
        end_date: '2025-12-02T23:00:00Z',
        initial_balance: 1000,
        parameters: { at: { min: first, max: first + 46, step: 2 } },
        objective: 'total_return',
        method: 'grid',
        max_trials: 24,
        walk_forward: { folds: 2, train_fraction: 0.5 },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const id = started.body.data.optimization_id;
      expect((await until(socket, id)).at(-1)!.state).toBe('completed');
      const result = ZOptimizationSchema.parse((await read(alice, id)).body.data);
      expect(result.trials).toHaveLength(24);
      let inTest = 0;
      for (const trial of result.trials) {
        expect(trial.error).toBeNull();
        const at = trial.parameters.at! * 3600_000;
        for (const fold of trial.folds) {
          const inWindow = (window: { start: string; end: string }) =>
            at >= Date.parse(window.start) && at + 3600_000 < Date.parse(window.end);
          if (inWindow(fold.test)) {
            inTest += 1;
            // Its hour is in the test window: the in-sample run never saw it, nor any later candle.
            expect(fold.in_sample.total_trades).toBe(0);
            expect(fold.out_of_sample.total_trades).toBeGreaterThan(0);
          }
          if (inWindow(fold.train)) {
            expect(fold.in_sample.total_trades).toBeGreaterThan(0);
            expect(fold.out_of_sample.total_trades).toBe(0);
          }
        }
      }
      expect(inTest).toBeGreaterThanOrEqual(8);
      await socket.close();
    }, 60_000);

    it('stops at a cancel: the running trial is ended and no further trial is run', async () => {
      const spinner = await createBot(alice, {
        strategy_type: 'scalper',
        config: {
          ...DEFAULT_BOT_CONFIG,
          amount: 1,
          code: 'function onCandle() {\n  while (true) {}\n}',
          parameters: { x: 1 },
        },
      });
      const sma = await createBot(alice, { strategy_type: 'sma_crossover' });
      const socket = await socketOf(alice);
      const started = await optimise(alice, {
        ...SMA_RANGE,
        bot_id: spinner,
        parameters: { x: { min: 1, max: 10, step: 1 } },
        objective: 'sharpe',
        method: 'grid',
        max_trials: 10,
        walk_forward: walk,
      });
      expect(started.status).toBe(200);
      const id = started.body.data.optimization_id;
      await until(socket, id, ['running']);
      // One at a time per user.
      const second = await optimise(alice, {
        ...SMA_RANGE,
        bot_id: sma,
        parameters: { short_window: { min: 3, max: 4, step: 1 } },
        objective: 'sharpe',
        method: 'grid',
        max_trials: 2,
        walk_forward: walk,
      });
      expect(second.status).toBe(409);
      const cancel = await post<{ cancelled: boolean }>(`/api/bots/optimize/${id}/cancel`, alice, {});
      expect(cancel.body.data).toMatchObject({ cancelled: true, state: 'cancelled' });
      const after = (await read(alice, id)).body.data;
      expect(after.state).toBe('cancelled');
      // A backtest of hers goes through the thread next; by then nothing more was recorded.
      const backtest = await post('/api/bots/backtest', alice, { ...SMA_RANGE, bot_id: sma });
      expect(backtest.status).toBe(200);
      const final = (await read(alice, id)).body.data;
      expect(final.trials_done).toBe(after.trials_done);
      expect(final.trials).toHaveLength(after.trials_done);
      expect(final.trials_done).toBeLessThan(10);
      // And she may start another now.
      const next = await optimise(alice, {
        ...SMA_RANGE,
        bot_id: sma,
        parameters: { short_window: { min: 3, max: 4, step: 1 } },
        objective: 'sharpe',
        method: 'random',
        max_trials: 2,
        walk_forward: walk,
      });
      expect(next.status).toBe(200);
      expect((await until(socket, next.body.data.optimization_id)).at(-1)!.state).toBe('completed');
      await socket.close();
    }, 60_000);

    it('refuses every bad field with a 4xx that says what is wrong', async () => {
      // A user of its own: starts are limited per session (OPTIMIZE_RATE_LIMIT), refused ones too.
      const alice = (await registerUser(app)).token;
      const sma = await createBot(alice, { strategy_type: 'sma_crossover' });
      const bobs = await createBot(bob, { strategy_type: 'sma_crossover' });
      const good = {
        ...SMA_RANGE,
        bot_id: sma,
        parameters: { short_window: { min: 3, max: 4, step: 1 } },
        objective: 'sharpe',
        method: 'grid',
        max_trials: 10,
        walk_forward: walk,
      };
      const bad: Array<[string, object, number, RegExp]> = [
        ['bot_id', { bot_id: 'nope' }, 400, /bot/i],
        ['bot_id', { bot_id: bobs }, 404, /Bot not found/],
        ['start_date', { start_date: 'yesterday' }, 400, /ISO 8601/],
        ['end_date', { end_date: '2025-11-01' }, 400, /before end date/],
        ['initial_balance', { initial_balance: 50 }, 400, /at least 100/],
        ['initial_balance', { initial_balance: 150 }, 400, /multiple of 100/],
        ['parameters', { parameters: {} }, 400, /at least one parameter/],
        ['parameters', { parameters: { 'bad name': { min: 1, max: 2, step: 1 } } }, 400, /bad name/],
        [
          'parameters',
          { parameters: { short_window: { min: 5, max: 3, step: 1 } } },
          400,
          /min must not exceed max/,
        ],
        [
          'parameters',
          { parameters: { short_window: { min: 3, max: 5, step: 0 } } },
          400,
          /step must be a positive/,
        ],
        ['parameters', { parameters: { short_window: { min: 3, max: 5 } } }, 400, /step/],
        [
          'parameters',
          { parameters: { nope: { min: 1, max: 2, step: 1 } } },
          400,
          /not a parameter of this strategy/,
        ],
        [
          'parameters',
          { parameters: { short_window: { min: 0, max: 5, step: 1 } } },
          400,
          /within 1 to 10000/,
        ],
        ['parameters', { parameters: { short_window: { min: 3, max: 5, step: 0.5 } } }, 400, /whole numbers/],
        ['objective', { objective: 'luck' }, 400, /objective must be one of/],
        ['method', { method: 'genetic' }, 400, /grid or random/],
        ['max_trials', { max_trials: 0 }, 400, /max_trials/],
        ['max_trials', { max_trials: 501 }, 400, /max_trials/],
        ['max_trials', { max_trials: 2.5 }, 400, /max_trials/],
        ['max_trials', { max_trials: 1 }, 400, /grid holds 2 points/],
        ['walk_forward', { walk_forward: { folds: 1, train_fraction: 0.7 } }, 400, /folds/],
        ['walk_forward', { walk_forward: { folds: 11, train_fraction: 0.7 } }, 400, /folds/],
        ['walk_forward', { walk_forward: { folds: 2, train_fraction: 0.4 } }, 400, /train_fraction/],
        ['walk_forward', { walk_forward: { folds: 2, train_fraction: 0.95 } }, 400, /train_fraction/],
        ['walk_forward', { walk_forward: undefined }, 400, /walk_forward/],
        [
          'costs',
          { costs: { model: 'fixed', fee_bps: 1001 } },
          400,
          /costs.fee_bps must be at most 1000 bps/,
        ],
        ['costs', { costs: { fee_bps: 10 } }, 400, /apply to costs.model 'fixed' only/],
        ['extra', { surprise: 1 }, 400, /surprise|Unrecognized/i],
        [
          'work',
          {
            start_date: '2019-01-01',
            end_date: '2025-12-31',
            parameters: {
              short_window: { min: 2, max: 100, step: 1 },
              long_window: { min: 150, max: 154, step: 1 },
            },
            max_trials: 500,
          },
          400,
          /more than the 10,000,000 candles/,
        ],
        [
          'folds',
          {
            start_date: '2025-12-01',
            end_date: '2025-12-01T03:00:00Z',
            walk_forward: { folds: 2, train_fraction: 0.5 },
          },
          400,
          /too few for 2 folds/,
        ],
      ];
      for (const [field, change, status, message] of bad) {
        const answer = await optimise(alice, { ...good, ...change });
        expect(answer.status, `${field} ${JSON.stringify(change)}: ${JSON.stringify(answer.body)}`).toBe(
          status,
        );
        expect(JSON.stringify(answer.body), field).toMatch(message);
      }
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await read(alice, unknown)).status).toBe(404);
      expect((await read(alice, 'not-a-uuid')).status).toBe(400);
      expect((await post(`/api/bots/optimize/${unknown}/cancel`, alice, {})).status).toBe(404);
    });
  });
});
