import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  type TAuthResult,
  type TConnectWalletRequest,
  type TCreateWalletResult,
  type TLoginRequest,
  type TNetwork,
  type TRegisterRequest,
  type TUser,
} from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import { utcText } from '../../lib/utc-time';
import type { EmailService } from '../email/email.service';
import { isUniqueViolation } from '../../db/errors';
import type { AuthRepository, UserRow } from './auth.repository';
import { encryptSecret, generateCustodialKeypair } from '../../lib/server-keys';
import { decideLoginAttempt, type LoginThrottlePolicy } from './login-throttle';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password';
import type { SessionTokens } from './session-tokens';
import { createWalletProofs } from './wallet-proof';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface RequestMeta {
  ip?: string;
  userAgent?: string;
}

export interface AuthContext {
  user: UserRow;
  sessionId: string;
  expiresAt: Date;
}

export interface AuthServiceDeps {
  repo: AuthRepository;
  tokens: SessionTokens;
  email: EmailService;
  walletEncryptionKey: Uint8Array;
  network: TNetwork;
  /** This site's origin (PUBLIC_URL): reset links and the domain and URI of sign-in challenges. */
  publicUrl: string;
  sessionTtlHours: number;
  rememberMeTtlDays: number;
  /** Failed sign-ins allowed per email before a growing, bounded delay (persisted, all processes). */
  loginThrottle: LoginThrottlePolicy;
  /** How long withdrawals to a newly linked wallet are refused after the payout wallet changes. */
  walletChangeLockMs: number;
  /**
   * Whether the account already holds money that only a linked wallet can withdraw (SOL sent
   * straight to its bot key): then even its first wallet is locked, and the owner emailed.
   */
  holdsFundsAwaitingWallet?: (userId: string) => Promise<boolean>;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Told once sessions are revoked, so what acts for them elsewhere (open sockets) stops too. */
  onSessionsRevoked?: (revocation: { userId: string; sessionId?: string }) => Promise<void>;
}

