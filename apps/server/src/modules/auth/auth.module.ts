import type { EmailService } from '../email/email.service';
import { createModuleEvent, createModuleQuestion } from '../../lib/module-events';
import { defineModule, type ModuleContext } from '../../lib/server-module';
import { createAuthRepository } from './auth.repository';
import { registerAuthRoutes } from './auth.routes';
import { createAuthService } from './auth.service';
import { createSessionTokens } from './session-tokens';

/** Sessions ended by logout or a password reset: what acts for them elsewhere (sockets) stops too. */
export interface SessionsRevoked {
  userId: string;
  sessionId?: string;
}

/**
 * Accounts, sessions and linked wallets. Modules above auth hear from it through its events: revoked
 * sessions (`sessionsRevoked`), and the question whether a user already holds money only a linked
 * wallet can withdraw (`holdsFundsAwaitingWallet`, answered by the bots module for its bot keys).
 */
export function createAuthModule(
  { config, log, now, database }: ModuleContext,
  deps: { email: EmailService; jwtSecret: Uint8Array; walletEncryptionKey: Uint8Array },
) {
  const sessionsRevoked = createModuleEvent<SessionsRevoked>();
  const holdsFundsAwaitingWallet = createModuleQuestion<string>();
  const auth = createAuthService({
    repo: createAuthRepository(database.db, now, { cacheSessions: database.kind === 'pglite' }),
    tokens: createSessionTokens(deps.jwtSecret),
    email: deps.email,
    walletEncryptionKey: deps.walletEncryptionKey,
    network: config.network,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    sessionTtlHours: config.sessionTtlHours,
    rememberMeTtlDays: config.rememberMeTtlDays,
    loginThrottle: config.loginThrottle,
    walletChangeLockMs: config.walletChangeLockMs,
    holdsFundsAwaitingWallet: (userId) => holdsFundsAwaitingWallet.ask(userId),
    now,
    log,
    onSessionsRevoked: (revocation) => sessionsRevoked.emit(revocation),
  });
  return defineModule({
    service: auth,
    events: { sessionsRevoked, holdsFundsAwaitingWallet },
    routes(server, { requireAuth }) {
      registerAuthRoutes(server, {
        auth,
        requireAuth,
        rateLimit: { max: config.authRateLimit.max, timeWindow: config.authRateLimit.windowMs },
      });
    },
  });
}
