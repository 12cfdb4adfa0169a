import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
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