/** Emails are identities: compared trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function toUserDto(row: UserRow): TUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    solana_wallet_address: row.solanaWalletAddress,
    wallet_type: row.walletType,
    is_watch_only: row.isWatchOnly,
    has_password: row.passwordHash !== null,
    created_at: row.createdAt.toISOString(),
  };
}

function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Accounts, sessions and wallet sign-in. Every failure is an AppError with a stable code. */
export function createAuthService(deps: AuthServiceDeps) {
  const { repo, tokens, now } = deps;
  const walletProofs = createWalletProofs({
    repo,
    now,
    network: deps.network,
    publicUrl: deps.publicUrl,
  });
  const proveWallet = walletProofs.prove;

  async function startSession(user: UserRow, rememberMe: boolean, meta: RequestMeta): Promise<TAuthResult> {
    const issuedAt = now();
    const ttlMs = rememberMe ? deps.rememberMeTtlDays * 86_400_000 : deps.sessionTtlHours * 3_600_000;
    const expiresAt = new Date(issuedAt.getTime() + ttlMs);
    const issued = await tokens.issue(user.id, expiresAt, issuedAt);
    await repo.insertSession({
      id: issued.sessionId,
      userId: user.id,
      expiresAt,
      ip: meta.ip?.slice(0, 64) ?? null,
      userAgent: meta.userAgent?.slice(0, 256) ?? null,
    });
    return { token: issued.token, user: toUserDto(user), expires_at: expiresAt.toISOString() };
  }

  /**
   * Tells the account's owner a new payout wallet was linked and when withdrawals to it unlock, so a
   * thief holding their session is found out before the lock ends. The link stands if mail fails.
   */
  async function noticeWalletChange(user: UserRow, address: string, unlockAt: Date): Promise<void> {
    if (!user.email) return;
    try {
      await deps.email.send({
        to: user.email,
        subject: 'A new wallet was linked to your solterm account',
        text: [
          `Hello ${user.username},`,
          '',
          `A new wallet ${address} was linked to your solterm account at ${utcText(now())}; withdrawals to it unlock at ${utcText(unlockAt)}.`,
          '',
          'If it was you, there is nothing to do. If it was not, someone is using your account: reset your password now (this signs out every session) and connect your own wallet again before then.',
        ].join('\n'),
      });
    } catch (error) {
      deps.log.error({ err: error, userId: user.id }, 'could not send the new-wallet notice');
    }
  }

  async function requireUser(userId: string): Promise<UserRow> {
    const user = await repo.findUserById(userId);
    if (!user) throw new AppError('AUTH__USER_NOT_FOUND');
    return user;
  }

  return {
    createChallenge: walletProofs.createChallenge,

    async register(request: TRegisterRequest, meta: RequestMeta): Promise<TAuthResult> {
      const email = normalizeEmail(request.email);
      if (await repo.findUserByEmail(email)) throw new AppError('AUTH__EMAIL_TAKEN');
      const passwordHash = await hashPassword(request.password);
      try {
        const user = await repo.insertUser({ username: request.username, email, passwordHash });
        return await startSession(user, false, meta);
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('AUTH__EMAIL_TAKEN');
        throw error;
      }
    },

    /**
     * Signs in with email and password. Each email (known or not, answered alike) has a persisted
     * failure count: past the limit, attempts are refused with a doubling, bounded delay.
     */
    async login(request: TLoginRequest, meta: RequestMeta): Promise<TAuthResult> {
      const email = normalizeEmail(request.email);
      const emailHash = sha256Hex(email);
      const attemptAt = now();
      const decision = await repo.decideLoginAttempt(emailHash, (state) =>
        decideLoginAttempt(state, attemptAt, deps.loginThrottle),
      );
      if (!decision.admitted) {
        throw new AppError('AUTH__LOGIN_LOCKED', undefined, {
          retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000),
        });
      }
      const user = await repo.findUserByEmail(email);
      let isValid = false;
      if (user?.passwordHash) isValid = await verifyPassword(user.passwordHash, request.password);
      else await verifyAgainstDummy(request.password);
      if (!user || !isValid) {
        await repo.deleteStaleLoginThrottles(
          new Date(attemptAt.getTime() - deps.loginThrottle.windowMs),
          attemptAt,
        );
        throw new AppError('AUTH__INVALID_CREDENTIALS');
      }
      await repo.clearLoginThrottle(emailHash);
      return startSession(user, request.remember_me ?? false, meta);
    },

    async logout(userId: string, sessionId: string): Promise<void> {
      await repo.revokeSession(sessionId, now());
      await deps.onSessionsRevoked?.({ userId, sessionId });
    },

    /** True while a session is neither revoked nor expired. */
    async isSessionActive(sessionId: string): Promise<boolean> {
      return (await repo.findActiveSession(sessionId, now())) !== undefined;
    },

    /** Resolves a bearer token to its live session and user, or throws AUTH__TOKEN_INVALID. */
    async authenticate(token: string): Promise<AuthContext> {
      const verified = await tokens.verify(token, now());
      const found = await repo.findActiveSessionOfUser(verified.sessionId, verified.userId, now());
      if (!found) throw new AppError('AUTH__TOKEN_INVALID');
      return { user: found.user, sessionId: found.session.id, expiresAt: found.session.expiresAt };
    },

    /**
     * When withdrawals to the user's Solana wallet `address` unlock, if it is still locked at `at`
     * (it was linked to an account that already had another wallet, less than WALLET_CHANGE_LOCK_MS ago).
     */
    async withdrawalsLockedUntil(userId: string, address: string, at: Date): Promise<Date | null> {
      const unlockAt = await repo.withdrawalsUnlockAt(userId, address);
      return unlockAt && unlockAt.getTime() > at.getTime() ? unlockAt : null;
    },

    /** Public names of users (their usernames, never their emails), for listings others see. */
    publicNamesOf: (ids: readonly string[]): Promise<Map<string, string>> => repo.usernamesOf(ids),

    /** Ids of users whose public name contains `text` (a marketplace search by creator). */
    usersNamedLike: (text: string, limit: number): Promise<string[]> => repo.idsWithUsernameLike(text, limit),

    async getProfile(userId: string): Promise<TUser> {
      return toUserDto(await requireUser(userId));
    },

    /** Always succeeds for a well-formed email, so the endpoint does not reveal who has an account. */
    async forgotPassword(rawEmail: string): Promise<void> {
      const user = await repo.findUserByEmail(normalizeEmail(rawEmail));
      if (!user?.email) {
        deps.log.info('password reset requested for an unknown email');
        return;
      }
      const token = randomBytes(32).toString('base64url');
      await repo.insertResetToken({
        userId: user.id,
        tokenHash: sha256Hex(token),
        expiresAt: new Date(now().getTime() + RESET_TOKEN_TTL_MS),
      });
      const link = `${deps.publicUrl}/reset-password?token=${token}`;
      await deps.email.send({
        to: user.email,
        subject: 'Reset your solterm password',
        text: [
          `Hello ${user.username},`,
          '',
          'Someone asked to reset the password of your solterm account. Open this link within one hour to choose a new one:',
          '',
          link,
          '',
          'If it was not you, ignore this email; your password stays as it is.',
        ].join('\n'),
      });
    },

    /** Sets a new password with a single-use token and signs the user out everywhere. */
    async resetPassword(token: string, newPassword: string): Promise<void> {
      const passwordHash = await hashPassword(newPassword);
      const userId = await repo.consumeResetToken(sha256Hex(token), now());
      if (!userId) throw new AppError('AUTH__RESET_TOKEN_INVALID');
      const user = await repo.updateUser(userId, { passwordHash });
      await repo.revokeAllSessions(userId, now());
      // Whoever reads the mailbox owns the account: failed sign-ins by others no longer hold it back.
      if (user.email) await repo.clearLoginThrottle(sha256Hex(user.email));
      await deps.onSessionsRevoked?.({ userId });
    },

    /** Signs in with a wallet, creating its account on first use. */
    async connectWallet(request: TConnectWalletRequest, meta: RequestMeta): Promise<TAuthResult> {
      const proof = await proveWallet(request);
      let identity = await repo.findWalletIdentity(proof.walletKey);
      if (!identity) {
        try {
          const user = await repo.insertUserWithIdentity(
            {
              username: `wallet_${proof.address.slice(0, 8)}`,
              email: null,
              solanaWalletAddress: proof.address,
              walletType: proof.walletType,
              isWatchOnly: proof.isWatchOnly,
            },
            {
              walletKey: proof.walletKey,
              address: proof.address,
              walletType: proof.walletType,
              chainId: proof.chainId,
            },
          );
          return await startSession(user, false, meta);
        } catch (error) {
          // Two first sign-ins of one wallet raced: the other created the account; use it.
          if (!isUniqueViolation(error)) throw error;
          identity = await repo.findWalletIdentity(proof.walletKey);
          if (!identity) throw error;
        }
      }
      const user = await repo.updateUser(identity.userId, {
        solanaWalletAddress: proof.address,
        walletType: proof.walletType,
      });
      return startSession(user, false, meta);
    },

    /** Links a wallet to the signed-in account and makes it the connected wallet. */
    async connectWalletToUser(userId: string, request: TConnectWalletRequest): Promise<TUser> {
      const user = await requireUser(userId);
      if (user.isWatchOnly) throw new AppError('WALLET__WATCH_ONLY_ACCOUNT');
      if (request.wallet_type === 'manual') {
        const updated = await repo.updateUser(userId, {
          solanaWalletAddress: request.wallet_address,
          walletType: 'manual',
        });
        return toUserDto(updated);
      }
      const proof = await proveWallet(request);
      const identity = await repo.findWalletIdentity(proof.walletKey);
      if (identity && identity.userId !== userId) throw new AppError('WALLET__ALREADY_LINKED');
      // A wallet linked before keeps its lock (or none): linking it again neither restarts nor clears it.
      let unlockAt: Date | null = null;
      if (!identity) {
        // A stolen session's first wallet would otherwise take what the account already holds at once.
        const lockFirst = (await deps.holdsFundsAwaitingWallet?.(userId)) ?? false;
        try {
          ({ withdrawalsUnlockAt: unlockAt } = await repo.linkWalletIdentity(
            {
              userId,
              walletKey: proof.walletKey,
              address: proof.address,
              walletType: proof.walletType,
              chainId: proof.chainId,
            },
            new Date(now().getTime() + deps.walletChangeLockMs),
            lockFirst,
          ));
        } catch (error) {
          if (isUniqueViolation(error)) throw new AppError('WALLET__ALREADY_LINKED');
          throw error;
        }
      }
      const updated = await repo.updateUser(userId, {
        solanaWalletAddress: proof.address,
        walletType: proof.walletType,
      });
      if (unlockAt) await noticeWalletChange(updated, proof.address, unlockAt);
      return toUserDto(updated);
    },

    /** Clears the connected wallet. A wallet's sign-in identity stays, so the owner can sign in again. */
    async disconnectWallet(userId: string): Promise<TUser> {
      await requireUser(userId);
      return toUserDto(await repo.updateUser(userId, { solanaWalletAddress: null, walletType: null }));
    },

    /** Creates (once) a server-held Solana keypair for the user; the secret is encrypted at rest. */
    async createWallet(userId: string): Promise<TCreateWalletResult> {
      const user = await requireUser(userId);
      if (user.isWatchOnly) throw new AppError('WALLET__WATCH_ONLY');
      const existing = await repo.findCustodialWallet(userId);
      if (existing) return { wallet_address: existing.publicKey, wallet_type: 'custodial', created: false };
      const keypair = generateCustodialKeypair();
      const inserted = await repo.insertCustodialWallet({
        userId,
        publicKey: keypair.address,
        encryptedSecret: encryptSecret(deps.walletEncryptionKey, keypair.seed, keypair.address),
      });
      keypair.seed.fill(0);
      if (!inserted) {
        const winner = await repo.findCustodialWallet(userId);
        return { wallet_address: winner!.publicKey, wallet_type: 'custodial', created: false };
      }
      return { wallet_address: keypair.address, wallet_type: 'custodial', created: true };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
