import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import {
  call,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  registerUser,
  uniqueEmail,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';

const SECOND_MS = 1000;
const LOCKED = {
  success: false,
  error: 'Too many failed sign-in attempts for this email. Please try again later.',
  code: 'AUTH__LOGIN_LOCKED',
};

let forged = 0;
/** A different made-up address each call: what an attacker rotates in X-Forwarded-For. */
const forgedAddress = () => `203.0.113.${(forged += 1) % 250}`;

describe.each(databaseTargets())('login limits on %s', (target) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(target);
  });

  afterAll(async () => {
    await database?.cleanup();
  });

  const login = (
    app: TestApp,
    email: string,
    password: string,
    from: { remoteAddress?: string; forwardedFor?: string } = {},
  ) =>
    call(app, {
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: from.remoteAddress ?? '198.51.100.1',
      headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
      payload: { email, password },
    });

  describe.each([
    ['a hop count (TRUST_PROXY=1)', '1'],
    ['a proxy address list (TRUST_PROXY=10.0.0.1,10.9.0.0/16)', '10.0.0.1,10.9.0.0/16'],
  ])('per client, behind a proxy trusted by %s', (_name, trustProxy) => {
    let app: TestApp;

    beforeAll(async () => {
      app = await createTestApp({ database, env: { TRUST_PROXY: trustProxy, AUTH_RATE_LIMIT_MAX: '3' } });
    });

    afterAll(async () => {
      await app?.close();
    });

    it('a forged X-Forwarded-For entry does not escape the limit of the real client', async () => {
      // Given the proxy at 10.0.0.1, which appends the address it saw to what the client sent
      const throughProxy = (client: string) => ({
        remoteAddress: '10.0.0.1',
        forwardedFor: `${forgedAddress()}, ${client}`,
      });

      // When one client tries four times, forging a new address each time
      const attempts = [];
      for (let index = 0; index < 4; index += 1) {
        attempts.push(await login(app, uniqueEmail(), 'wrong password', throughProxy('198.51.100.7')));
      }
      const otherClient = await login(app, uniqueEmail(), 'wrong password', throughProxy('198.51.100.8'));

      // Then the fourth is refused, and another client is not
      expect(attempts.map((attempt) => attempt.status)).toEqual([401, 401, 401, 429]);
      expect(attempts[3]!.body.code).toBe('REQUEST__RATE_LIMITED');
      expect(otherClient.status).toBe(401);
    });

    // A hop count trusts whoever connects as a proxy: it is only safe when clients cannot reach the
    // server but through the proxy. A list of proxy addresses also holds when they can.
    it.runIf(trustProxy !== '1')(
      'a client that reaches the server directly cannot pose as a proxy',
      async () => {
        const statuses = [];
        for (let index = 0; index < 4; index += 1) {
          const response = await login(app, uniqueEmail(), 'wrong password', {
            remoteAddress: '192.0.2.44',
            forwardedFor: `${forgedAddress()}, ${forgedAddress()}`,
          });
          statuses.push(response.status);
        }

        expect(statuses).toEqual([401, 401, 401, 429]);
      },
    );
  });

  describe('per account', () => {
    let app: TestApp;

    beforeAll(async () => {
      app = await createTestApp({
        database,
        env: { LOGIN_FAILURES_MAX: '3', LOGIN_BACKOFF_MAX_MS: '100000' },
      });
    });

    afterAll(async () => {
      await app?.close();
    });

    /** Three failures from three different clients: what a distributed guesser does. */
    async function failThreeTimes(email: string): Promise<number[]> {
      const statuses = [];
      for (const remoteAddress of ['198.51.100.11', '198.51.100.12', '198.51.100.13']) {
        statuses.push((await login(app, email, 'wrong password', { remoteAddress })).status);
      }
      return statuses;
    }

    it('refuses an email after 3 failures from any clients, even with the right password, until its delay passes', async () => {
      const { email, password } = await registerUser(app);
      expect(await failThreeTimes(email)).toEqual([401, 401, 401]);

      const refused = await login(app, email, password, { remoteAddress: '198.51.100.99' });
      app.clock.advance(30 * SECOND_MS);
      const allowed = await login(app, email, password);

      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(LOCKED);
      expect(refused.response.headers['retry-after']).toBe('30');
      expect(allowed.status).toBe(200);
    });

    it('a successful sign-in forgets the failures', async () => {
      const { email, password } = await registerUser(app);
      await login(app, email, 'wrong password');
      await login(app, email, 'wrong password');

      expect((await login(app, email, password)).status).toBe(200);
      expect(await failThreeTimes(email)).toEqual([401, 401, 401]);
      expect((await login(app, email, password)).status).toBe(429);
    });

    it('doubles the delay with each further failure, up to LOGIN_BACKOFF_MAX_MS', async () => {
      const { email } = await registerUser(app);
      await failThreeTimes(email);

      const delays = [];
      for (let index = 0; index < 4; index += 1) {
        const refused = await login(app, email, 'wrong password');
        expect(refused.status).toBe(429);
        const seconds = Number(refused.response.headers['retry-after']);
        delays.push(seconds);
        app.clock.advance(seconds * SECOND_MS);
        // The one attempt let through after the delay fails, and locks the email again for longer.
        expect((await login(app, email, 'wrong password')).status).toBe(401);
      }

      expect(delays).toEqual([30, 60, 100, 100]);
    });

    it('forgets failures older than the window (15 minutes)', async () => {
      const { email, password } = await registerUser(app);
      await login(app, email, 'wrong password');
      await login(app, email, 'wrong password');
      app.clock.advance(15 * 60 * SECOND_MS);

      expect((await login(app, email, 'wrong password')).status).toBe(401);
      expect((await login(app, email, password)).status).toBe(200);
    });

    it('answers an unknown email exactly like a known one, so it reveals no account', async () => {
      const { email: known } = await registerUser(app);
      const unknown = uniqueEmail('ghost');

      const answers = async (email: string) => {
        const seen = [];
        for (let index = 0; index < 5; index += 1) {
          const { status, body, response } = await login(app, email, 'wrong password');
          seen.push({ status, body, retryAfter: response.headers['retry-after'] });
        }
        return seen;
      };

      const forKnown = await answers(known);
      const forUnknown = await answers(unknown);

      expect(forUnknown).toEqual(forKnown);
      expect(forKnown.map((answer) => answer.status)).toEqual([401, 401, 401, 429, 429]);
    });

    it('a password reset lifts the lock, so the owner is never locked out for long', async () => {
      const { email } = await registerUser(app);
      await failThreeTimes(email);
      await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
      const outbox = await call<{ links: string[] }[]>(app, {
        method: 'GET',
        url: `/api/dev/outbox?to=${encodeURIComponent(email)}&limit=1`,
      });
      const token = new URL(outbox.body.data[0]!.links[0]!).searchParams.get('token');

      await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token, new_password: 'the owner is back' },
      });

      expect((await login(app, email, 'the owner is back')).status).toBe(200);
    });

    it('is kept in the database: another server process (or a restart) sees the lock', async () => {
      const { email, password } = await registerUser(app);
      await failThreeTimes(email);
      // Another process: its own connection to the same database, its own memory.
      const connection =
        target === 'postgres' ? await openDatabase({ kind: 'postgres', url: database.url! }) : undefined;
      const other = await createTestApp({
        database: connection ? { target, database: connection, cleanup: () => connection.close() } : database,
        clock: app.clock,
        env: { LOGIN_FAILURES_MAX: '3' },
      });
      try {
        const refused = await login(other, email, password);

        expect(refused.status).toBe(429);
        expect(refused.body.code).toBe('AUTH__LOGIN_LOCKED');
      } finally {
        await other.close();
        await connection?.close();
      }
    });
  });
});
