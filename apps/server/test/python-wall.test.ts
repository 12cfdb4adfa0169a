import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_CONFIG, type TBot } from '@solterm/contracts';
import { JAVASCRIPT_TEMPLATES, PYTHON_TEMPLATES } from '@solterm/engine';
import { bearer, call, createClock, createTestApp, registerUser, type TestApp } from './helpers/test-app';

// The Python sandbox's walls, through the API: a host that cannot take the sandbox off the network
// runs no Python (and says so on /api/health); a strategy that writes to the server's channel fails
// its own run and nothing else; one user takes at most a share of the live Python processes.

const NOW = new Date('2026-01-15T12:00:30Z');
const MINUTE = 60_000;
const BOT = {
  name: 'SMA',
  strategy_type: 'trend',
  config: {
    ...DEFAULT_BOT_CONFIG,
    amount: 0.5,
    interval: '1M',
    parameters: { short_window: 3, long_window: 8 },
  },
};
const python = (code: string) => ({ ...BOT, config: { ...BOT.config, code, language: 'python' } });
const javascript = { ...BOT, config: { ...BOT.config, code: JAVASCRIPT_TEMPLATES.sma_crossover } };
/** POST /bots/test of an unsaved bot over its last day. */
const testRun = (bot: { strategy_type: string; config: object }) => ({
  strategy_type: bot.strategy_type,
  config: bot.config,
  days: 1,
  initial_balance: 1000,
});
const UNAVAILABLE =
  'Python strategies are disabled on this server: its host does not permit the network isolation (unprivileged user namespaces) the Python sandbox requires. JavaScript strategies work as usual.';

/** A strategy that writes `payload` onto fd 3 (the server's channel) through pyodide_js._api. */
const throughApi = (payload: Buffer) => `
import sys
_api = sys.modules['pyodide_js._api'].public_api
_api.setStdout()
_stream = _api.FS.constructor.new()
_stream.fd = 3
_writer = _api.FS.streams[1].devops.constructor.new(_stream)
with open('/tmp/payload', 'wb') as _file:
    _file.write(bytes.fromhex('${payload.toString('hex')}'))
_writer.write(_api.FS.readFile('/tmp/payload'))
def on_candle(c, ctx):
    return None
`;
const forgedIpcFrame = () => {
  const body = serialize({ result: { total_return: 99_899.9 } });
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
};
const GARBAGE = Buffer.from('\x00\x00\x00\x0fgarbage-garbage\xff\xfe', 'latin1');

const hostHasUserNamespaces =
  process.platform === 'linux' &&
  spawnSync('unshare', ['--user', '--map-root-user', '--net', 'true'], { stdio: 'ignore' }).status === 0;

function appHelpers(get: () => TestApp) {
  const post = <T>(url: string, token: string, payload: object = {}) =>
    call<T>(get(), { method: 'POST', url, payload, headers: bearer(token) });
  const health = () => call<{ sandbox: unknown }>(get(), { method: 'GET', url: '/api/health' });
  return { post, health };
}

