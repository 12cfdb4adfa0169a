import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  registerUser,
  TEST_PASSWORD,
  uniqueEmail,
  type AuthData,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const RESET_LINK_INVALID = 'Invalid reset link. Please request a new password reset.';

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe.each(databaseTargets())('auth API on %s', (target) => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({ database });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const login = (email: string, password: string, rememberMe?: boolean) =>
    call<AuthData>(app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: rememberMe === undefined ? { email, password } : { email, password, remember_me: rememberMe },
    });
  const validate = (token: string) =>
    call<{ user_id: string; valid: boolean; expires_at: string }>(app, {
      method: 'GET',
      url: '/api/user/validate-token',
      headers: bearer(token),
    });
  const outbox = (to: string) =>
    call<{ to: string; subject: string; links: string[] }[]>(app, {
      method: 'GET',
      url: `/api/dev/outbox?to=${encodeURIComponent(to)}`,
    });

  async function requestResetToken(email: string): Promise<string> {
    const before = (await outbox(email)).body.data.length;
    const forgot = await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
    expect(forgot.status).toBe(200);
    const mails = (await outbox(email)).body.data;
    expect(mails).toHaveLength(before + 1);
    const link = mails[0]!.links.find((candidate) => candidate.includes('/reset-password?token='));
    expect(link).toBeDefined();
    return new URL(link!).searchParams.get('token')!;
  }

  describe('register', () => {
    it('creates an account, answers a token and a user, and lower-cases the email', async () => {
      const email = uniqueEmail('Mixed.Case').replace('example.com', 'Example.COM');
      const { status, body } = await call<AuthData>(app, {
        method: 'POST',
        url: '/api/auth/register',
        payload: { username: 'alice', email: `  ${email}  `, password: TEST_PASSWORD },
      });

      expect(status).toBe(200);
      expect(body.success).toBe(true);
      expect(body.data.token.split('.')).toHaveLength(3);
      expect(body.data.user).toMatchObject({
        username: 'alice',
        email: email.toLowerCase(),
        solana_wallet_address: null,
        wallet_type: null,
        is_watch_only: false,
        has_password: true,
      });
      expect(new Date(body.data.expires_at).getTime()).toBe(app.clock.now().getTime() + DAY_MS);
    });

    it('refuses an email already registered, also when it differs only in case', async () => {
      const { email } = await registerUser(app);

      for (const variant of [
        email,
        email.toUpperCase(),
        ` ${email.replace(/^./, (c) => c.toUpperCase())} `,
      ]) {
        const { status, body } = await call(app, {
          method: 'POST',
          url: '/api/auth/register',
          payload: { username: 'copycat', email: variant, password: TEST_PASSWORD },
        });
        expect(status).toBe(409);
        expect(body).toEqual({
          success: false,
          error: 'Email already registered',
          code: 'AUTH__EMAIL_TAKEN',
        });
      }
    });
  });

  describe('login', () => {
    it('signs in with the right password, whatever the case of the email', async () => {
      const { email, password, user } = await registerUser(app);

      const { status, body } = await login(email.toUpperCase(), password);

      expect(status).toBe(200);
      expect(body.data.user.id).toBe(user.id);
    });

    it('gives a 24-hour session, or a 30-day one with remember_me', async () => {
      const { email, password } = await registerUser(app);
      const now = app.clock.now().getTime();

      const short = await login(email, password, false);
      const remembered = await login(email, password, true);
      const unspecified = await login(email, password);

      expect(new Date(short.body.data.expires_at).getTime()).toBe(now + DAY_MS);
      expect(new Date(remembered.body.data.expires_at).getTime()).toBe(now + 30 * DAY_MS);
      expect(new Date(unspecified.body.data.expires_at).getTime()).toBe(now + DAY_MS);
      expect(decodeJwt(remembered.body.data.token).exp).toBe(Math.floor((now + 30 * DAY_MS) / 1000));
    });

    it('answers 401 with one message for a wrong password and for an unknown email', async () => {
      const { email } = await registerUser(app);

      const wrongPassword = await login(email, 'not the password');
      const unknownEmail = await login(uniqueEmail('nobody'), TEST_PASSWORD);

      for (const { status, body } of [wrongPassword, unknownEmail]) {
        expect(status).toBe(401);
        expect(body).toEqual({
          success: false,
          error: 'Invalid email or password',
          code: 'AUTH__INVALID_CREDENTIALS',
        });
      }
    });

    it('issues a new, independently valid token on every login', async () => {
      const { email, password, token: registerToken } = await registerUser(app);

      const first = await login(email, password);
      const second = await login(email, password);

      const tokens = [registerToken, first.body.data.token, second.body.data.token];
      expect(new Set(tokens).size).toBe(3);
      expect(new Set(tokens.map((token) => decodeJwt(token).jti)).size).toBe(3);
      for (const token of tokens) expect((await validate(token)).status).toBe(200);
    });
  });

  describe('sessions', () => {
    it('validate-token and profile describe the signed-in user', async () => {
      const registered = await registerUser(app, { username: 'profile-owner' });

      const validated = await validate(registered.token);
      const profile = await call<AuthData['user']>(app, {
        method: 'GET',
        url: '/api/user/profile',
        headers: bearer(registered.token),
      });

      expect(validated.status).toBe(200);
      expect(validated.body.data).toEqual({
        user_id: registered.user.id,
        valid: true,
        expires_at: registered.expires_at,
      });
      expect(profile.status).toBe(200);
      expect(profile.body.data).toMatchObject({
        id: registered.user.id,
        username: 'profile-owner',
        email: registered.email,
        has_password: true,
        is_watch_only: false,
      });
    });

    it('logout revokes only the token it was called with', async () => {
      const { email, password } = await registerUser(app);
      const kept = (await login(email, password)).body.data.token;
      const revoked = (await login(email, password)).body.data.token;

      const loggedOut = await call(app, {
        method: 'POST',
        url: '/api/auth/logout',
        headers: bearer(revoked),
      });

      expect(loggedOut.status).toBe(200);
      expect(loggedOut.body.data).toEqual({ message: 'Logged out' });
      expect((await validate(revoked)).status).toBe(401);
      expect((await validate(kept)).status).toBe(200);
      const again = await call(app, { method: 'POST', url: '/api/auth/logout', headers: bearer(revoked) });
      expect(again.status).toBe(401);
    });

    it('refuses a session read just before its logout at once, in every app over the database', async () => {
      // A second app over the same database, as tests play a second process: it read the session too.
      const other = await createTestApp({ database });
      try {
        const { email, password } = await registerUser(app);
        const kept = (await login(email, password)).body.data.token;
        const revoked = (await login(email, password)).body.data.token;
        const validateIn = (server: TestApp, token: string) =>
          call(server, { method: 'GET', url: '/api/user/validate-token', headers: bearer(token) });
        for (const server of [app, other]) {
          expect((await validateIn(server, revoked)).status).toBe(200);
          expect((await validateIn(server, kept)).status).toBe(200);
        }

        expect(
          (await call(app, { method: 'POST', url: '/api/auth/logout', headers: bearer(revoked) })).status,
        ).toBe(200);

        for (const server of [app, other]) {
          expect((await validateIn(server, revoked)).status).toBe(401);
          expect((await validateIn(server, kept)).status).toBe(200);
        }
      } finally {
        await other.close();
      }
    });

    it('refuses a token once its expiry has passed', async () => {
      // A clock of its own, so moving a day ahead does not expire the other tests' sessions.
      const clock = createClock();
      const timeApp = await createTestApp({ database, clock });
      try {
        const { token } = await registerUser(timeApp);
        clock.advance(DAY_MS - 1000);
        expect(
          (await call(timeApp, { method: 'GET', url: '/api/user/validate-token', headers: bearer(token) }))
            .status,
        ).toBe(200);

        clock.advance(2000);
        const expired = await call(timeApp, {
          method: 'GET',
          url: '/api/user/validate-token',
          headers: bearer(token),
        });

        expect(expired.status).toBe(401);
        expect(expired.body.code).toBe('AUTH__TOKEN_INVALID');
      } finally {
        await timeApp.close();
      }
    });

    describe('refuses with 401', () => {
      let registered: Awaited<ReturnType<typeof registerUser>>;
      let claims: ReturnType<typeof decodeJwt>;

      beforeAll(async () => {
        registered = await registerUser(app);
        claims = decodeJwt(registered.token);
      });

      it('a token with the same claims signed with another secret', async () => {
        const forged = await new SignJWT({ ...claims })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));

        const { status, body } = await validate(forged);

        expect(status).toBe(401);
        expect(body).toEqual({
          success: false,
          error: 'Invalid or expired token',
          code: 'AUTH__TOKEN_INVALID',
        });
      });

      it('a token with alg none', async () => {
        const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;

        const { status, body } = await validate(unsigned);

        expect(status).toBe(401);
        expect(body.code).toBe('AUTH__TOKEN_INVALID');
      });

      it('a token whose header claims HS256 but whose signature was stripped', async () => {
        const [header, payload] = registered.token.split('.');

        expect((await validate(`${header}.${payload}.`)).status).toBe(401);
      });

      it('a token whose payload was changed after signing', async () => {
        const [header, , signature] = registered.token.split('.');
        const otherUser = await registerUser(app);
        const tampered = `${header}.${base64url({ ...claims, sub: otherUser.user.id })}.${signature}`;

        expect((await validate(tampered)).status).toBe(401);
      });

      it.each([
        ['garbage', 'not-a-jwt'],
        ['three garbage segments', 'a.b.c'],
        ['an empty payload', 'eyJhbGciOiJIUzI1NiJ9..'],
      ])('%s', async (_name, token) => {
        const { status, body } = await validate(token);

        expect(status).toBe(401);
        expect(body.code).toBe('AUTH__TOKEN_INVALID');
      });

      it('a missing or non-bearer Authorization header', async () => {
        const missing = await call(app, { method: 'GET', url: '/api/user/profile' });
        const basic = await call(app, {
          method: 'GET',
          url: '/api/user/profile',
          headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
        });

        for (const { status, body } of [missing, basic]) {
          expect(status).toBe(401);
          expect(body).toEqual({
            success: false,
            error: 'Not authenticated',
            code: 'AUTH__NOT_AUTHENTICATED',
          });
        }
      });
    });
  });

  describe('password reset', () => {
    it('emails a link whose token sets a new password and signs the user out everywhere', async () => {
      const { email, password, token: registerToken } = await registerUser(app);
      const loginToken = (await login(email, password, true)).body.data.token;
      const resetToken = await requestResetToken(email);

      const reset = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: resetToken, new_password: 'a brand new password' },
      });

      expect(reset.status).toBe(200);
      expect(reset.body.data).toEqual({ message: 'Password has been reset. Please log in.' });
      expect((await login(email, password)).status).toBe(401);
      expect((await login(email, 'a brand new password')).status).toBe(200);
      expect((await validate(registerToken)).status).toBe(401);
      expect((await validate(loginToken)).status).toBe(401);
    });

    it('signs out sessions that were read just before the reset', async () => {
      const { email, token: registerToken } = await registerUser(app);
      expect((await validate(registerToken)).status).toBe(200);
      const resetToken = await requestResetToken(email);

      const reset = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: resetToken, new_password: 'a brand new password' },
      });

      expect(reset.status).toBe(200);
      expect((await validate(registerToken)).status).toBe(401);
    });

    it('refuses a reset token a second time', async () => {
      const { email } = await registerUser(app);
      const resetToken = await requestResetToken(email);
      const first = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: resetToken, new_password: 'first new password' },
      });

      const reused = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: resetToken, new_password: 'second new password' },
      });

      expect(first.status).toBe(200);
      expect(reused.status).toBe(400);
      expect(reused.body).toEqual({
        success: false,
        error: RESET_LINK_INVALID,
        code: 'AUTH__RESET_TOKEN_INVALID',
      });
      expect((await login(email, 'first new password')).status).toBe(200);
      expect((await login(email, 'second new password')).status).toBe(401);
    });

    it('a reset invalidates every other outstanding reset link of that user', async () => {
      // Given two reset links sent to the same account
      const { email } = await registerUser(app);
      const firstLink = await requestResetToken(email);
      const secondLink = await requestResetToken(email);

      // When the first one is used
      const first = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: firstLink, new_password: 'chosen by the owner' },
      });
      const second = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: secondLink, new_password: 'chosen by an attacker' },
      });

      // Then the second one no longer changes the password
      expect(first.status).toBe(200);
      expect(second.status).toBe(400);
      expect(second.body.code).toBe('AUTH__RESET_TOKEN_INVALID');
      expect((await login(email, 'chosen by the owner')).status).toBe(200);
      expect((await login(email, 'chosen by an attacker')).status).toBe(401);
    });

    it('refuses a reset token older than one hour', async () => {
      const { email, password } = await registerUser(app);
      const resetToken = await requestResetToken(email);
      app.clock.advance(61 * 60 * 1000);

      const { status, body } = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: resetToken, new_password: 'too late password' },
      });

      expect(status).toBe(400);
      expect(body.error).toBe(RESET_LINK_INVALID);
      expect((await login(email, password)).status).toBe(200);
    });

    it('refuses an unknown reset token', async () => {
      const { status, body } = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: 'made-up-token', new_password: 'whatever password' },
      });

      expect(status).toBe(400);
      expect(body.error).toBe(RESET_LINK_INVALID);
    });

    it('refuses a new password shorter than 8 characters and keeps the token usable', async () => {
      const { email } = await registerUser(app);
      const resetToken = await requestResetToken(email);

      const short = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: resetToken, new_password: 'short' },
      });
      const valid = await call(app, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: resetToken, new_password: 'long enough now' },
      });

      expect(short.status).toBe(400);
      expect(short.body.field).toBe('new_password');
      expect(short.body.error).toContain('Password must be at least 8 characters long');
      expect(valid.status).toBe(200);
    });

    it('answers the same for an unknown email and sends nothing', async () => {
      const unknown = uniqueEmail('ghost');

      const { status, body } = await call(app, {
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: unknown },
      });

      expect(status).toBe(200);
      expect(body.data).toEqual({
        message: 'If an account exists for this email, a reset link has been sent.',
      });
      expect((await outbox(unknown)).body.data).toEqual([]);
    });

    it('finds the account whatever the case of the email', async () => {
      const { email } = await registerUser(app);

      await call(app, {
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: email.toUpperCase() },
      });

      const mails = (await outbox(email)).body.data;
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ to: email, subject: 'Reset your solterm password' });
    });
  });
});
