import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { createSessionTokens } from './session-tokens';

const secret = new TextEncoder().encode('unit-test-secret-unit-test-secret-1234');
const tokens = createSessionTokens(secret);
const userId = '7f1c1f4e-2a7b-4d8e-9a51-3c2b8e6d0f11';
const now = new Date('2025-06-01T12:00:00.000Z');
const inADay = new Date(now.getTime() + 86_400_000);

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A token with the claims `issue` would give, changed by `edit`, signed with `alg` and `key`. */
async function craft(
  edit: (jwt: SignJWT) => SignJWT = (jwt) => jwt,
  { alg = 'HS256', key = secret }: { alg?: string; key?: Uint8Array } = {},
): Promise<string> {
  const base = new SignJWT({})
    .setProtectedHeader({ alg })
    .setSubject(userId)
    .setJti('0b7e1f1a-5d1c-4f4e-8a3b-2c1d0e9f8a7b')
    .setIssuer('solterm')
    .setAudience('solterm-api')
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(inADay.getTime() / 1000));
  return edit(base).sign(key);
}

async function expectRejected(token: string, at: Date = now): Promise<void> {
  await expectRejectedBy(tokens, token, at);
}

async function expectRejectedBy(verifier: typeof tokens, token: string, at: Date): Promise<void> {
  const failure = await verifier.verify(token, at).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(AppError);
  expect((failure as AppError).code).toBe('AUTH__TOKEN_INVALID');
}

describe('session tokens', () => {
  it('issues an HS256 token that verifies back to its user and session', async () => {
    const issued = await tokens.issue(userId, inADay, now);

    const verified = await tokens.verify(issued.token, now);

    expect(verified).toEqual({ userId, sessionId: issued.sessionId });
    expect(issued.expiresAt).toEqual(inADay);
    expect(decodeJwt(issued.token)).toMatchObject({
      sub: userId,
      jti: issued.sessionId,
      iss: 'solterm',
      aud: 'solterm-api',
      iat: Math.floor(now.getTime() / 1000),
      exp: Math.floor(inADay.getTime() / 1000),
    });
  });

  it('gives every token its own session id', async () => {
    const first = await tokens.issue(userId, inADay, now);
    const second = await tokens.issue(userId, inADay, now);

    expect(first.sessionId).not.toBe(second.sessionId);
    expect(first.token).not.toBe(second.token);
  });

  it('is valid until its expiry and refused after it', async () => {
    const { token } = await tokens.issue(userId, inADay, now);

    await expect(tokens.verify(token, new Date(inADay.getTime() - 1000))).resolves.toMatchObject({ userId });
    await expectRejected(token, new Date(inADay.getTime() + 1000));
  });

  it('checks the time claims of a token it verified before on every use', async () => {
    const notBefore = Math.floor(now.getTime() / 1000) + 60;
    const token = await craft((jwt) => jwt.setNotBefore(notBefore));
    const fresh = createSessionTokens(secret);
    await expect(fresh.verify(token, new Date(notBefore * 1000))).resolves.toMatchObject({ userId });

    await expectRejectedBy(fresh, token, new Date(notBefore * 1000 - 1000));
    await expect(fresh.verify(token, new Date(notBefore * 1000))).resolves.toMatchObject({ userId });
    await expectRejectedBy(fresh, token, inADay);
  });

  it('accepts a token crafted like an issued one (the baseline for the refusals below)', async () => {
    await expect(tokens.verify(await craft(), now)).resolves.toMatchObject({ userId });
  });

  it('refuses a token signed with another secret', async () => {
    await expectRejected(
      await craft(undefined, { key: new TextEncoder().encode('another-secret-another-secret-123456') }),
    );
  });

  it('refuses HS512 and HS384 even with the same secret', async () => {
    await expectRejected(await craft(undefined, { alg: 'HS512' }));
    await expectRejected(await craft(undefined, { alg: 'HS384' }));
  });

  it('refuses alg none', async () => {
    const [, payload] = (await craft()).split('.');

    await expectRejected(`${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`);
    await expectRejected(`${base64url({ alg: 'none' })}.${payload}.c2lnbmF0dXJl`);
  });

  it('refuses another audience or issuer', async () => {
    await expectRejected(await craft((jwt) => jwt.setAudience('another-api')));
    await expectRejected(await craft((jwt) => jwt.setIssuer('someone-else')));
  });

  it('refuses a token without sub, jti or exp', async () => {
    const withoutClaim = (claim: 'sub' | 'jti' | 'exp') => {
      const claims: Record<string, unknown> = {
        sub: userId,
        jti: 'j',
        iss: 'solterm',
        aud: 'solterm-api',
        exp: Math.floor(inADay.getTime() / 1000),
      };
      delete claims[claim];
      return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    };

    await expectRejected(await withoutClaim('sub'));
    await expectRejected(await withoutClaim('jti'));
    await expectRejected(await withoutClaim('exp'));
  });

  it('refuses a token used before its not-before time', async () => {
    await expectRejected(await craft((jwt) => jwt.setNotBefore(Math.floor(now.getTime() / 1000) + 3600)));
  });

  // jose reads the signature leniently; each of these verified before, and each was its own entry in
  // the verified cache and its own key of the per-session rate limit.
  it('refuses every other spelling of a valid token', async () => {
    const { token } = await tokens.issue(userId, inADay, now);
    const [head, payload, signature] = token.split('.') as [string, string, string];
    const last = signature.at(-1)!;
    // The same 2 significant bits with a spare bit set: one character on in the alphabet.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const spareBitSet = alphabet[alphabet.indexOf(last) + 1]!;
    const spellings = [
      `${token}=`,
      `${token} `,
      `${token}${' '.repeat(3000)}`,
      `${head}.${payload}.${signature.slice(0, 5)}\t${signature.slice(5)}`,
      `${head}.${payload}.${signature.slice(0, -1)}${spareBitSet}`,
    ];
    for (const spelling of spellings) await expectRejected(spelling);
    await expect(tokens.verify(token, now)).resolves.toMatchObject({ userId });
  });

  it.each(['', 'garbage', 'a.b.c', 'a.b', `${base64url({ alg: 'HS256' })}.not-json.${'x'.repeat(43)}`])(
    'refuses the malformed token %j',
    async (token) => {
      await expectRejected(token);
    },
  );
});
