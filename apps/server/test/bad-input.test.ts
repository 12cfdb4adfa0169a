import { SignJWT } from 'jose';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  call,
  captureRequestLogs,
  countRows,
  createTestApp,
  databaseAgnosticTargets,
  openTestDatabase,
  registerUser,
  TEST_PASSWORD,
  uniqueEmail,
  type AuthData,
  type CapturedLog,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { createSolanaWallet } from './helpers/wallets';

const TABLES = [
  'users',
  'sessions',
  'wallet_identities',
  'wallet_challenges',
  'password_reset_tokens',
  'custodial_wallets',
  'email_outbox',
] as const;
const LONG = 'x'.repeat(10_000);
// Fastify's own per-request lines; a rejection must add a line of its own.
const ROUTINE_LOGS = new Set(['incoming request', 'request completed']);

interface BadRequest {
  name: string;
  request: InjectOptions | ((context: { token: string; email: string }) => Promise<InjectOptions>);
  status: number;
  code: string;
  /** The exact `error` text, or the spec's message it must contain when a field name precedes it. */
  error?: string;
  contains?: string;
  field?: string;
}

const json = (url: string, raw: string): InjectOptions => ({
  method: 'POST',
  url,
  payload: raw,
  headers: { 'content-type': 'application/json' },
});
const register = (payload: unknown): InjectOptions => ({
  method: 'POST',
  url: '/api/auth/register',
  payload: payload as object,
});
const validRegistration = () => ({ username: 'someone', email: uniqueEmail(), password: TEST_PASSWORD });

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

