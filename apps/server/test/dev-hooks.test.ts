import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TFuturesMarket, TTokenMarketData } from '@solterm/contracts';
import {
  call,
  createClock,
  createTestApp,
  databaseAgnosticTargets,
  openTestDatabase,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';

type Mail = { to: string; links: string[] };

describe.each(databaseAgnosticTargets())('dev outbox GET /api/dev/outbox on %s', (target) => {
  let database: TestDatabase;
  let localnet: TestApp;
  let email: string;

  beforeAll(async () => {
    database = await openTestDatabase(target);
    localnet = await createTestApp({ database });
    // Given a victim with a reset link waiting in the outbox
    ({ email } = await registerUser(localnet));
    await call(localnet, { method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
  });

  afterAll(async () => {
    await localnet?.close();
    await database?.cleanup();
  });

  const readOutbox = (app: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
    call<Mail[]>(app, { method: 'GET', url: '/api/dev/outbox', remoteAddress, headers });

  it.each(['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'])(
    'answers a loopback client (%s) on localnet',
    async (remoteAddress) => {
      const { status, body } = await readOutbox(localnet, remoteAddress);

      expect(status).toBe(200);
      expect(body.data.some((mail) => mail.to === email)).toBe(true);
    },
  );

  it.each(['203.0.113.7', '10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', '2001:db8::1'])(
    'answers a non-loopback client (%s) as if the route did not exist',
    async (remoteAddress) => {
      const outbox = await readOutbox(localnet, remoteAddress);

      expect(outbox.status).toBe(404);
      expect(outbox.body).toEqual({
        success: false,
        error: 'Not found: GET /api/dev/outbox',
        code: 'ROUTE__NOT_FOUND',
      });
      expect(JSON.stringify(outbox.body)).not.toContain(email);
    },
  );

  it('refuses a loopback connection that carries forwarding headers (a reverse proxy on the same host)', async () => {
    const relayed: Record<string, string>[] = [
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
    ];
    for (const headers of relayed) {
      const { status, body } = await readOutbox(localnet, '127.0.0.1', headers);

      expect(status, JSON.stringify(headers)).toBe(404);
      expect(body.code).toBe('ROUTE__NOT_FOUND');
    }
  });

  describe('with TRUST_PROXY set, judges the socket, not the forwarded address', () => {
    let proxied: TestApp;

    beforeAll(async () => {
      proxied = await createTestApp({ database, env: { TRUST_PROXY: '10.0.0.1,loopback' } });
    });

    afterAll(async () => {
      await proxied?.close();
    });

    it('refuses a remote client whose trusted proxy says it is 127.0.0.1', async () => {
      const { status } = await readOutbox(proxied, '10.0.0.1', { 'x-forwarded-for': '127.0.0.1' });

      expect(status).toBe(404);
    });

    it('refuses a remote client relayed by a trusted proxy on this machine', async () => {
      const { status } = await readOutbox(proxied, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' });

      expect(status).toBe(404);
    });
  });

  describe.each([
    ['devnet', {}, 404],
    ['testnet', {}, 404],
    ['devnet with DEV_OUTBOX=on', { SOLANA_NETWORK: 'devnet', DEV_OUTBOX: 'on' }, 200],
    ['localnet with DEV_OUTBOX=off', { DEV_OUTBOX: 'off' }, 404],
  ] as const)('on %s', (name, env, expected) => {
    let app: TestApp;

    beforeAll(async () => {
      const network = name.split(' ')[0]!;
      app = await createTestApp({ database, env: { SOLANA_NETWORK: network, ...env } });
    });

    afterAll(async () => {
      await app?.close();
    });

    it(`answers a loopback client with ${expected}`, async () => {
      const { status, body } = await readOutbox(app, '127.0.0.1');

      expect(status).toBe(expected);
      if (expected === 404) expect(body.code).toBe('ROUTE__NOT_FOUND');
    });
  });
});

describe('dev price hook POST /api/dev/market/shift', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    // A pinned clock: nothing moves the simulated market but the shifts themselves.
    app = await createTestApp({
      database,
      clock: createClock(new Date('2026-01-15T12:00:30Z')),
      env: { MARKET_SEED: 'dev-hooks', JOBS: 'off' },
    });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const shift = (target: TestApp, payload: object, remoteAddress = '127.0.0.1', headers = {}) =>
    call<{ symbol: string; mint: string; price: string; factor: number }>(target, {
      method: 'POST',
      url: '/api/dev/market/shift',
      payload,
      remoteAddress,
      headers,
    });
  const priceOf = async (target: TestApp, symbol: string) =>
    Number(
      (await call<TTokenMarketData>(target, { method: 'GET', url: `/api/market/data/${symbol}` })).body.data
        .price,
    );
  const oracleOf = async () =>
    Number(
      (await call<TFuturesMarket>(app, { method: 'GET', url: '/api/futures/market/SOL-PERP' })).body.data
        .oracle_price,
    );

  it('moves the quote, the market data and the perp oracle from now on, and resets', async () => {
    await app.perpKeeper!.tick(true);
    const before = await priceOf(app, 'SOL');
    const oracleBefore = await oracleOf();

    const moved = await shift(app, { token: 'SOL', percent: 5 });

    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ symbol: 'SOL', factor: expect.closeTo(1.05, 9) });
    expect(Number(moved.body.data.price)).toBeCloseTo(before * 1.05, 4);
    expect(await priceOf(app, 'SOL')).toBeCloseTo(before * 1.05, 4);
    expect(
      Number(await app.services.market.getUsdPrice(await app.services.market.resolveToken('SOL'))),
    ).toBeCloseTo(before * 1.05, 4);
    // The perp keeper's next pass reads the moved price into the oracle
    await app.perpKeeper!.tick(true);
    expect(await oracleOf()).toBeCloseTo(oracleBefore * 1.05, 1);
    // A mint names the token too; a reset undoes every shift
    const reset = await shift(app, { token: moved.body.data.mint, reset: true });
    expect(reset.body.data).toMatchObject({ symbol: 'SOL', factor: expect.closeTo(1, 9) });
    expect(await priceOf(app, 'SOL')).toBeCloseTo(before, 4);
  });

  it('refuses unknown tokens, bad amounts and a total move beyond 100x', async () => {
    expect((await shift(app, { token: 'NOPE', percent: 1 })).status).toBe(404);
    for (const payload of [
      { token: 'SOL' },
      { token: 'SOL', percent: -100 },
      { token: 'SOL', percent: 1, reset: true },
      { token: 'SOL', percent: '1' },
      { token: 'SOL', percent: 1, extra: 1 },
    ]) {
      expect((await shift(app, payload)).status, JSON.stringify(payload)).toBe(400);
    }
    const tooFar = await shift(app, { token: 'BONK', percent: 9_000 });
    expect(tooFar.status).toBe(200);
    const beyond = await shift(app, { token: 'BONK', percent: 10 });
    expect(beyond.status).toBe(400);
    expect(beyond.body.error).toMatch(/between 0.01 and 100 times/);
    await shift(app, { token: 'BONK', reset: true });
  });

  it.each(['203.0.113.7', '10.0.0.5', '::ffff:10.0.0.5', '2001:db8::1'])(
    'answers a non-loopback client (%s) as if the route did not exist, and moves nothing',
    async (remoteAddress) => {
      const before = await priceOf(app, 'SOL');
      const { status, body } = await shift(app, { token: 'SOL', percent: 50 }, remoteAddress);

      expect(status).toBe(404);
      expect(body.code).toBe('ROUTE__NOT_FOUND');
      expect(await priceOf(app, 'SOL')).toBe(before);
    },
  );

  it('refuses a loopback connection relayed by a proxy (forwarding headers)', async () => {
    const { status } = await shift(app, { token: 'SOL', percent: 50 }, '127.0.0.1', {
      'x-forwarded-for': '203.0.113.7',
    });
    expect(status).toBe(404);
  });

  it.each([
    ['devnet', { SOLANA_NETWORK: 'devnet' }],
    ['localnet with DEV_MARKET=off', { DEV_MARKET: 'off' }],
  ])('is not registered on %s', async (_name, env) => {
    const other = await createTestApp({ database, env: { ...env, JOBS: 'off' } });
    try {
      const { status, body } = await shift(other, { token: 'SOL', percent: 5 });
      expect(status).toBe(404);
      expect(body.code).toBe('ROUTE__NOT_FOUND');
    } finally {
      await other.close();
    }
  });
});
