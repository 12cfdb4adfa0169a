import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JAVASCRIPT_TEMPLATES, PYTHON_TEMPLATES } from '@solterm/engine';
import {
  DEFAULT_BOT_CONFIG,
  MAX_BACKTEST_CANDLES,
  ZBacktestResultSchema,
  ZBotSchema,
  ZBotWithStatusSchema,
  type TBacktestResult,
  type TBot,
} from '@solterm/contracts';
import {
  bearer,
  call,
  captureRequestLogs,
  countRows,
  createClock,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  registerUser,
  type CapturedLog,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { listen, TestSocket } from './helpers/ws-client';

const NOW = new Date('2026-01-15T12:00:00Z');
const SMA_BOT = {
  name: 'SMA 5/20',
  description: 'The spec defaults',
  strategy_type: 'sma_crossover',
  config: { ...DEFAULT_BOT_CONFIG, amount: 1, parameters: { short_window: 5, long_window: 20 } },
  is_public: false,
};

describe.each(databaseTargets())('bots and backtests on %s', (target) => {
  let database: TestDatabase;
  let app: TestApp;
  let alice: string;
  let bob: string;
  let logs: CapturedLog[];

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({
      database,
      clock: createClock(NOW),
      env: { MARKET_SEED: 'bots-test', MARKET_TICK_MS: '3600000', BACKTEST_TIME_LIMIT_MS: '1500' },
    });
    logs = captureRequestLogs(app);
    alice = (await registerUser(app)).token;
    bob = (await registerUser(app)).token;
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const post = <T>(url: string, token: string | null, payload: unknown) =>
    call<T>(app, { method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });
  const get = <T>(url: string, token: string | null) =>
    call<T>(app, { method: 'GET', url, headers: token ? bearer(token) : {} });
  const createBot = async (token: string, overrides: Record<string, unknown> = {}) => {
    const { status, body } = await post<TBot>('/api/bots', token, { ...SMA_BOT, ...overrides });
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data;
  };

  it('creates a bot with the spec defaults, stopped and with every metric zero', async () => {
    const { status, body } = await post<TBot>('/api/bots', alice, {
      name: 'Defaults',
      strategy_type: 'sma_crossover',
    });
    expect(status).toBe(200);
    const bot = ZBotSchema.parse(body.data);
    expect(bot).toMatchObject({
      bot_name: 'Defaults',
      strategy_type: 'sma_crossover',
      status: 'stopped',
      is_running: false,
      network_mode: 'test',
      total_trades: 0,
      total_pnl: 0,
      win_rate: 0,
      current_balance: 0,
      started_at: null,
      is_public: false,
    });
    expect(bot.config).toMatchObject({
      symbol: 'SOL/USDC',
      amount: 0.0001,
      stop_loss_percentage: 2,
      take_profit_percentage: 3,
      max_positions: 1,
      parameters: { short_window: 5, long_window: 20 },
      interval: '1H',
      // A new bot spends a share of its equity on each buy unless told otherwise.
      sizing: { mode: 'percent_equity', value: 10 },
    });
  });

  it('lists only the caller’s bots, with and without status, and deletes only the caller’s', async () => {
    const mine = await createBot(alice, { name: 'Mine' });
    const theirs = await createBot(bob, { name: 'Theirs' });
    const list = await get<TBot[]>('/api/bots', alice);
    expect(list.body.data.map((bot) => bot.bot_id)).toContain(mine.bot_id);
    expect(list.body.data.map((bot) => bot.bot_id)).not.toContain(theirs.bot_id);
    const withStatus = await get<unknown[]>('/api/bots/with-status', alice);
    const entry = withStatus.body.data
      .map((item) => ZBotWithStatusSchema.parse(item))
      .find((b) => b.bot_id === mine.bot_id);
    expect(entry?.performance.total_trades).toBe(0);

    const stranger = await call(app, {
      method: 'DELETE',
      url: `/api/bots/${theirs.bot_id}`,
      headers: bearer(alice),
    });
    expect(stranger.status).toBe(404);
    expect(stranger.body.error).toBe('Bot not found');
    expect((await get<TBot[]>('/api/bots', bob)).body.data.map((bot) => bot.bot_id)).toContain(theirs.bot_id);

    const deleted = await call(app, {
      method: 'DELETE',
      url: `/api/bots/${mine.bot_id}`,
      headers: bearer(alice),
    });
    expect(deleted.status).toBe(200);
    const again = await call(app, {
      method: 'DELETE',
      url: `/api/bots/${mine.bot_id}`,
      headers: bearer(alice),
    });
    expect(again.status).toBe(404);
    const malformed = await call(app, {
      method: 'DELETE',
      url: '/api/bots/not-a-uuid',
      headers: bearer(alice),
    });
    expect(malformed.status).toBe(400);
  });

  it('refuses bad bots with a clear message and stores nothing', async () => {
    const before = await countRows(app, 'bots');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: '' }, /Bot name is required/],
      [{ name: 'x'.repeat(81) }, /at most 80 characters/],
      [{ strategy_type: 'moon_shot' }, /Unknown strategy_type: moon_shot/],
      [
        { config: { ...SMA_BOT.config, parameters: { short_window: 30, long_window: 20 } } },
        /smaller than long_window/,
      ],
      [{ config: { ...SMA_BOT.config, amount: 0 } }, /amount must be greater than 0/],
      [{ config: { ...SMA_BOT.config, max_positions: 1.5 } }, /whole number/],
      [{ config: { ...SMA_BOT.config, stop_loss_percentage: 100 } }, /at most 99/],
      [{ config: { ...SMA_BOT.config, interval: '1S' } }, /Invalid option|interval/],
      [
        {
          strategy_type: 'moon',
          config: { ...SMA_BOT.config, code: 'def on_candle(c, ctx): return None', language: 'python' },
        },
        /A code bot names its category/,
      ],
      [
        { strategy_type: 'moon', config: { ...SMA_BOT.config, code: 'function onCandle() {}' } },
        /A code bot names its category/,
      ],
      [{ config: { ...SMA_BOT.config, code: 'x'.repeat(200_001) } }, /at most 200000 characters/],
    ];
    for (const [overrides, message] of cases) {
      const { status, body } = await post('/api/bots', alice, { ...SMA_BOT, ...overrides });
      expect(status, JSON.stringify(overrides).slice(0, 80)).toBe(400);
      expect(body.error).toMatch(message);
    }
    expect(await countRows(app, 'bots')).toEqual(before);
    expect((await post('/api/bots', null, SMA_BOT)).status).toBe(401);
  });

  const patch = <T>(id: string, token: string, payload: unknown) =>
    call<T>(app, {
      method: 'PATCH',
      url: `/api/bots/${id}`,
      payload: payload as object,
      headers: bearer(token),
    });
  const codeBot = (language: 'javascript' | 'python', code: string, symbol = 'SOL/USDC') => ({
    ...SMA_BOT,
    name: `${language} bot`,
    strategy_type: 'trend',
    config: { ...SMA_BOT.config, language, code, symbol },
  });

  // The sandboxes answer these two, before any write (a refused bot stores nothing on either
  // database): they run once, on PGlite, and not again on PostgreSQL for ~15 s of sandbox processes.
  const sandboxOnly = it.skipIf(target === 'postgres');

  sandboxOnly(
    'refuses at save code that does not load or lacks its entry point, and pairs that do not trade',
    async () => {
      const before = await countRows(app, 'bots');
      const cases: [object, string, RegExp][] = [
        [
          codeBot('javascript', 'function onCandle(candle {\n  return null;\n}'),
          'BOTS__CODE_INVALID',
          /^The JavaScript code does not load: SyntaxError: .+ \(strategy\.js line 1\)$/,
        ],
        [
          codeBot('javascript', 'function on_candle() { return null; }'),
          'BOTS__CODE_INVALID',
          /^The JavaScript code does not load: TypeError: the strategy must define function onCandle\(candle, ctx\)/,
        ],
        [
          codeBot('javascript', 'throw new Error("boom");\nfunction onCandle() { return null; }'),
          'BOTS__CODE_INVALID',
          /Error: boom \(strategy\.js line 1\)/,
        ],
        [
          codeBot('python', 'def on_candle(candle, ctx)\n    return None\n'),
          'BOTS__CODE_INVALID',
          /^The Python code does not load: SyntaxError: .+strategy\.py line 1/,
        ],
        [
          codeBot('python', 'def onCandle(candle, ctx):\n    return None\n'),
          'BOTS__CODE_INVALID',
          /^The Python code does not load: TypeError: the strategy must define def on_candle\(candle, ctx\)/,
        ],
        [
          { ...SMA_BOT, config: { ...SMA_BOT.config, symbol: 'FOO/BAR' } },
          'BOTS__PAIR_INVALID',
          /^Pair FOO\/BAR cannot be traded: Token not found: FOO\. Use a pair such as SOL\/USDC\.$/,
        ],
        [
          { ...SMA_BOT, config: { ...SMA_BOT.config, symbol: 'SOL/USD' } },
          'BOTS__PAIR_INVALID',
          /SOL\/USD is not one/,
        ],
      ];
      for (const [bot, code, message] of cases) {
        const { status, body } = await post('/api/bots', alice, bot);
        expect(status, JSON.stringify(bot).slice(0, 120)).toBe(400);
        expect(body).toMatchObject({ code });
        expect(body.error).toMatch(message);
      }
      expect(await countRows(app, 'bots')).toEqual(before);
      // The templates load, in both languages.
      await createBot(alice, codeBot('javascript', JAVASCRIPT_TEMPLATES.sma_crossover));
      await createBot(alice, codeBot('python', PYTHON_TEMPLATES.sma_crossover));
      // Each Python check starts a sandbox process (Pyodide): seconds each on a busy machine.
    },
    120_000,
  );

  sandboxOnly(
    'bounds a Python check: top-level code that never ends is refused in 5 s, one check per user at a time',
    async () => {
      const spinning = codeBot(
        'python',
        'while True:\n    pass\n\ndef on_candle(candle, ctx):\n    return None\n',
      );
      const template = codeBot('python', PYTHON_TEMPLATES.sma_crossover);
      const carol = (await registerUser(app)).token;
      // Two saves at once: one is checked, the other refused at once rather than a second process.
      const both = await Promise.all([
        post('/api/bots', carol, template),
        post('/api/bots', carol, template),
      ]);
      expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(both.find((answer) => answer.status === 409)!.body).toMatchObject({
        code: 'BOTS__PYTHON_USER_LIMIT',
        error: 'Your previous Python code check is still running. Save again in a moment.',
      });
      const slow = await post('/api/bots', carol, spinning);
      expect(slow.status).toBe(400);
      expect(slow.body.error).toBe(
        'The Python code does not load: Loading the strategy took longer than 5 s: top-level code should only define on_candle and its helpers',
      );
      // The check over, the user may save again.
      await createBot(carol, template);
    },
    120_000,
  );

  it('edits a stopped bot (name, description, config, code), checked as at create; a running one is refused', async () => {
    const bot = await createBot(alice, codeBot('javascript', JAVASCRIPT_TEMPLATES.sma_crossover));
    const edited = await patch<TBot>(bot.bot_id, alice, {
      name: 'Renamed',
      description: 'Now on 15M',
      config: { ...bot.config, interval: '15M', code: 'function onCandle() { return null; }' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(ZBotSchema.parse(edited.body.data)).toMatchObject({
      bot_id: bot.bot_id,
      bot_name: 'Renamed',
      description: 'Now on 15M',
      config: { interval: '15M', code: 'function onCandle() { return null; }' },
    });
    const listed = (await get<TBot[]>('/api/bots', alice)).body.data.find((b) => b.bot_id === bot.bot_id);
    expect(listed?.bot_name).toBe('Renamed');

    // Broken code, an unknown pair, a bad field: refused, nothing changed.
    const refusals: [object, string][] = [
      [{ config: { ...bot.config, code: 'function onCandle( {' } }, 'BOTS__CODE_INVALID'],
      [{ config: { ...bot.config, symbol: 'FOO/BAR' } }, 'BOTS__PAIR_INVALID'],
      [{ name: '' }, 'VALIDATION__INVALID_INPUT'],
      [{}, 'VALIDATION__INVALID_INPUT'],
    ];
    for (const [body, code] of refusals) {
      const refused = await patch(bot.bot_id, alice, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe(code);
    }
    expect((await patch(bot.bot_id, alice, {})).body.error).toMatch(/at least one of name/);
    const after = (await get<TBot[]>('/api/bots', alice)).body.data.find((b) => b.bot_id === bot.bot_id);
    expect(after).toMatchObject({ bot_name: 'Renamed', config: { symbol: 'SOL/USDC', interval: '15M' } });

    // Another user's bot is as absent as a deleted one.
    expect((await patch(bot.bot_id, bob, { name: 'Mine now' })).status).toBe(404);

    // Running: stop it first (publishing stays possible).
    expect((await post(`/api/bots/${bot.bot_id}/start`, alice, {})).status).toBe(200);
    const running = await patch(bot.bot_id, alice, { name: 'While running' });
    expect(running.status).toBe(409);
    expect(running.body).toMatchObject({
      code: 'BOTS__EDIT_RUNNING',
      error: 'Stop the bot before editing it: a running bot keeps the code and settings it started with.',
    });
    expect((await patch<TBot>(bot.bot_id, alice, { is_public: true })).body.data.is_public).toBe(true);
    expect((await post(`/api/bots/${bot.bot_id}/stop`, alice, {})).status).toBe(200);
    expect((await patch<TBot>(bot.bot_id, alice, { name: 'Stopped again' })).body.data.bot_name).toBe(
      'Stopped again',
    );
  });

  it('backtests a bot deterministically, with the spec’s result and value conserved', async () => {
    const bot = await createBot(alice, { name: 'Backtested' });
    const request = {
      bot_id: bot.bot_id,
      start_date: '2025-10-01',
      end_date: '2025-12-31',
      initial_balance: 1000,
    };
    const first = await post<TBacktestResult>('/api/bots/backtest', alice, request);
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
    const result = ZBacktestResultSchema.parse(first.body.data);
    expect(result.initial_balance).toBe(1000);
    expect(result.symbol).toBe('SOL/USDC');
    // The end date is inclusive: 1 October 00:00 to 31 December 23:00.
    expect(result.candles).toBe(92 * 24);
    expect(result.equity_curve.length).toBe(result.candles + 1);
    expect(result.total_trades).toBeGreaterThan(0);
    expect(result.winning_trades + result.losing_trades).toBe(result.total_trades);
    expect(result.trades.filter((trade) => trade.side === 'Sell')).toHaveLength(result.total_trades);
    // Value conserved: final = initial + closed PnL (+ the open lot marked at the last close).
    const pnl = result.trades.reduce((sum, trade) => sum + (trade.pnl ?? 0), 0);
    const open = result.trades.length - 2 * result.total_trades;
    if (open === 0) expect(result.final_balance).toBeCloseTo(1000 + pnl, 6);
    expect(result.fees_paid).toBeGreaterThan(0);

    const second = await post<TBacktestResult>('/api/bots/backtest', alice, request);
    // Each run keeps its own export of the fills.
    expect(second.body.data.export_id).not.toBe(first.body.data.export_id);
    expect({ ...second.body.data, export_id: null }).toEqual({ ...first.body.data, export_id: null });
  });

  it('a JavaScript bot from the SMA template backtests to exactly the built-in’s trades, off the event loop', async () => {
    const builtIn = await createBot(alice, { name: 'Built-in SMA' });
    const coded = await createBot(alice, {
      name: 'JS SMA',
      strategy_type: 'trend',
      config: { ...SMA_BOT.config, code: JAVASCRIPT_TEMPLATES.sma_crossover },
    });
    const range = { start_date: '2025-11-01', end_date: '2025-12-31', initial_balance: 1000 };
    const [a, b] = await Promise.all([
      post<TBacktestResult>('/api/bots/backtest', alice, { ...range, bot_id: builtIn.bot_id }),
      post<TBacktestResult>('/api/bots/backtest', alice, { ...range, bot_id: coded.bot_id }),
    ]);
    expect(a.status, JSON.stringify(a.body).slice(0, 200)).toBe(200);
    expect(b.status, JSON.stringify(b.body).slice(0, 200)).toBe(200);
    expect(b.body.data.trades.length).toBeGreaterThan(10);
    expect({ ...b.body.data, export_id: null }).toEqual({ ...a.body.data, export_id: null });
  });

  it('a hostile bot’s backtest fails with its clear message while the API keeps answering', async () => {
    const hostile = await createBot(alice, {
      name: 'Spinner',
      strategy_type: 'scalper',
      config: { ...SMA_BOT.config, code: 'function onCandle(candle) {\n  while (true) {}\n}' },
    });
    const pending = post('/api/bots/backtest', alice, {
      bot_id: hostile.bot_id,
      start_date: '2025-12-01',
      end_date: '2025-12-31',
      initial_balance: 1000,
    });
    let settled = false;
    const settle = () => (settled = true);
    void pending.then(settle, settle);
    // The sandbox runs in the backtest worker thread: health answers meanwhile. Computing on the API's
    // thread, the spin would hold health for the rest of its 1.5 s budget and answer before it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const health = await call(app, { method: 'GET', url: '/api/health' });
    expect(health.status).toBe(200);
    expect(settled).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    const failed = await pending;
    expect(failed.status).toBe(422);
    expect(failed.body.error).toBe('The strategy exceeded its CPU time limit of 1.5 s');
    const thrower = await createBot(alice, {
      name: 'Thrower',
      strategy_type: 'trend',
      config: { ...SMA_BOT.config, code: 'function onCandle(c) {\n  throw new Error("no " + c.close);\n}' },
    });
    const thrown = await post('/api/bots/backtest', alice, {
      bot_id: thrower.bot_id,
      start_date: '2025-12-01',
      end_date: '2025-12-31',
      initial_balance: 1000,
    });
    expect(thrown.status).toBe(422);
    expect(thrown.body.error).toMatch(/^Error: no [\d.]+ \(strategy\.js line 2\)$/);
  });

  it('clips a strategy’s huge error (JavaScript or Python) to 4 KiB in the answer and its log line', async () => {
    const range = { start_date: '2025-12-01', end_date: '2025-12-31', initial_balance: 1000 };
    const loud = await createBot(alice, {
      name: 'Loud',
      strategy_type: 'trend',
      config: { ...SMA_BOT.config, code: "function onCandle() {\n  throw new Error('x'.repeat(20e6));\n}" },
    });
    const thrown = await post('/api/bots/backtest', alice, { ...range, bot_id: loud.bot_id });
    expect(thrown.status).toBe(422);
    expect(thrown.body.error.length).toBeLessThanOrEqual(4096);
    expect(thrown.body.error).toMatch(/^Error: x+ … \(\d+ more characters\) \(strategy\.js line 2\)$/);
    const loudPython = await createBot(alice, {
      name: 'Loud Python',
      strategy_type: 'trend',
      config: {
        ...SMA_BOT.config,
        language: 'python',
        code: "def on_candle(candle, ctx):\n    raise ValueError('y' * 100_000)\n",
      },
    });
    const raised = await post('/api/bots/backtest', alice, { ...range, bot_id: loudPython.bot_id });
    expect(raised.status).toBe(422);
    expect(raised.body.error.length).toBeLessThanOrEqual(4096);
    expect(raised.body.error).toMatch(/yyyy/);
    const logged = logs.filter((line) => /xxxx|yyyy/.test(line.message));
    expect(logged.length).toBe(2);
    for (const line of logged) expect(line.message.length).toBeLessThanOrEqual(4096);
  });

  let listening: Promise<string> | undefined;
  const wsUrl = () => (listening ??= listen(app));

  it('tells the owner, and only the owner, how far a long backtest has computed over /ws', async () => {
    const url = await wsUrl();
    const aliceSocket = await TestSocket.authenticated(url, alice);
    const bobSocket = await TestSocket.authenticated(url, bob);
    const bot = await createBot(alice, { name: 'A year of hours' });
    const answer = await post<TBacktestResult>('/api/bots/backtest', alice, {
      bot_id: bot.bot_id,
      start_date: '2025-01-01',
      end_date: '2025-12-31',
      initial_balance: 1000,
    });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const reports = (await aliceSocket.drain())
      .filter((message) => message.type === 'backtest_progress')
      .map((message) => message.data as Record<string, number | string>);
    // Its bar from the start: running at candle 0 the moment it starts, then as it computes.
    expect(reports[0]).toMatchObject({ state: 'running', candles_done: 0, progress_percentage: 0 });
    const data = reports.slice(1);
    expect(data.length).toBeGreaterThanOrEqual(2);
    expect(
      data.every((item) => item.bot_id === bot.bot_id && item.candles_total === answer.body.data.candles),
    ).toBe(true);
    const percentages = data.map((item) => item.progress_percentage as number);
    expect(percentages).toEqual([...percentages].sort((a, b) => a - b));
    expect(percentages.every((value) => value > 0 && value <= 100)).toBe(true);
    expect((await bobSocket.drain()).filter((message) => message.type === 'backtest_progress')).toEqual([]);
    await aliceSocket.close();
    await bobSocket.close();
  });

  it('says why a bot sized beyond its balance made no trade', async () => {
    const big = await createBot(alice, {
      name: 'Too big',
      config: { ...SMA_BOT.config, amount: 5000 },
    });
    const { status, body } = await post<TBacktestResult>('/api/bots/backtest', alice, {
      bot_id: big.bot_id,
      start_date: '2025-11-01',
      end_date: '2025-12-31',
      initial_balance: 1000,
    });
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const result = ZBacktestResultSchema.parse(body.data);
    expect(result.total_trades).toBe(0);
    expect(result.skipped_signals).toEqual([{ reason: 'insufficient balance', count: expect.any(Number) }]);
    const skipped = result.skipped_signals[0]!.count;
    expect(skipped).toBeGreaterThan(0);
    expect(result.notices).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${skipped.toLocaleString('en-US')} buy signals? skipped: insufficient balance \\(a buy needed [\\d,]+\\.\\d\\d USDC; the balance was 1,000\\.00 USDC\\)`,
        ),
      ),
    ]);
    expect(result.requested_start_date).toBe('2025-11-01T00:00:00.000Z');
  });

  it('sizing, costs and the buy-and-hold benchmark give the figures computed by hand on six candles', async () => {
    // Buys on the first candle, exits on the third; no stop loss or take profit.
    const code =
      'let n = 0;\nfunction onCandle(c, ctx) {\n  n += 1;\n  if (n === 1) return { action: "buy" };\n  if (n === 3) return { action: "exit" };\n  return null;\n}';
    const config = { ...SMA_BOT.config, code, stop_loss_percentage: null, take_profit_percentage: null };
    const quoteBot = await createBot(alice, {
      name: 'Spends 100',
      strategy_type: 'trend',
      config: { ...config, interval: '4H', sizing: { mode: 'fixed_quote', value: 100 } },
    });
    expect(quoteBot.config.sizing).toEqual({ mode: 'fixed_quote', value: 100 });
    const range = { start_date: '2025-12-01', end_date: '2025-12-01T05:00:00Z', initial_balance: 1000 };
    const { candles } = await app.services.market.getClosedPairCandles(
      'SOL/USDC',
      '1H',
      Date.parse('2025-12-01T00:00:00Z') / 1000,
      Date.parse('2025-12-01T05:00:00Z') / 1000,
    );
    expect(candles).toHaveLength(6);
    // Exact arithmetic on integers: a price as n / d; quote units are 1e-6 USDC, base units 1e-9 SOL.
    const ratio = (price: number) => {
      const [whole, fraction = ''] = String(price).split('.');
      return { n: BigInt(whole! + fraction), d: 10n ** BigInt(fraction.length) };
    };
    const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
    const round6 = (num: bigint, den: bigint) => Number((num * 1_000_000n * 2n + den) / (2n * den)) / 1e6;
    const E17 = 10n ** 17n;
    // Fixed 10 bps fee and 20 bps slippage: a buy pays mid × 1.002 × 1.001, a sell gets mid × 0.998 × 0.999.
    const buyCost = (base: bigint, mid: number) =>
      ceilDiv(base * ratio(mid).n * 10_020n * 10_010n * 1_000_000n, ratio(mid).d * E17);
    const sellGets = (base: bigint, mid: number) =>
      (base * ratio(mid).n * 9_980n * 9_990n * 1_000_000n) / (ratio(mid).d * E17);
    const largestFor = (budget: bigint, mid: number) =>
      (budget * ratio(mid).d * E17) / (ratio(mid).n * 10_020n * 10_010n * 1_000_000n);

    const fixedCosts = { model: 'fixed', fee_bps: 10, slippage_bps: 20 };
    const answer = await post<TBacktestResult>('/api/bots/backtest', alice, {
      ...range,
      bot_id: quoteBot.bot_id,
      interval: '1H',
      costs: fixedCosts,
    });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    const result = ZBacktestResultSchema.parse(answer.body.data);
    expect(result.interval).toBe('1H');
    expect(result.candles).toBe(6);
    expect(result.costs).toEqual({ model: 'fixed', fee_bps: 10, slippage_bps: 20 });
    expect(result.sizing).toEqual({ mode: 'fixed_quote', value: 100 });
    const [c0, , c2] = candles;
    const base = largestFor(100_000_000n, c0!.close);
    const cost = buyCost(base, c0!.close);
    const proceeds = sellGets(base, c2!.close);
    expect(cost <= 100_000_000n && buyCost(base + 1n, c0!.close) > 100_000_000n).toBe(true);
    const [buy, sell] = result.trades;
    expect(buy).toMatchObject({ side: 'Buy', quantity: Number(base) / 1e9, value: Number(cost) / 1e6 });
    expect(sell).toMatchObject({ side: 'Sell', quantity: Number(base) / 1e9, value: Number(proceeds) / 1e6 });
    // Per fill: fee = base × mid × (1 ± slippage) × 10 bps; slippage = what is paid off the mid besides it.
    const { n: n0, d: d0 } = ratio(c0!.close);
    const { n: n2, d: d2 } = ratio(c2!.close);
    const buyFee = [base * n0 * 10_020n * 10n, d0 * 10n ** 17n] as const;
    const sellFee = [base * n2 * 9_980n * 10n, d2 * 10n ** 17n] as const;
    expect(buy!.fee).toBe(round6(...buyFee));
    expect(sell!.fee).toBe(round6(...sellFee));
    // buy slippage = cost − base × mid − fee, over a common denominator d0 × 1e17.
    const buySlip = cost * d0 * 10n ** 11n - base * n0 * 10n ** 8n - buyFee[0];
    const sellSlip = base * n2 * 10n ** 8n - proceeds * d2 * 10n ** 11n - sellFee[0];
    expect(buy!.slippage).toBe(round6(buySlip, d0 * 10n ** 17n));
    expect(sell!.slippage).toBe(round6(sellSlip, d2 * 10n ** 17n));
    expect(result.fees_paid).toBe(round6(buyFee[0] * d2 + sellFee[0] * d0, d0 * d2 * 10n ** 17n));
    expect(result.slippage_paid).toBe(round6(buySlip * d2 + sellSlip * d0, d0 * d2 * 10n ** 17n));
    expect(result.final_balance).toBe(Number(1_000_000_000n - cost + proceeds) / 1e6);

    // Buy and hold: all 1,000 at the first open, through the same costs, marked at each close.
    const held = largestFor(1_000_000_000n, c0!.open);
    const left = 1_000_000_000n - buyCost(held, c0!.open);
    const values = candles.map((candle) => {
      const { n, d } = ratio(candle.close);
      return round6(left * d * 1000n + held * n, d * 1_000_000_000n);
    });
    expect(result.benchmark.equity_curve.map((point) => point.value)).toEqual([1000, ...values]);
    expect(result.benchmark.equity_curve.map((point) => point.timestamp)).toEqual(
      result.equity_curve.map((point) => point.timestamp),
    );
    expect(result.benchmark.final_balance).toBe(values.at(-1));
    expect(result.benchmark.total_return).toBeCloseTo(((values.at(-1)! - 1000) / 1000) * 100, 5);
    let peak = 1000;
    let worst = 0;
    for (const value of [1000, ...values]) {
      peak = Math.max(peak, value);
      worst = Math.max(worst, ((peak - value) / peak) * 100);
    }
    expect(result.benchmark.max_drawdown).toBeCloseTo(worst, 5);

    // The venue's own pricing (the default) charges otherwise: the same trades, other figures.
    const venue = ZBacktestResultSchema.parse(
      (
        await post<TBacktestResult>('/api/bots/backtest', alice, {
          ...range,
          bot_id: quoteBot.bot_id,
          interval: '1H',
        })
      ).body.data,
    );
    expect(venue.costs).toEqual({ model: 'venue', fee_bps: null, slippage_bps: null });
    expect(venue.trades.map((trade) => trade.side)).toEqual(['Buy', 'Sell']);
    expect(venue.fees_paid).not.toBe(result.fees_paid);
    // No costs at all: nothing paid, and 25 % of the equity buys exactly 250 / mid.
    const shareBot = await createBot(alice, {
      name: 'A quarter',
      strategy_type: 'trend',
      config: { ...config, sizing: { mode: 'percent_equity', value: 25 } },
    });
    const free = ZBacktestResultSchema.parse(
      (
        await post<TBacktestResult>('/api/bots/backtest', alice, {
          ...range,
          bot_id: shareBot.bot_id,
          costs: { model: 'fixed', fee_bps: 0, slippage_bps: 0 },
        })
      ).body.data,
    );
    const quarter = (250_000_000n * d0 * 1000n) / n0;
    expect(free.trades[0]!.quantity).toBe(Number(quarter) / 1e9);
    expect([free.fees_paid, free.slippage_paid]).toEqual([0, expect.any(Number)]);
    expect(free.slippage_paid).toBeLessThanOrEqual(0.000002); // the rounding to quote units only
    // A bot made before sizing existed trades its amount (fixed_base), as it always did.
    const old = await createBot(alice, { name: 'Old sizing', strategy_type: 'trend', config });
    await app.database.db.execute(`update bots set config = config - 'sizing' where id = '${old.bot_id}'`);
    const before = ZBacktestResultSchema.parse(
      (await post<TBacktestResult>('/api/bots/backtest', alice, { ...range, bot_id: old.bot_id })).body.data,
    );
    expect(before.sizing).toEqual({ mode: 'fixed_base', value: 1 });
    expect(before.trades[0]!.quantity).toBe(1);
  });

  it('refuses bad sizing and costs with messages that say the limits', async () => {
    const bot = await createBot(alice, { name: 'For bad costs' });
    const base = {
      bot_id: bot.bot_id,
      start_date: '2025-12-01',
      end_date: '2025-12-02',
      initial_balance: 1000,
    };
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ costs: { model: 'fixed', fee_bps: 1001 } }, 'costs.fee_bps must be at most 1000 bps'],
      [{ costs: { model: 'fixed', slippage_bps: -1 } }, 'costs.slippage_bps must be at least 0 bps'],
      [{ costs: { model: 'cheap' } }, 'costs.model must be one of venue, fixed'],
      [{ costs: { fee_bps: 5 } }, /apply to costs.model 'fixed' only/],
      [{ interval: '2H' }, /interval must be one of 1M, 5M/],
    ];
    for (const [overrides, message] of cases) {
      const response = await post('/api/bots/backtest', alice, { ...base, ...overrides });
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      expect(response.body.error).toMatch(message);
    }
    const sizing: [unknown, string][] = [
      [
        { mode: 'percent_equity', value: 150 },
        'sizing.value of percent_equity must be at most 100 (percent)',
      ],
      [{ mode: 'fixed_quote', value: 0 }, 'sizing.value must be greater than 0'],
      [{ mode: 'all_in', value: 1 }, 'sizing.mode must be one of fixed_base, fixed_quote, percent_equity'],
    ];
    for (const [value, message] of sizing) {
      const response = await post('/api/bots', alice, {
        ...SMA_BOT,
        config: { ...SMA_BOT.config, sizing: value },
      });
      expect(response.status, JSON.stringify(value)).toBe(400);
      expect(response.body.error).toMatch(message);
    }
  });

  it('exports every fill as CSV, streamed, to the owner only (past the 5,000 the answer lists)', async () => {
    const churner = await createBot(alice, {
      name: 'Churner',
      strategy_type: 'scalper',
      config: {
        ...SMA_BOT.config,
        amount: 0.001,
        interval: '1M',
        code: 'function onCandle(c, ctx) {\n  return ctx.openLots > 0 ? { action: "exit", reason: "out, again" } : { action: "buy", reason: "in" };\n}',
      },
    });
    const { status, body } = await post<TBacktestResult>('/api/bots/backtest', alice, {
      bot_id: churner.bot_id,
      start_date: '2025-12-01',
      end_date: '2025-12-04',
      initial_balance: 1000,
    });
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const result = ZBacktestResultSchema.parse(body.data);
    expect(result.trades).toHaveLength(5000);
    expect(result.trades_truncated).toBe(true);
    expect(result.export_id).toEqual(expect.any(String));
    const url = `/api/bots/backtest/exports/${result.export_id}`;
    const csv = await app.server.inject({ method: 'GET', url, headers: bearer(alice) });
    expect(csv.statusCode, csv.body.slice(0, 300)).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trimEnd().split('\n');
    expect(lines[0]).toBe('time,side,quantity,price,value,fee,slippage,pnl,reason');
    // Every candle but the last buys or exits: one fill each, all of them in the file.
    expect(lines.length - 1).toBe(result.candles);
    expect(lines.length - 1).toBeGreaterThan(5000);
    expect(lines[1]).toMatch(/^2025-12-01T00:00:00.000Z,Buy,0.001,[\d.]+,[\d.]+,[\d.]+,[\d.]+,,in$/);
    expect(lines[2]).toMatch(/,Sell,0.001,.*,"out, again"$/);
    const stranger = await app.server.inject({ method: 'GET', url, headers: bearer(bob) });
    expect(stranger.statusCode).toBe(404);
    expect((await app.server.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('tells a user their backtest is queued and how many are ahead, then its progress from the start', async () => {
    const url = await wsUrl();
    const bobSocket = await TestSocket.authenticated(url, bob);
    const spinner = await createBot(alice, {
      name: 'Queue hog',
      strategy_type: 'scalper',
      config: { ...SMA_BOT.config, code: 'function onCandle() {\n  while (true) {}\n}' },
    });
    const bobs = await createBot(bob, { name: 'Waits its turn' });
    const range = { start_date: '2025-12-01', end_date: '2025-12-31', initial_balance: 1000 };
    const statusOf = async (token: string) =>
      (await get<{ state: string; queue_ahead: number }[]>('/api/bots/backtest/status', token)).body.data;
    const hog = post('/api/bots/backtest', alice, { ...range, bot_id: spinner.bot_id });
    await expect
      .poll(() => statusOf(alice), { timeout: 5000, interval: 20 })
      .toEqual([expect.objectContaining({ state: 'running', bot_id: spinner.bot_id })]);
    const waiting = post<TBacktestResult>('/api/bots/backtest', bob, { ...range, bot_id: bobs.bot_id });
    await expect
      .poll(() => statusOf(bob), { timeout: 5000, interval: 20 })
      .toEqual([expect.objectContaining({ state: 'queued', queue_ahead: 1, bot_id: bobs.bot_id })]);
    expect((await hog).status).toBe(422);
    expect((await waiting).status).toBe(200);
    expect(await statusOf(bob)).toEqual([]);
    const pushed = (await bobSocket.drain())
      .filter((message) => message.type === 'backtest_progress')
      .map((message) => message.data as { state: string; queue_ahead: number; candles_done: number });
    // Queued behind Alice's, then running from candle 0 on, before its answer.
    expect(pushed[0]).toMatchObject({ state: 'queued', queue_ahead: 1 });
    expect(pushed[1]).toMatchObject({ state: 'running', queue_ahead: 0, candles_done: 0 });
    await bobSocket.close();
  });

  it('answers the spec’s messages for bad backtest requests', async () => {
    // From an address of its own: backtests are limited per client address, and the file's other
    // tests have used 127.0.0.1's budget for this minute.
    const postBacktest = (token: string, payload: unknown) =>
      call(app, {
        method: 'POST',
        url: '/api/bots/backtest',
        payload: payload as object,
        headers: bearer(token),
        remoteAddress: '10.0.0.7',
      });
    const bot = await createBot(alice, { name: 'For bad requests' });
    const base = {
      bot_id: bot.bot_id,
      start_date: '2025-12-01',
      end_date: '2025-12-31',
      initial_balance: 1000,
    };
    const cases: [Record<string, unknown>, number, string | RegExp][] = [
      [{ bot_id: undefined }, 400, 'Please select a bot'],
      [{ start_date: '' }, 400, 'Please select start and end dates'],
      [{ start_date: '2025-12-31', end_date: '2025-12-01' }, 400, 'Start date must be before end date'],
      [{ initial_balance: 50 }, 400, 'Initial balance must be at least 100'],
      [{ initial_balance: 150 }, 400, 'Initial balance must be a multiple of 100'],
      [
        { start_date: '2027-01-01', end_date: '2027-02-01' },
        400,
        'The backtest range must start in the past',
      ],
    ];
    for (const [overrides, status, message] of cases) {
      const response = await postBacktest(alice, { ...base, ...overrides });
      expect(response.status, JSON.stringify(overrides)).toBe(status);
      expect(response.body.error).toMatch(message);
    }
    const minutes = await createBot(alice, {
      name: 'Minutes',
      config: { ...SMA_BOT.config, interval: '1M' },
    });
    const tooLong = await postBacktest(alice, {
      ...base,
      bot_id: minutes.bot_id,
      start_date: '2024-01-01',
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatch(/a backtest covers at most 527040/);
    // A bot on SOL/USD is refused at save now; one saved before that check is refused here.
    const offChain = await createBot(alice, { name: 'Dollars' });
    await app.database.db.execute(
      `update bots set config = config || '{"symbol": "SOL/USD"}'::jsonb where id = '${offChain.bot_id}'`,
    );
    const notTradable = await postBacktest(alice, { ...base, bot_id: offChain.bot_id });
    expect(notTradable.status).toBe(400);
    expect(notTradable.body.error).toBe(
      'Backtests trade a pair of Solana tokens, e.g. SOL/USDC; SOL/USD is not one',
    );
    const stranger = await postBacktest(bob, base);
    expect(stranger.status).toBe(404);
    expect(stranger.body.error).toBe('Bot not found');
    expect(MAX_BACKTEST_CANDLES).toBe(527_040);
  });

  it('refuses a user’s 51st bot with the spec’s message, and counts only their own', async () => {
    const carol = (await registerUser(app)).token;
    for (let index = 0; index < 50; index += 1) await createBot(carol, { name: `Bot ${index}` });
    const refused = await post('/api/bots', carol, { ...SMA_BOT, name: 'One too many' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('You have reached the limit of 50 bots. Delete one to create another.');
    expect((await post('/api/bots', bob, { ...SMA_BOT, name: 'Bob is not Carol' })).status).toBe(200);
  });

  it('"Run and Test Bot" backtests an unsaved strategy over the last 30 days from 1,000', async () => {
    const { status, body } = await post<TBacktestResult>('/api/bots/test', alice, {
      strategy_type: 'rsi_reversion',
      config: { ...SMA_BOT.config, parameters: { rsi_period: 14, oversold: 35, overbought: 65 } },
    });
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.data.initial_balance).toBe(1000);
    expect(Date.parse(body.data.end_date) - Date.parse(body.data.start_date)).toBeLessThanOrEqual(
      30 * 86_400_000,
    );
    expect(body.data.equity_curve.length).toBeGreaterThan(700);
    expect(typeof body.data.total_return).toBe('number');
  });

  it('"Run and Test Bot" can be cancelled: its run stops at once, only by its owner, and the next one runs', async () => {
    const testId = '4f6c1d2e-8a1b-4c3d-9e0f-1a2b3c4d5e6f';
    const spinning = {
      strategy_type: 'scalper',
      config: { ...SMA_BOT.config, code: 'function onCandle() {\n  while (true) {}\n}' },
      test_id: testId,
    };
    const pending = post('/api/bots/test', alice, spinning);
    // Bob cannot cancel Alice's run (the id is hers only); a cancel of nothing says so.
    const cancelAs = (token: string) =>
      post<{ cancelled: boolean }>(`/api/bots/test/${testId}/cancel`, token, {});
    expect((await cancelAs(bob)).body.data).toEqual({ test_id: testId, cancelled: false });
    let cancelledAt = 0;
    // The run is queued as soon as its candles are read: cancel once it is there.
    while (!cancelledAt) {
      if ((await cancelAs(alice)).body.data.cancelled) cancelledAt = performance.now();
    }
    const answer = await pending;
    // Well before its 1.5 s time limit and the pool's 5 s grace.
    expect(performance.now() - cancelledAt).toBeLessThan(1000);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'BACKTEST__CANCELLED', error: 'The test was cancelled' });
    expect((await cancelAs(alice)).body.data.cancelled).toBe(false);
    const next = await post<TBacktestResult>('/api/bots/test', alice, {
      strategy_type: 'sma_crossover',
      config: SMA_BOT.config,
      days: 7,
    });
    expect(next.status, JSON.stringify(next.body).slice(0, 200)).toBe(200);
    expect((await post('/api/bots/test/not-a-uuid/cancel', alice, {})).status).toBe(400);
  });

  it('lists the built-in strategies with their parameters', async () => {
    const { body } = await get<{ type: string; category: string; parameters: { name: string }[] }[]>(
      '/api/bots/strategies',
      null,
    );
    expect(body.data.map((strategy) => strategy.type)).toEqual([
      'sma_crossover',
      'ema_crossover',
      'rsi_reversion',
      'bollinger_breakout',
      'scalper',
      'dca',
      'grid',
    ]);
    expect(body.data[0]!.parameters.map((parameter) => parameter.name)).toEqual([
      'short_window',
      'long_window',
    ]);
  });
});
