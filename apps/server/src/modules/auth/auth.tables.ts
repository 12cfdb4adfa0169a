import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    /** Stored trimmed and lower-cased, so "A@x.io" and "a@x.io" are one account. */
    email: text('email'),
    passwordHash: text('password_hash'),
    /** The wallet currently shown as connected (may be a watch-only address). */
    solanaWalletAddress: text('solana_wallet_address'),
    walletType: text('wallet_type'),
    isWatchOnly: boolean('is_watch_only').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

/**
 * How a wallet logs in. The key separates proof levels: `solana:<address>` and `evm:<address>` are
 * proven by a signature; `watch:<address>` is a manually typed address that proves nothing, so it can
 * never reach an account created by a signing wallet.
 */
export const walletIdentities = pgTable(
  'wallet_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    walletKey: text('wallet_key').notNull(),
    address: text('address').notNull(),
    walletType: text('wallet_type').notNull(),
    chainId: text('chain_id'),
    /**
     * When money may first be withdrawn to this wallet: set when a Solana wallet is linked to an
     * account that already had another one (the payout wallet changed), null for an account's first
     * wallet. Linking the same wallet again keeps it, so it never restarts or clears the lock.
     */
    withdrawalsUnlockAt: timestamp('withdrawals_unlock_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('wallet_identities_key_unique').on(table.walletKey),
    index('wallet_identities_user_idx').on(table.userId),
  ],
);

/** One row per issued JWT (its `jti`), so logout and password resets can revoke tokens. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/** Sign-in challenges: single use, five-minute life. */
export const walletChallenges = pgTable(
  'wallet_challenges',
  {
    nonce: text('nonce').primaryKey(),
    walletAddress: text('wallet_address').notNull(),
    walletType: text('wallet_type').notNull(),
    message: text('message').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('wallet_challenges_expires_idx').on(table.expiresAt)],
);

/** Password-reset tokens, stored as SHA-256 hashes: a database leak does not leak usable links. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('password_reset_tokens_hash_unique').on(table.tokenHash)],
);

/** Server-held (custodial) Solana keypairs; the secret is AES-256-GCM encrypted at rest. */
export const custodialWallets = pgTable('custodial_wallets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  publicKey: text('public_key').notNull().unique(),
  encryptedSecret: text('encrypted_secret').notNull(),
  createdAt: createdAt(),
});

/**
 * Failed sign-ins per email, shared by every server process and kept across restarts. Keyed by the
 * SHA-256 of the normalised email, known account or not, so the table neither lists who tried which
 * address nor answers differently for accounts that exist.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    emailHash: text('email_hash').primaryKey(),
    failures: integer('failures').notNull(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (table) => [index('login_throttles_last_failed_idx').on(table.lastFailedAt)],
);
