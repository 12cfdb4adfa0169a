import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  success,
  ZAuthResultSchema,
  ZConnectWalletRequestSchema,
  ZCreateWalletResultSchema,
  ZForgotPasswordRequestSchema,
  ZLoginRequestSchema,
  ZMessageResultSchema,
  ZRegisterRequestSchema,
  ZResetPasswordRequestSchema,
  ZUserSchema,
  ZValidateTokenResultSchema,
  ZWalletChallengeQuerySchema,
  ZWalletChallengeSchema,
} from '@solterm/contracts';
import { isAppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf } from '../../plugins/authenticate';
import type { AuthService, RequestMeta } from './auth.service';

// A bodyless POST reaches the validator as null; accept it like an empty object.
const ZEmptyBodySchema = z.object({}).passthrough().nullish();

export interface AuthRoutesDeps {
  auth: AuthService;
  requireAuth: preHandlerAsyncHookHandler;
  rateLimit: { max: number; timeWindow: number };
}

function metaOf(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

const tags = ['auth'];
const bearer = [{ bearerAuth: [] }];

/** Credential and challenge endpoints are the brute-force surface: limit them per client address. */
function limitedOf(deps: AuthRoutesDeps) {
  return { rateLimit: deps.rateLimit };
}

export function registerAuthRoutes(app: ZodApp, deps: AuthRoutesDeps): void {
  registerPasswordRoutes(app, deps);
  registerWalletSignInRoutes(app, deps);
  registerUserRoutes(app, deps);
}

/** Email and password: register, login, logout, forgot and reset password. */
function registerPasswordRoutes(app: ZodApp, deps: AuthRoutesDeps): void {
  const { auth, requireAuth } = deps;
  const limited = limitedOf(deps);

  app.post('/api/auth/register', {
    config: limited,
    schema: {
      tags,
      summary: 'Create an account with email and password',
      body: ZRegisterRequestSchema,
      response: { 200: success(ZAuthResultSchema) },
    },
    handler: async (request) => ok(await auth.register(request.body, metaOf(request))),
  });

  app.post('/api/auth/login', {
    config: limited,
    schema: {
      tags,
      summary: 'Sign in with email and password',
      body: ZLoginRequestSchema,
      response: { 200: success(ZAuthResultSchema) },
    },
    handler: async (request, reply) => {
      try {
        return ok(await auth.login(request.body, metaOf(request)));
      } catch (error) {
        // An email held back after failed sign-ins: say when to try again, as the per-client limit does.
        if (isAppError(error) && error.code === 'AUTH__LOGIN_LOCKED') {
          reply.header('retry-after', String(error.details?.retryAfterSeconds ?? 1));
        }
        throw error;
      }
    },
  });

  app.post('/api/auth/logout', {
    preHandler: requireAuth,
    schema: {
      tags,
      security: bearer,
      summary: 'Revoke the current session token',
      response: { 200: success(ZMessageResultSchema) },
    },
    handler: async (request) => {
      const { user, sessionId } = authOf(request);
      await auth.logout(user.id, sessionId);
      return ok({ message: 'Logged out' });
    },
  });

  app.post('/api/auth/forgot-password', {
    config: limited,
    schema: {
      tags,
      summary: 'Email a single-use password reset link (valid for one hour)',
      body: ZForgotPasswordRequestSchema,
      response: { 200: success(ZMessageResultSchema) },
    },
    handler: async (request) => {
      await auth.forgotPassword(request.body.email);
      return ok({ message: 'If an account exists for this email, a reset link has been sent.' });
    },
  });

  app.post('/api/auth/reset-password', {
    config: limited,
    schema: {
      tags,
      summary: 'Set a new password with a reset token; signs the user out everywhere',
      body: ZResetPasswordRequestSchema,
      response: { 200: success(ZMessageResultSchema) },
    },
    handler: async (request) => {
      await auth.resetPassword(request.body.token, request.body.new_password);
      return ok({ message: 'Password has been reset. Please log in.' });
    },
  });
}

/** Wallet sign-in and the account's wallet: challenge, connect, link, disconnect, create. */
function registerWalletSignInRoutes(app: ZodApp, deps: AuthRoutesDeps): void {
  const { auth, requireAuth } = deps;
  const limited = limitedOf(deps);

  app.get('/api/auth/wallet-challenge', {
    config: limited,
    schema: {
      tags,
      summary: 'A single-use Sign-In-With-Solana (or EIP-4361) message to sign; expires in 5 minutes',
      querystring: ZWalletChallengeQuerySchema,
      response: { 200: success(ZWalletChallengeSchema) },
    },
    handler: async (request) => ok(await auth.createChallenge(request.query)),
  });

  app.post('/api/auth/connect-wallet', {
    config: limited,
    schema: {
      tags,
      summary:
        'Sign in with a wallet (signed challenge), or watch-only with a typed address (wallet_type manual)',
      body: ZConnectWalletRequestSchema,
      response: { 200: success(ZAuthResultSchema) },
    },
    handler: async (request) => ok(await auth.connectWallet(request.body, metaOf(request))),
  });

  app.post('/api/auth/connect-wallet-to-user', {
    config: limited,
    preHandler: requireAuth,
    schema: {
      tags,
      security: bearer,
      summary: 'Link a wallet to the signed-in account',
      description:
        'A Solana wallet linked to an account that already has another one receives no bot or futures withdrawal for WALLET_CHANGE_LOCK_MS (403 WALLET__CHANGE_LOCKED, with the unlock time), and the account is told by email. Linking a wallet it had before does not restart or add a lock.',
      body: ZConnectWalletRequestSchema,
      response: { 200: success(ZUserSchema) },
    },
    handler: async (request) => ok(await auth.connectWalletToUser(authOf(request).user.id, request.body)),
  });

  app.post('/api/auth/disconnect-wallet', {
    preHandler: requireAuth,
    schema: {
      tags,
      security: bearer,
      summary: 'Clear the connected wallet of the signed-in account',
      body: ZEmptyBodySchema,
      response: { 200: success(ZUserSchema) },
    },
    handler: async (request) => ok(await auth.disconnectWallet(authOf(request).user.id)),
  });

  app.post('/api/auth/create-wallet', {
    preHandler: requireAuth,
    schema: {
      tags,
      security: bearer,
      summary: 'Create (once) a custodial Solana wallet whose secret is encrypted at rest',
      body: ZEmptyBodySchema,
      response: { 200: success(ZCreateWalletResultSchema) },
    },
    handler: async (request) => ok(await auth.createWallet(authOf(request).user.id)),
  });
}

/** The signed-in user: token check and profile. */
function registerUserRoutes(app: ZodApp, deps: AuthRoutesDeps): void {
  const { auth, requireAuth } = deps;

  app.get('/api/user/validate-token', {
    preHandler: requireAuth,
    schema: {
      tags: ['user'],
      security: bearer,
      summary: 'Check the bearer token',
      response: { 200: success(ZValidateTokenResultSchema) },
    },
    handler: async (request) => {
      const { user, expiresAt } = authOf(request);
      return ok({ user_id: user.id, valid: true as const, expires_at: expiresAt.toISOString() });
    },
  });

  app.get('/api/user/profile', {
    preHandler: requireAuth,
    schema: {
      tags: ['user'],
      security: bearer,
      summary: 'The signed-in user',
      response: { 200: success(ZUserSchema) },
    },
    handler: async (request) => ok(await auth.getProfile(authOf(request).user.id)),
  });
}
