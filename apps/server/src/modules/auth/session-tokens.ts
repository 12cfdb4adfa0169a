import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../lib/app-error';

const ISSUER = 'solterm';
const AUDIENCE = 'solterm-api';

export interface IssuedToken {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

export interface VerifiedToken {
  userId: string;
  sessionId: string;
}

/** Verified tokens a process remembers at most; past it, the oldest is dropped. */
const MAX_VERIFIED = 10_000;

/**
 * A token as {@link createSessionTokens} issues it: three unpadded base64url parts, the signature
 * 32 bytes (43 characters, the last one's two spare bits zero). jose decodes the signature
 * leniently (whitespace, padding and the spare bits are ignored), so without this one token could be
 * spelt many ways — each a new entry in the verified cache and its own key for per-session limits.
 */
const CANONICAL_TOKEN = /^[A-Za-z0-9_-]{1,512}\.[A-Za-z0-9_-]{1,1024}\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/**
 * HS256 JWTs with `exp`, `aud`, `iss` and a per-session `jti`. Only HS256 is accepted on the way in:
 * `alg: none`, RS256 confusion or any other algorithm fails verification.
 */
export function createSessionTokens(secret: Uint8Array) {
  // A token's signature and claims never change, so a verified one is not verified again: only its
  // time claims are checked against the clock on every use (as jwtVerify checks them; one that fails
  // goes through jwtVerify again, which refuses it). Whether its session is live is the caller's.
  const verified = new Map<string, VerifiedToken & { exp: number; nbf: number | undefined }>();
  return {
    async issue(userId: string, expiresAt: Date, now: Date): Promise<IssuedToken> {
      const sessionId = randomUUID();
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setJti(sessionId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(secret);
      return { token, sessionId, expiresAt };
    },

    async verify(token: string, now: Date): Promise<VerifiedToken> {
      if (!CANONICAL_TOKEN.test(token)) throw new AppError('AUTH__TOKEN_INVALID');
      const known = verified.get(token);
      if (known) {
        const seconds = Math.floor(now.getTime() / 1000);
        if (known.exp > seconds && (known.nbf === undefined || known.nbf <= seconds)) {
          return { userId: known.userId, sessionId: known.sessionId };
        }
        verified.delete(token);
      }
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: now,
          requiredClaims: ['sub', 'jti', 'exp'],
        });
        const result = { userId: payload.sub as string, sessionId: payload.jti as string };
        if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
        verified.set(token, { ...result, exp: payload.exp!, nbf: payload.nbf });
        return result;
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) {
          throw new AppError('AUTH__TOKEN_INVALID');
        }
        throw error;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;
