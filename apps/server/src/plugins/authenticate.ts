import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error';
import type { AuthContext, AuthService } from '../modules/auth/auth.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `requireAuth` pre-handler on protected routes. */
    auth?: AuthContext;
  }
}

/** Reads `Authorization: Bearer <token>`; undefined when absent or not a bearer header. */
export function readBearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** A pre-handler that admits only requests carrying a live session token. */
export function createRequireAuth(auth: AuthService) {
  return async function requireAuth(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = readBearerToken(request);
    if (!token) throw new AppError('AUTH__NOT_AUTHENTICATED');
    request.auth = await auth.authenticate(token);
  };
}

/** The authenticated context of a request that passed `requireAuth`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('AUTH__NOT_AUTHENTICATED');
  return request.auth;
}