describe('a host whose unshare is refused (no user namespaces: Docker’s default seccomp, many CI hosts)', () => {
  let app: TestApp;
  let alice: string;
  let bin: string;
  const path = process.env.PATH;
  const { post, health } = appHelpers(() => app);

  beforeAll(async () => {
    bin = mkdtempSync(join(tmpdir(), 'solterm-no-userns-'));
    writeFileSync(
      join(bin, 'unshare'),
      '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n',
    );
    chmodSync(join(bin, 'unshare'), 0o755);
    process.env.PATH = `${bin}:${path}`;
    app = await createTestApp({
      clock: createClock(NOW),
      env: { MARKET_SEED: 'python-wall', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    alice = (await registerUser(app)).token;
  });

  afterAll(async () => {
    await app?.close();
    process.env.PATH = path;
    rmSync(bin, { recursive: true, force: true });
  });

  it('refuses Python bots at create, backtest and start with what the host lacks; health says why', async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.data.sandbox).toEqual({
      python: {
        available: false,
        reason: expect.stringMatching(
          /does not permit unprivileged user and network namespaces \(unshare --user --net exited 1: unshare: unshare failed: Operation not permitted\)/,
        ),
      },
    });

    const created = await post('/api/bots', alice, python(PYTHON_TEMPLATES.sma_crossover));
    expect(created.status).toBe(503);
    expect(created.body).toMatchObject({ code: 'BOTS__PYTHON_UNAVAILABLE', error: UNAVAILABLE });
    const tested = await post('/api/bots/test', alice, testRun(python(PYTHON_TEMPLATES.sma_crossover)));
    expect(tested.status).toBe(503);
    expect(tested.body.code).toBe('BOTS__PYTHON_UNAVAILABLE');

    // A Python bot saved before (another host, or before the host changed): no backtest, no start.
    const saved = (await post<TBot>('/api/bots', alice, javascript)).body.data;
    await app.database.db.execute(
      `update bots set config = config || '${JSON.stringify({ code: PYTHON_TEMPLATES.sma_crossover, language: 'python' }).replace(/'/g, "''")}'::jsonb where id = '${saved.bot_id}'`,
    );
    const backtested = await post('/api/bots/backtest', alice, {
      bot_id: saved.bot_id,
      start_date: '2026-01-10',
      end_date: '2026-01-11',
      initial_balance: 1000,
    });
    expect(backtested.status).toBe(503);
    expect(backtested.body.code).toBe('BOTS__PYTHON_UNAVAILABLE');
    const started = await post(`/api/bots/${saved.bot_id}/start`, alice);
    expect(started.status).toBe(503);
    expect(started.body).toMatchObject({ code: 'BOTS__PYTHON_UNAVAILABLE', error: UNAVAILABLE });

    // JavaScript bots are not affected.
    const js = await post<TBot>('/api/bots', alice, javascript);
    expect(js.status).toBe(200);
    expect((await post('/api/bots/test', alice, testRun(javascript))).status).toBe(200);
    expect((await post(`/api/bots/${js.body.data.bot_id}/start`, alice)).status).toBe(200);
    expect((await post(`/api/bots/${js.body.data.bot_id}/stop`, alice)).status).toBe(200);
  });
});

describe.skipIf(!hostHasUserNamespaces)('a Python strategy that writes to the server’s channel', () => {
  let app: TestApp;
  let alice: string;
  let bob: string;
  const { post, health } = appHelpers(() => app);
  const pass = () => app.botRunner.pass();

  beforeAll(async () => {
    app = await createTestApp({
      clock: createClock(NOW),
      env: { MARKET_SEED: 'python-wall', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    alice = (await registerUser(app)).token;
    bob = (await registerUser(app)).token;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('a backtest writing a forged result gets no forged result: the run fails clearly, the server serves on', async () => {
    for (const payload of [forgedIpcFrame(), GARBAGE]) {
      const { status, body } = await post('/api/bots/test', alice, testRun(python(throughApi(payload))));
      expect(status, JSON.stringify(body).slice(0, 300)).toBe(422);
      expect(body).toMatchObject({ code: 'BACKTEST__STRATEGY_FAILED' });
      expect(body.error).toMatch(/^AttributeError|broke its protocol/);
      expect((await health()).status).toBe(200);
    }
  }, 120_000);

  it('a live paper bot writing garbage fails its own run at its candle; the server serves on', async () => {
    // Refused at save (its load breaks the protocol or fails in the lockdown)…
    const refused = await post('/api/bots', alice, python(throughApi(GARBAGE)));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BOTS__CODE_INVALID' });
    expect(refused.body.error).toMatch(
      /^The Python code does not load: (AttributeError|.*broke its protocol)/,
    );
    // …so it is one saved before that check: its run fails alone.
    const bot = (await post<TBot>('/api/bots', alice, python(PYTHON_TEMPLATES.sma_crossover))).body.data;
    await app.database.db.execute(
      `update bots set config = config || '${JSON.stringify({ code: throughApi(GARBAGE) }).replace(/'/g, "''")}'::jsonb where id = '${bot.bot_id}'`,
    );
    expect((await post(`/api/bots/${bot.bot_id}/start`, alice)).status).toBe(200);
    app.clock.advance(3 * MINUTE);
    await pass();
    const status = await call<{ status: string; message: string }>(app, {
      method: 'GET',
      url: `/api/bots/production/${bot.bot_id}/status`,
      headers: bearer(alice),
    });
    expect(status.body.data).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/AttributeError|broke its protocol/),
    });
    expect((await health()).status).toBe(200);
    // And the next candle close does not bring it (or the server) down again.
    app.clock.advance(MINUTE);
    await pass();
    expect((await health()).status).toBe(200);
  }, 120_000);

  it('one account starts at most its share of the live Python processes', async () => {
    const bots = [];
    for (let i = 0; i < 3; i += 1) {
      bots.push((await post<TBot>('/api/bots', alice, python(PYTHON_TEMPLATES.sma_crossover))).body.data);
    }
    expect((await post(`/api/bots/${bots[0]!.bot_id}/start`, alice)).status).toBe(200);
    expect((await post(`/api/bots/${bots[1]!.bot_id}/start`, alice)).status).toBe(200);
    const third = await post(`/api/bots/${bots[2]!.bot_id}/start`, alice);
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({
      code: 'BOTS__PYTHON_USER_LIMIT',
      error: 'You can run at most 2 Python bots at once on this server. Stop one to start another.',
    });
    const theirs = (await post<TBot>('/api/bots', bob, python(PYTHON_TEMPLATES.sma_crossover))).body.data;
    expect((await post(`/api/bots/${theirs.bot_id}/start`, bob)).status).toBe(200);
    for (const bot of bots.slice(0, 2)) await post(`/api/bots/${bot.bot_id}/stop`, alice);
    await post(`/api/bots/${theirs.bot_id}/stop`, bob);
  });
});