const BAD_REQUESTS: BadRequest[] = [
  // Malformed bodies
  {
    name: 'malformed JSON',
    request: json('/api/auth/register', '{"username": "a", "email":'),
    status: 400,
    code: 'REQUEST__MALFORMED_JSON',
    error: 'Malformed JSON body',
  },
  {
    name: 'an empty JSON body',
    request: json('/api/auth/login', ''),
    status: 400,
    code: 'REQUEST__MALFORMED_JSON',
    error: 'Malformed JSON body',
  },
  {
    name: 'a __proto__ key',
    request: json(
      '/api/auth/register',
      `{"__proto__": {"isAdmin": true}, "username": "a", "email": "${uniqueEmail()}", "password": "${TEST_PASSWORD}"}`,
    ),
    status: 400,
    code: 'REQUEST__MALFORMED_JSON',
  },
  {
    name: 'a JSON array body',
    request: register([1, 2, 3]),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'body',
  },
  {
    name: 'a JSON null body',
    request: json('/api/auth/register', 'null'),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'body',
  },
  {
    name: 'a form-encoded body',
    request: {
      method: 'POST',
      url: '/api/auth/login',
      payload: 'email=a%40b.co&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
    status: 415,
    code: 'REQUEST__UNSUPPORTED_MEDIA_TYPE',
    error: 'Unsupported content type',
  },
  {
    name: 'a body over BODY_LIMIT_BYTES',
    request: register({ ...validRegistration(), username: 'y'.repeat(300 * 1024) }),
    status: 413,
    code: 'REQUEST__BODY_TOO_LARGE',
    error: 'Request body is too large',
  },

  // Wrong types
  {
    name: 'a number for email',
    request: register({ ...validRegistration(), email: 42 }),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'email',
  },
  {
    name: 'a boolean for password',
    request: register({ ...validRegistration(), password: true }),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'password',
  },
  {
    name: 'an object for username',
    request: register({ ...validRegistration(), username: { first: 'a' } }),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'username',
  },
  {
    name: 'a string for remember_me',
    request: {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.co', password: 'x', remember_me: 'yes' },
    },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'remember_me',
  },
  {
    name: 'an unknown wallet type',
    request: {
      method: 'POST',
      url: '/api/auth/connect-wallet',
      payload: { wallet_address: 'abc', wallet_type: 'coinbase' },
    },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'wallet_type',
  },

  // Missing fields
  ...(['username', 'email', 'password'] as const).map((missing): BadRequest => ({
    name: `register without ${missing}`,
    request: register(
      Object.fromEntries(Object.entries(validRegistration()).filter(([key]) => key !== missing)),
    ),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: missing,
  })),
  {
    name: 'login without password',
    request: { method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.co' } },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'password',
  },
  {
    name: 'wallet-challenge without wallet_type',
    request: { method: 'GET', url: '/api/auth/wallet-challenge', query: { wallet_address: 'abc' } },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'wallet_type',
  },
  {
    name: 'reset-password without token',
    request: { method: 'POST', url: '/api/auth/reset-password', payload: { new_password: 'long enough' } },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'token',
  },

  // The spec's messages
  {
    name: 'an invalid email',
    request: register({ ...validRegistration(), email: 'not-an-email' }),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'email',
    contains: 'Please enter a valid email address',
  },
  {
    name: 'a short password',
    request: register({ ...validRegistration(), password: 'short' }),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'password',
    contains: 'Password must be at least 8 characters long',
  },
  {
    name: 'an empty reset token',
    request: {
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: '   ', new_password: 'long enough' },
    },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'token',
    contains: 'Invalid reset link. Please request a new password reset.',
  },
  {
    name: 'a blank manual wallet address',
    request: {
      method: 'POST',
      url: '/api/auth/connect-wallet',
      payload: { wallet_address: '   ', wallet_type: 'manual' },
    },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'wallet_address',
    contains: 'Please enter a wallet address',
  },
  {
    name: 'a chain id that is not hex',
    request: {
      method: 'POST',
      url: '/api/auth/connect-wallet',
      payload: { wallet_address: '0x'.padEnd(42, 'a'), wallet_type: 'manual', chain_id: 'ethereum' },
    },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'chain_id',
    contains: 'Chain id must be a hex number such as 0x1',
  },

  // Very long strings
  {
    name: 'a 10 kB username',
    request: register({ ...validRegistration(), username: LONG }),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'username',
    contains: 'Username must be at most 64 characters long',
  },
  {
    name: 'a 10 kB email',
    request: register({ ...validRegistration(), email: `${LONG}@example.com` }),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'email',
  },
  {
    name: 'a 10 kB password',
    request: register({ ...validRegistration(), password: LONG }),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'password',
    contains: 'Password must be at most 256 characters long',
  },
  {
    name: 'a 10 kB login password',
    request: { method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.co', password: LONG } },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'password',
  },
  {
    name: 'a 10 kB wallet address',
    request: {
      method: 'POST',
      url: '/api/auth/connect-wallet',
      payload: { wallet_address: LONG, wallet_type: 'manual' },
    },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'wallet_address',
  },
  {
    name: 'a 10 kB signed message',
    request: () => {
      const wallet = createSolanaWallet();
      return Promise.resolve({
        method: 'POST',
        url: '/api/auth/connect-wallet',
        payload: {
          wallet_address: wallet.address,
          wallet_type: 'phantom',
          signature: wallet.sign(LONG),
          message: LONG,
        },
      });
    },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'message',
  },
  {
    name: 'a 10 kB reset token',
    request: {
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: LONG, new_password: 'long enough' },
    },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'token',
  },
  {
    name: 'a 10 kB forgot-password email',
    request: { method: 'POST', url: '/api/auth/forgot-password', payload: { email: `${LONG}@example.com` } },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    field: 'email',
  },
  {
    name: 'a 10 kB bearer token',
    request: { method: 'GET', url: '/api/user/profile', headers: bearer(LONG) },
    status: 401,
    code: 'AUTH__TOKEN_INVALID',
    error: 'Invalid or expired token',
  },

  // Text Postgres cannot store
  {
    name: 'a NUL character in a username',
    request: register({ ...validRegistration(), username: 'nul\u0000byte' }),
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    error: 'Text must not contain NUL characters',
  },
  {
    name: 'a NUL character in a manual wallet address',
    request: {
      method: 'POST',
      url: '/api/auth/connect-wallet',
      payload: { wallet_address: 'watch\u0000me', wallet_type: 'manual' },
    },
    status: 400,
    code: 'VALIDATION__INVALID_INPUT',
    error: 'Text must not contain NUL characters',
  },

  // Identity
  {
    name: 'an email that differs only in case from an existing one',
    request: async ({ email }) =>
      register({ username: 'copy', email: email.toUpperCase(), password: TEST_PASSWORD }),
    status: 409,
    code: 'AUTH__EMAIL_TAKEN',
    error: 'Email already registered',
  },
  {
    name: 'a token signed with another secret',
    request: async ({ token }) => {
      const [, payload] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('x'.repeat(40)));
      return { method: 'POST', url: '/api/auth/create-wallet', headers: bearer(forged) };
    },
    status: 401,
    code: 'AUTH__TOKEN_INVALID',
    error: 'Invalid or expired token',
  },
  {
    name: 'a token with alg none',
    request: async ({ token }) => {
      const [, payload] = token.split('.');
      return {
        method: 'POST',
        url: '/api/auth/create-wallet',
        headers: bearer(`${base64url({ alg: 'none' })}.${payload}.`),
      };
    },
    status: 401,
    code: 'AUTH__TOKEN_INVALID',
    error: 'Invalid or expired token',
  },
];

