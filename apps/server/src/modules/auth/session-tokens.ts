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

/**
 * HS256 JWTs with `exp`, `aud`, `iss` and a per-session `jti`. Only HS256 is accepted on the way in:
 * `alg: none`, RS256 confusion or any other algorithm fails verification.
 */
export function createSessionTokens(secret: Uint8Array) {
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
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: now,
          requiredClaims: ['sub', 'jti', 'exp'],
        });
        return { userId: payload.sub as string, sessionId: payload.jti as string };
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
