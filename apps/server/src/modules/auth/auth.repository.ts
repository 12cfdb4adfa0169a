import { and, eq, gt, ilike, inArray, isNull, like, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { LoginAttemptDecision, LoginThrottleState } from './login-throttle';
import {
  custodialWallets,
  loginThrottles,
  passwordResetTokens,
  sessions,
  users,
  walletChallenges,
  walletIdentities,
} from './auth.tables';
import { sessionCacheOf } from './session-cache';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export function createAuthRepository(
  db: Db,
  now: () => Date,
  /** Only for a database no other process writes (embedded PGlite): see session-cache.ts. */
  options: { cacheSessions?: boolean } = {},
) {
  const cache = options.cacheSessions ? sessionCacheOf(db) : undefined;
  return {
    async findUserById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Usernames by user id (for public listings: never emails). */
    async usernamesOf(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(inArray(users.id, [...ids]));
      return new Map(rows.map((row) => [row.id, row.username]));
    },

    /** Ids of users whose username contains `text` (case-insensitive), at most `limit`. */
    async idsWithUsernameLike(text: string, limit: number): Promise<string[]> {
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(ilike(users.username, pattern))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row;
    },

    async insertUser(values: NewUserRow): Promise<UserRow> {
      const [row] = await db.insert(users).values(values).returning();
      return row!;
    },

    async updateUser(id: string, values: Partial<NewUserRow>): Promise<UserRow> {
      cache?.forget({ userId: id });
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: now() })
        .where(eq(users.id, id))
        .returning();
      cache?.forget({ userId: id });
      return row!;
    },

    async findWalletIdentity(walletKey: string) {
      const [row] = await db
        .select()
        .from(walletIdentities)
        .where(eq(walletIdentities.walletKey, walletKey))
        .limit(1);
      return row;
    },

    /** Creates the user and its wallet identity in one transaction. */
    async insertUserWithIdentity(
      user: NewUserRow,
      identity: { walletKey: string; address: string; walletType: string; chainId?: string | null },
    ): Promise<UserRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(users).values(user).returning();
        await tx.insert(walletIdentities).values({ ...identity, userId: row!.id });
        return row!;
      });
    },

    async insertWalletIdentity(values: typeof walletIdentities.$inferInsert): Promise<void> {
      await db.insert(walletIdentities).values(values);
    },

    /**
     * Links a wallet identity to an existing account. A Solana wallet joining an account that already
     * has another Solana wallet changes where its money may go, so it gets `unlockAtIfChanged`; an
     * account's first Solana wallet (or an EVM one) gets none. The user's row is locked meanwhile, so
     * two links racing on one account cannot both count as its first.
     */
    async linkWalletIdentity(
      values: Omit<typeof walletIdentities.$inferInsert, 'withdrawalsUnlockAt'>,
      unlockAtIfChanged: Date,
      /** Lock it even when it is the account's first Solana wallet. */
      lockFirst = false,
    ): Promise<{ withdrawalsUnlockAt: Date | null }> {
      return db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, values.userId)).for('update');
        const solana = values.walletKey.startsWith('solana:');
        const [other] = solana
          ? await tx
              .select({ id: walletIdentities.id })
              .from(walletIdentities)
              .where(
                and(
                  eq(walletIdentities.userId, values.userId),
                  like(walletIdentities.walletKey, 'solana:%'),
                  ne(walletIdentities.walletKey, values.walletKey),
                ),
              )
              .limit(1)
          : [];
        const withdrawalsUnlockAt = other || lockFirst ? unlockAtIfChanged : null;
        await tx.insert(walletIdentities).values({ ...values, withdrawalsUnlockAt });
        return { withdrawalsUnlockAt };
      });
    },

    /** When withdrawals to the user's Solana wallet `address` open; null when they are open (or it is unknown). */
    async withdrawalsUnlockAt(userId: string, address: string): Promise<Date | null> {
      const [row] = await db
        .select({ unlockAt: walletIdentities.withdrawalsUnlockAt })
        .from(walletIdentities)
        .where(and(eq(walletIdentities.userId, userId), eq(walletIdentities.walletKey, `solana:${address}`)))
        .limit(1);
      return row?.unlockAt ?? null;
    },

    async insertSession(values: typeof sessions.$inferInsert): Promise<void> {
      await db.insert(sessions).values(values);
    },

    async findActiveSession(id: string, now: Date) {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .limit(1);
      return row;
    },

    /**
     * The live session `id` of user `userId` with its user, in one statement (every authenticated
     * request asks this): undefined when the session is revoked, expired, someone else's or gone.
     */
    async findActiveSessionOfUser(id: string, userId: string, now: Date) {
      const cached = cache?.get(id, userId, now);
      if (cached) return cached;
      const readStartedAt = cache?.readStarts();
      const [row] = await db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(
            eq(sessions.id, id),
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, now),
          ),
        )
        .limit(1);
      if (row && readStartedAt !== undefined) cache!.store(readStartedAt, row);
      return row;
    },

    async revokeSession(id: string, now: Date): Promise<void> {
      cache?.forget({ id });
      await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
      cache?.forget({ id });
    },

    async revokeAllSessions(userId: string, now: Date): Promise<void> {
      cache?.forget({ userId });
      await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
      cache?.forget({ userId });
    },

    async insertChallenge(values: typeof walletChallenges.$inferInsert): Promise<void> {
      await db.insert(walletChallenges).values(values);
    },

    /** Marks a challenge used and returns it; undefined if unknown or already used (a replay). */
    async consumeChallenge(nonce: string, now: Date) {
      const [row] = await db
        .update(walletChallenges)
        .set({ usedAt: now })
        .where(and(eq(walletChallenges.nonce, nonce), isNull(walletChallenges.usedAt)))
        .returning();
      return row;
    },

    async deleteExpiredChallenges(before: Date): Promise<void> {
      await db.delete(walletChallenges).where(sql`${walletChallenges.expiresAt} < ${before}`);
    },

    async insertResetToken(values: typeof passwordResetTokens.$inferInsert): Promise<void> {
      await db.insert(passwordResetTokens).values(values);
    },

    /**
     * Consumes a reset token (single use, not expired) together with every other outstanding reset
     * token of its user, in one statement: once a link sets the password, no older link can set it
     * again, and of two links used at once only one wins. Returns the user id or undefined.
     */
    async consumeResetToken(tokenHash: string, now: Date): Promise<string | undefined> {
      const owner = db
        .select({ userId: passwordResetTokens.userId })
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        );
      const rows = await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.userId, owner), isNull(passwordResetTokens.usedAt)))
        .returning({ userId: passwordResetTokens.userId, tokenHash: passwordResetTokens.tokenHash });
      return rows.find((row) => row.tokenHash === tokenHash)?.userId;
    },

    /**
     * Reads an email's sign-in throttle, lets `decide` rule on the attempt and stores what it decides,
     * with the row locked: attempts racing in several processes are decided one after another.
     */
    async decideLoginAttempt(
      emailHash: string,
      decide: (state: LoginThrottleState | undefined) => LoginAttemptDecision,
    ): Promise<LoginAttemptDecision> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(loginThrottles)
          .where(eq(loginThrottles.emailHash, emailHash))
          .for('update');
        const decision = decide(row);
        if (decision.admitted) {
          await tx
            .insert(loginThrottles)
            .values({ emailHash, ...decision.next })
            .onConflictDoUpdate({ target: loginThrottles.emailHash, set: decision.next });
        }
        return decision;
      });
    },

    async clearLoginThrottle(emailHash: string): Promise<void> {
      await db.delete(loginThrottles).where(eq(loginThrottles.emailHash, emailHash));
    },

    /** Drops throttles that no longer hold anything back: failures forgotten, no delay running. */
    async deleteStaleLoginThrottles(failedBefore: Date, now: Date): Promise<void> {
      await db
        .delete(loginThrottles)
        .where(
          and(
            lt(loginThrottles.lastFailedAt, failedBefore),
            or(isNull(loginThrottles.lockedUntil), lt(loginThrottles.lockedUntil, now)),
          ),
        );
    },

    async findCustodialWallet(userId: string) {
      const [row] = await db
        .select()
        .from(custodialWallets)
        .where(eq(custodialWallets.userId, userId))
        .limit(1);
      return row;
    },

    async insertCustodialWallet(values: typeof custodialWallets.$inferInsert): Promise<boolean> {
      const rows = await db.insert(custodialWallets).values(values).onConflictDoNothing().returning();
      return rows.length > 0;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