describe.each(databaseAgnosticTargets())('bad input on %s', (target) => {
  let database: TestDatabase;
  let app: TestApp;
  let logs: CapturedLog[];
  let existing: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({ database });
    logs = captureRequestLogs(app);
    existing = await registerUser(app);
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const countAll = () => countRows(app, ...TABLES);

  it.each(BAD_REQUESTS)('$name → $status, logged, nothing stored', async (bad) => {
    const request =
      typeof bad.request === 'function'
        ? await bad.request({ token: existing.token, email: existing.email })
        : bad.request;
    const before = await countAll();
    const logStart = logs.length;

    const { status, body } = await call(app, request);

    expect(status).toBe(bad.status);
    expect(body.success).toBe(false);
    expect(body.code).toBe(bad.code);
    expect(typeof body.error).toBe('string');
    if (bad.error) expect(body.error).toBe(bad.error);
    if (bad.contains) expect(body.error).toContain(bad.contains);
    if (bad.field) {
      expect(body.field).toBe(bad.field);
      expect(body.error.startsWith(`${bad.field}: `)).toBe(true);
    }
    const rejectionLogs = logs.slice(logStart).filter((entry) => !ROUTINE_LOGS.has(entry.message));
    expect(rejectionLogs.length, 'the rejection is logged').toBeGreaterThan(0);
    expect(
      rejectionLogs.every((entry) => entry.level === 'info'),
      'an expected rejection is not logged as an error',
    ).toBe(true);
    expect(await countAll()).toEqual(before);
  });

  it.each(['日本語のユーザー', 'Ünïcødé 🚀🌕', 'مرحبا بالعالم', 'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇', '👩‍👩‍👧‍👦 family'])(
    'accepts and returns the unicode username %s',
    async (username) => {
      const before = await countRows(app, 'users');

      const registered = await registerUser(app, { username: `  ${username}  ` });
      const profile = await call<AuthData['user']>(app, {
        method: 'GET',
        url: '/api/user/profile',
        headers: bearer(registered.token),
      });

      expect(registered.user.username).toBe(username);
      expect(profile.body.data.username).toBe(username);
      expect((await countRows(app, 'users')).users).toBe(before.users + 1);
    },
  );

  it('accepts a unicode password and signs in with it', async () => {
    const password = 'pässwörd 🔑 ключ';
    const registered = await registerUser(app, { password });

    const loggedIn = await call(app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: registered.email, password },
    });

    expect(loggedIn.status).toBe(200);
  });

  it('accepts a manual address in any script (watch-only addresses have no format check)', async () => {
    const { status, body } = await call<AuthData>(app, {
      method: 'POST',
      url: '/api/auth/connect-wallet',
      payload: { wallet_address: 'アドレス-🚀', wallet_type: 'manual' },
    });

    expect(status).toBe(200);
    expect(body.data.user).toMatchObject({ solana_wallet_address: 'アドレス-🚀', is_watch_only: true });
  });

  describe('rate limit', () => {
    let limited: TestApp;

    beforeAll(async () => {
      limited = await createTestApp({ database, env: { AUTH_RATE_LIMIT_MAX: '3' } });
    });

    afterAll(async () => {
      await limited?.close();
    });

    it('answers the 4th login from one client within the window with 429 and the envelope', async () => {
      const attempt = (remoteAddress: string) =>
        call(limited, {
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress,
          payload: { email: existing.email, password: 'wrong password' },
        });

      const allowed = [await attempt('10.0.0.1'), await attempt('10.0.0.1'), await attempt('10.0.0.1')];
      const refused = await attempt('10.0.0.1');
      const otherClient = await attempt('10.0.0.2');

      for (const response of allowed) {
        expect(response.status).toBe(401);
        expect(response.response.headers['x-ratelimit-limit']).toBe('3');
      }
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        success: false,
        error: 'Too many requests. Please try again later.',
        code: 'REQUEST__RATE_LIMITED',
      });
      expect(refused.response.headers['retry-after']).toBeDefined();
      expect(otherClient.status).toBe(401);
    });

    it('does not limit routes outside the auth surface', async () => {
      for (let index = 0; index < 6; index += 1) {
        const { status } = await call(limited, {
          method: 'GET',
          url: '/api/health',
          remoteAddress: '10.0.0.3',
        });
        expect(status).toBe(200);
      }
    });
  });
});
