import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_BOT_CONFIG,
  ZBotDetailSchema,
  ZBotSchema,
  type TBot,
  type TBotDetail,
} from '@solterm/contracts';
import { JAVASCRIPT_TEMPLATES, PYTHON_TEMPLATES } from '@solterm/engine';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { listen, TestSocket } from './helpers/ws-client';

// Paper bots: started through the API, advanced by the runner's passes on a test clock over the
// market simulator's minutes, stopped, completed, failed; rebuilt by replay after a restart; a
// Python bot (its own sandbox process, a candle at a time) trades exactly as the built-in.

const NOW = new Date('2026-01-15T12:00:30Z');
const MINUTE = 60_000;
const SMA_1M = {
  name: 'SMA 1m',
  strategy_type: 'sma_crossover',
  config: {
    ...DEFAULT_BOT_CONFIG,
    amount: 0.5,
    interval: '1M',
    parameters: { short_window: 3, long_window: 8 },
  },
};

describe.each(databaseTargets())('paper bots on %s', (target) => {
  let database: TestDatabase;
  let app: TestApp;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({
      database,
      clock: createClock(NOW),
      // No background jobs: the test drives the runner's passes itself, on its clock.
      env: { MARKET_SEED: 'paper-bots', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    alice = (await registerUser(app)).token;
    bob = (await registerUser(app)).token;
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const post = <T>(url: string, token: string, payload: object = {}) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(token) });
  const bots = async (token: string) =>
    (await call<TBot[]>(app, { method: 'GET', url: '/api/bots', headers: bearer(token) })).body.data;
  const createBot = async (token: string, overrides: Record<string, unknown> = {}) => {
    const { status, body } = await post<TBot>('/api/bots', token, { ...SMA_1M, ...overrides });
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data;
  };
  const pass = () => app.botRunner.pass();
  const fills = (botId: string) =>
    database.database.db.execute(
      `select seq, side, base_amount, quote_amount, pnl, reason, extract(epoch from time)::int as t
         from bot_fills where bot_id = '${botId}' order by seq`,
    ) as unknown as Promise<{ rows: Record<string, unknown>[] }>;

  it('trades live candles at the venue’s prices; a replayed run, a Python one and a JavaScript one trade exactly as the built-in that never stopped', async () => {
    const url = await listen(app);
    const socket = await TestSocket.authenticated(url, alice);
    const [steady, replayed] = [
      await createBot(alice, { name: 'Steady' }),
      await createBot(alice, { name: 'Replayed' }),
    ];
    // The same strategy as the user's Python (its template), in its sandbox process, a candle at a time.
    const python = await createBot(alice, {
      name: 'Python SMA',
      strategy_type: 'trend',
      config: { ...SMA_1M.config, code: PYTHON_TEMPLATES.sma_crossover, language: 'python' },
    });
    const javascript = await createBot(alice, {
      name: 'JS SMA',
      strategy_type: 'trend',
      config: { ...SMA_1M.config, code: JAVASCRIPT_TEMPLATES.sma_crossover },
    });
    // The same bot sized at 30 % of its equity: a live run sizes its buys as its backtests do.
    const sized = await createBot(alice, {
      name: 'Sized',
      config: { ...SMA_1M.config, sizing: { mode: 'percent_equity', value: 30 } },
    });
    for (const bot of [steady, replayed, python, javascript, sized]) {
      const { status, body } = await post<TBot>(`/api/bots/${bot.bot_id}/start`, alice);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(ZBotSchema.parse(body.data)).toMatchObject({
        status: 'running',
        is_running: true,
        network_mode: 'test',
      });
    }
    const started = await socket.drain();
    expect(
      started.filter((m) => m.type === 'bot_status_change').map((m) => (m.data as { status: string }).status),
    ).toEqual(['running', 'running', 'running', 'running', 'running']);

    app.clock.advance(45 * MINUTE);
    await pass();
    // The "restart": this process forgets Replayed; its next pass rebuilds it by replaying its candles.
    const running = (await database.database.db.execute(
      `select id from bot_runs where bot_id = '${replayed.bot_id}'`,
    )) as unknown as { rows: { id: string }[] };
    app.botRunner.forget(running.rows[0]!.id);
    app.clock.advance(45 * MINUTE);
    await pass();

    const [a, b] = [await fills(steady.bot_id), await fills(replayed.bot_id)];
    expect(a.rows.length).toBeGreaterThan(4);
    expect(b.rows).toEqual(a.rows);
    expect((await fills(python.bot_id)).rows).toEqual(a.rows);
    expect((await fills(javascript.bot_id)).rows).toEqual(a.rows);
    // Sized: the same signals; each buy (flat before it: one position) spends at most 30 % of the
    // cash then, fees and slippage included, and nearly all of it (the largest amount that fits).
    const bySize = (await fills(sized.bot_id)).rows;
    expect(bySize.map((row) => [row.side, row.t])).toEqual(a.rows.map((row) => [row.side, row.t]));
    let cash = 1_000_000_000n;
    for (const row of bySize) {
      if (row.side === 'Buy') {
        const budget = (cash * 30n) / 100n;
        expect(BigInt(row.quote_amount as string) <= budget).toBe(true);
        expect(BigInt(row.quote_amount as string) * 1000n > budget * 995n).toBe(true);
        expect(row.base_amount).not.toBe('500000000');
      } else {
        cash += BigInt(row.pnl as string);
      }
    }
    // Every fill is inside the run: from the candle forming at the start to the last one closed.
    const startMinute = Math.floor(NOW.getTime() / MINUTE) * 60;
    expect(a.rows.every((row) => (row.t as number) >= startMinute)).toBe(true);

    const listed = (await bots(alice)).find((bot) => bot.bot_id === steady.bot_id)!;
    expect(listed.total_trades).toBe(a.rows.filter((row) => row.side === 'Sell').length);
    expect(listed.started_at).toBe(NOW.toISOString());
    expect(listed.estimated_completion).toBe(new Date(NOW.getTime() + 24 * 60 * MINUTE).toISOString());
    expect(listed.current_task).toMatch(/^Next 1M candle closes at \d\d:\d\d UTC$/);
    expect(listed.progress_percentage).toBe(6); // 90 of 1,440 minutes
    const pnl = a.rows.reduce((sum, row) => sum + (row.pnl === null ? 0 : Number(row.pnl)), 0) / 1e6;
    expect(listed.total_pnl).toBeCloseTo(pnl, 6);
    expect(listed.current_balance).toBeGreaterThan(900);

    // The owner's detail view: the run with its length, the same fills newest first and paged.
    const detailOf = (token: string, botId: string, query = '') =>
      call<TBotDetail>(app, {
        method: 'GET',
        url: `/api/bots/${botId}/detail${query}`,
        headers: bearer(token),
      });
    const detail = ZBotDetailSchema.parse((await detailOf(alice, steady.bot_id)).body.data);
    const sells = a.rows.filter((row) => row.side === 'Sell');
    expect(detail.run).toMatchObject({
      mode: 'test',
      status: 'running',
      fills: a.rows.length,
      trades: sells.length,
      duration_seconds: 90 * 60,
      initial_balance: 1000,
    });
    expect(detail.run!.realised_pnl).toBeCloseTo(pnl, 6);
    expect(detail.runs).toHaveLength(1);
    expect(detail.fills.total).toBe(a.rows.length);
    expect(detail.fills.items.map((fill) => fill.seq)).toEqual(
      a.rows.map((row) => row.seq as number).reverse(),
    );
    const page = (await detailOf(alice, steady.bot_id, '?limit=2&offset=1')).body.data.fills;
    expect(page.items.map((fill) => fill.seq)).toEqual([a.rows.length - 2, a.rows.length - 3]);
    expect(page).toMatchObject({ total: a.rows.length, limit: 2, offset: 1 });
    const firstSell = detail.fills.items.find((fill) => fill.side === 'Sell')!;
    const sellRow = a.rows.find((row) => row.seq === firstSell.seq)!;
    expect(firstSell.pnl).toBeCloseTo(Number(sellRow.pnl) / 1e6, 6);
    expect(firstSell.price).toBeCloseTo(
      Number(sellRow.quote_amount) / 1e6 / (Number(sellRow.base_amount) / 1e9),
      4,
    );
    // Equity: the start, one point after each fill, and now at the live price while it runs.
    expect(detail.equity).toHaveLength(a.rows.length + 2);
    expect(detail.equity[0]).toEqual({ time: NOW.toISOString(), value: 1000 });
    expect(detail.errors).toEqual([]);
    // Another user's bot, a run of another bot and a page too large are refused.
    expect((await detailOf(bob, steady.bot_id)).status).toBe(404);
    expect((await detailOf(bob, steady.bot_id)).body.error).toBe('Bot not found');
    const otherRun = (await detailOf(alice, replayed.bot_id)).body.data.run!.run_id;
    expect((await detailOf(alice, steady.bot_id, `?run_id=${otherRun}`)).status).toBe(404);
    expect((await detailOf(alice, steady.bot_id, '?limit=101')).status).toBe(400);

    const timing = (await socket.drain()).filter((m) => m.type === 'bot_timing_update');
    expect(timing.length).toBeGreaterThanOrEqual(2);
    expect(timing.at(-1)!.data).toMatchObject({ bot_id: expect.any(String), started_at: NOW.toISOString() });
    await socket.close();
    for (const bot of [steady, replayed, python, javascript, sized])
      await post(`/api/bots/${bot.bot_id}/stop`, alice);
    // Saving the Python bot loads it in a sandbox process first (seconds on a busy machine).
  }, 90_000);

  it('shows the owner a run’s open position and its unrealized PnL at the live price', async () => {
    // Buys on its first two candles (max 2 positions) and never sells: two open lots.
    const holder = await createBot(alice, {
      name: 'Holder',
      strategy_type: 'trend',
      config: {
        ...SMA_1M.config,
        max_positions: 2,
        stop_loss_percentage: 99,
        take_profit_percentage: 10_000,
        code: "function onCandle() {\n  return { action: 'buy', reason: 'hold' };\n}",
      },
    });
    expect((await post(`/api/bots/${holder.bot_id}/start`, alice)).status).toBe(200);
    app.clock.advance(10 * MINUTE);
    await pass();
    const rows = (await fills(holder.bot_id)).rows;
    expect(rows.map((row) => row.side)).toEqual(['Buy', 'Buy']);
    const { status, body } = await call<TBotDetail>(app, {
      method: 'GET',
      url: `/api/bots/${holder.bot_id}/detail`,
      headers: bearer(alice),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const { position } = body.data;
    const base = rows.reduce((sum, row) => sum + BigInt(row.base_amount as string), 0n);
    const cost = rows.reduce((sum, row) => sum + BigInt(row.quote_amount as string), 0n);
    expect(position!.base_amount).toBe(Number(base) / 1e9);
    expect(position!.cost).toBeCloseTo(Number(cost) / 1e6, 6);
    // The live price is the market's pair price now (quote per base), not a fill's.
    const pair = await call<{ price: number }>(app, { method: 'GET', url: '/api/trading/pair/SOL-USDC' });
    expect(position!.live_price).toBeCloseTo(pair.body.data.price, 4);
    expect(position!.market_value).toBeCloseTo((Number(base) / 1e9) * position!.live_price!, 4);
    expect(position!.unrealized_pnl).toBeCloseTo(position!.market_value! - Number(cost) / 1e6, 5);
    expect(body.data.equity.at(-1)!.value).toBeCloseTo(
      1000 - Number(cost) / 1e6 + position!.market_value!,
      4,
    );
    await post(`/api/bots/${holder.bot_id}/stop`, alice);
  });

  it('refuses a second start, a delete while running, and another user’s start or stop', async () => {
    const bot = await createBot(alice, { name: 'Guarded' });
    expect((await post(`/api/bots/${bot.bot_id}/start`, alice)).status).toBe(200);
    const twice = await post(`/api/bots/${bot.bot_id}/start`, alice);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('The bot is already running');
    const deleting = await call(app, {
      method: 'DELETE',
      url: `/api/bots/${bot.bot_id}`,
      headers: bearer(alice),
    });
    expect(deleting.status).toBe(409);
    expect(deleting.body.error).toBe('Stop the bot before deleting it');
    for (const action of ['start', 'stop']) {
      const stranger = await post(`/api/bots/${bot.bot_id}/${action}`, bob);
      expect(stranger.status).toBe(404);
      expect(stranger.body.error).toBe('Bot not found');
    }
    const stopped = await post<TBot>(`/api/bots/${bot.bot_id}/stop`, alice);
    expect(stopped.body.data).toMatchObject({
      status: 'stopped',
      is_running: false,
      current_task: null,
      started_at: null,
    });
    expect((await post<TBot>(`/api/bots/${bot.bot_id}/stop`, alice)).status).toBe(200);
    expect(
      (await call(app, { method: 'DELETE', url: `/api/bots/${bot.bot_id}`, headers: bearer(alice) })).status,
    ).toBe(200);
  });

  it('runs at most five bots of one user at once', async () => {
    const carol = (await registerUser(app)).token;
    const six = [];
    for (let index = 0; index < 6; index += 1) six.push(await createBot(carol, { name: `Carol ${index}` }));
    const answers = await Promise.all(six.map((bot) => post(`/api/bots/${bot.bot_id}/start`, carol)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error).toBe(
      'You can run at most 5 bots at once. Stop one to start another.',
    );
    const stopped = six.find((_, index) => answers[index]!.status === 200)!;
    const refused = six.find((_, index) => answers[index]!.status === 409)!;
    expect((await post(`/api/bots/${stopped.bot_id}/stop`, carol)).status).toBe(200);
    expect((await post(`/api/bots/${refused.bot_id}/start`, carol)).status).toBe(200);
    for (const bot of six) await post(`/api/bots/${bot.bot_id}/stop`, carol);
  });

  it('stops a run when its hours are over, and fails one whose code throws or spins', async () => {
    const brief = await createBot(alice, { name: 'Brief', config: { ...SMA_1M.config, run_hours: 1 } });
    const thrower = await createBot(alice, {
      name: 'Thrower',
      strategy_type: 'trend',
      config: {
        ...SMA_1M.config,
        code: 'let n = 0;\nfunction onCandle() {\n  if (++n > 3) throw new Error("tired");\n  return null;\n}',
      },
    });
    const spinner = await createBot(alice, {
      name: 'Spinner',
      strategy_type: 'scalper',
      config: { ...SMA_1M.config, code: 'function onCandle() {\n  while (true) {}\n}' },
    });
    for (const bot of [brief, thrower, spinner])
      expect((await post(`/api/bots/${bot.bot_id}/start`, alice)).status).toBe(200);

    app.clock.advance(90 * MINUTE);
    await pass();
    const listed = await bots(alice);
    const statusOf = (id: string) => listed.find((bot) => bot.bot_id === id)!.status;
    expect(statusOf(brief.bot_id)).toBe('stopped');
    expect(statusOf(thrower.bot_id)).toBe('failed');
    // A run that ran its hours keeps its timing, so its card says Completed (part 2 §2); one that
    // failed or was stopped does not.
    const completed = listed.find((bot) => bot.bot_id === brief.bot_id)!;
    expect(completed).toMatchObject({ progress_percentage: 100, current_task: null });
    expect(Date.parse(completed.estimated_completion!)).toBeLessThanOrEqual(app.clock.now().getTime());
    expect(completed.started_at).not.toBeNull();
    expect(listed.find((bot) => bot.bot_id === thrower.bot_id)!.estimated_completion).toBeNull();
    const runs = (await database.database.db.execute(
      `select bot_id, message from bot_runs where bot_id in ('${brief.bot_id}', '${thrower.bot_id}', '${spinner.bot_id}')`,
    )) as unknown as { rows: { bot_id: string; message: string }[] };
    const messageOf = (id: string) => runs.rows.find((row) => row.bot_id === id)!.message;
    expect(messageOf(brief.bot_id)).toBe('Completed: the bot ran its 1 h');
    // Warm-up feeds the strategy too: it throws on its fourth candle, before the run trades.
    expect(messageOf(thrower.bot_id)).toBe('The bot stopped: Error: tired (strategy.js line 3)');
    const thrown = await call<TBotDetail>(app, {
      method: 'GET',
      url: `/api/bots/${thrower.bot_id}/detail`,
      headers: bearer(alice),
    });
    expect(thrown.body.data.errors).toEqual([
      {
        run_id: thrown.body.data.run!.run_id,
        time: expect.any(String),
        message: 'The bot stopped: Error: tired (strategy.js line 3)',
      },
    ]);
    // Live runs share the event loop: a spinning strategy gets 50 ms of a candle, then it is stopped.
    expect(messageOf(spinner.bot_id)).toBe(
      'The bot stopped: The strategy exceeded its CPU time limit of 0.05 s',
    );
  });

  it('limits how often one session starts bots (30 a minute, counted per session)', async () => {
    const dave = (await registerUser(app)).token;
    const bot = await createBot(dave, { name: 'Flapper' });
    const statuses: number[] = [];
    for (let index = 0; index < 31; index += 1) {
      statuses.push((await post(`/api/bots/${bot.bot_id}/start`, dave)).status);
    }
    const first = statuses.indexOf(429);
    expect(first).toBeGreaterThan(0);
    expect(statuses.slice(first).every((status) => status === 429)).toBe(true);
    expect(statuses.slice(1, first).every((status) => status === 409)).toBe(true);
  });

  // Live JavaScript threads are shared fairly (js-live-thread.ts): what one user's code costs waits in
  // their own queue, and each job's compute is capped by its own budget.
  const lastCandles = async (botIds: string[]) =>
    (
      (await database.database.db.execute(
        `select bot_id, status, last_candle from bot_runs where bot_id in (${botIds
          .map((id) => `'${id}'`)
          .join(', ')})`,
      )) as unknown as { rows: { bot_id: string; status: string; last_candle: string | number | null }[] }
    ).rows;

  it('another user’s starts spinning as their code loads never make a start answer 500', async () => {
    const mallory = (await registerUser(app)).token;
    const victor = (await registerUser(app)).token;
    const spinner = 'for (;;) {}\nfunction onCandle() { return null; }';
    // Refused at save now (it does not load in its budget); one saved before that check still starts.
    const refused = await post('/api/bots', mallory, {
      ...SMA_1M,
      strategy_type: 'trend',
      config: { ...SMA_1M.config, code: spinner },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      'The JavaScript code does not load: The strategy exceeded its CPU time limit of 0.25 s',
    );
    const spinning = await createBot(mallory, {
      name: 'Loads forever',
      strategy_type: 'trend',
      config: { ...SMA_1M.config, code: JAVASCRIPT_TEMPLATES.sma_crossover },
    });
    await database.database.db.execute(
      `update bots set config = config || '${JSON.stringify({ code: spinner })}'::jsonb where id = '${spinning.bot_id}'`,
    );
    const honest = await createBot(victor, {
      name: 'Honest JS',
      strategy_type: 'trend',
      config: { ...SMA_1M.config, code: JAVASCRIPT_TEMPLATES.sma_crossover },
    });
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => post(`/api/bots/${spinning.bot_id}/start`, mallory)),
      post(`/api/bots/${honest.bot_id}/start`, victor),
    ]);
    const victors = answers.pop()!;
    expect(victors.status, JSON.stringify(victors.body)).toBe(200);
    for (const answer of answers) {
      expect(answer.status).toBe(422);
      expect(answer.body.error).toBe('The strategy exceeded its CPU time limit of 0.25 s');
    }
    await post(`/api/bots/${honest.bot_id}/stop`, victor);
  });

  it('a user’s five busy JavaScript bots do not delay another user’s first candle', async () => {
    const mallory = (await registerUser(app)).token;
    const victor = (await registerUser(app)).token;
    // Every candle computes for a while (under its 50 ms budget), warm-up included: Mallory's runs
    // take seconds to rebuild, all of it in her own queue.
    const busy = [];
    for (let index = 0; index < 5; index += 1) {
      busy.push(
        await createBot(mallory, {
          name: `Busy ${index}`,
          strategy_type: 'trend',
          config: {
            ...SMA_1M.config,
            code: 'function onCandle() {\n  let x = 0;\n  for (let i = 0; i < 20000; i += 1) x += i;\n  return null;\n}',
          },
        }),
      );
    }
    const honest = await createBot(victor, {
      name: 'Honest JS',
      strategy_type: 'trend',
      config: { ...SMA_1M.config, code: JAVASCRIPT_TEMPLATES.sma_crossover },
    });
    for (const bot of busy) expect((await post(`/api/bots/${bot.bot_id}/start`, mallory)).status).toBe(200);
    expect((await post(`/api/bots/${honest.bot_id}/start`, victor)).status).toBe(200);
    app.clock.advance(2 * MINUTE);
    const passing = pass();
    const busyIds = busy.map((bot) => bot.bot_id);
    let [victors] = await lastCandles([honest.bot_id]);
    while (victors!.status === 'running' && victors!.last_candle === null) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      [victors] = await lastCandles([honest.bot_id]);
    }
    // Victor's run evaluated its candles while Mallory's were still warming up.
    const mallorys = await lastCandles(busyIds);
    expect(victors!.status).toBe('running');
    expect(mallorys.map((run) => [run.status, run.last_candle])).toEqual(
      busyIds.map(() => ['running', null]),
    );
    for (const bot of busy) await post(`/api/bots/${bot.bot_id}/stop`, mallory);
    await post(`/api/bots/${honest.bot_id}/stop`, victor);
    await passing;
  });
});
