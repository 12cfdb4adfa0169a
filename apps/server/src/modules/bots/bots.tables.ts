import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables';

/**
 * Bot definitions: a strategy (built-in type or user code) and its risk settings, owned by a user.
 * Metrics are never stored here: they are computed from the bot's own fills.
 */
export const bots = pgTable(
  'bots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    strategyType: text('strategy_type').notNull(),
    /** The create payload's config (TBotConfig), as validated. */
    config: jsonb('config').notNull(),
    isPublic: boolean('is_public').notNull().default(false),
    /** running | stopped | failed. */
    status: text('status').notNull().default('stopped'),
    /** 'test' (paper) or 'mainnet' (on chain). */
    networkMode: text('network_mode').notNull().default('test'),
    /** The marketplace bot this one was copied from (null once that is deleted). */
    copiedFrom: uuid('copied_from').references((): AnyPgColumn => bots.id, { onDelete: 'set null' }),
    /** "name by creator" of the origin when copied: a copy is a snapshot, its label outlives the origin. */
    copiedFromLabel: text('copied_from_label'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('bots_user_idx').on(table.userId, table.createdAt),
    index('bots_public_idx').on(table.isPublic, table.createdAt),
  ],
);

/**
 * Who copied which marketplace bot, counted in its user_count: each copier once, ever, and only one
 * who copied with a signature-proven wallet holding SOL on chain (see MarketplaceService.copy).
 */
export const botCopies = pgTable(
  'bot_copies',
  {
    originId: uuid('origin_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.originId, table.userId] })],
);

/**
 * Live runs of bots: one row per start. A paper run trades a virtual balance at the venue's prices;
 * its position is never stored — it is what the strategy does over the run's closed candles, which
 * the runner replays after a restart (deterministic: the same candles, the same fills). The row
 * holds the checkpoint: the open time of the last candle evaluated.
 */
export const botRuns = pgTable(
  'bot_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'test' (paper) or 'mainnet'. */
    mode: text('mode').notNull(),
    /** running | stopped | failed. */
    status: text('status').notNull(),
    /** Why it stopped or failed (the last bot_status_change message). */
    message: text('message'),
    /** The bot's strategy and config as they were at the start (a run never changes under it). */
    strategyType: text('strategy_type').notNull(),
    config: jsonb('config').notNull(),
    /** Quote base units the run started with. */
    initialCash: text('initial_cash').notNull(),
    /** The quote token's USD price at the start: the venue's fee tiers read it, replays reuse it. */
    quoteUsdPrice: text('quote_usd_price').notNull(),
    /** The pair's token decimals (the fills' base units are read with them). */
    baseDecimals: integer('base_decimals').notNull(),
    quoteDecimals: integer('quote_decimals').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    /** Unix seconds: the open of the first candle the run trades on, and of the last one evaluated. */
    firstCandle: bigint('first_candle', { mode: 'number' }).notNull(),
    lastCandle: bigint('last_candle', { mode: 'number' }),
    /** The close of that candle (values the open lots in the bot's balance). */
    lastClose: text('last_close'),
  },
  (table) => [
    index('bot_runs_bot_idx').on(table.botId, table.startedAt),
    index('bot_runs_status_idx').on(table.status),
  ],
);

/** A live run's fills, as its trade list and metrics read them (amounts in base units). */
export const botFills = pgTable(
  'bot_fills',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => botRuns.id, { onDelete: 'cascade' }),
    /** 0, 1, 2… within the run: replay after a restart recomputes the same sequence. */
    seq: integer('seq').notNull(),
    botId: uuid('bot_id').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    side: text('side').notNull(),
    baseAmount: text('base_amount').notNull(),
    /** Quote paid or received, fee included. */
    quoteAmount: text('quote_amount').notNull(),
    /** Realised PnL of a sell, quote base units. */
    pnl: text('pnl'),
    reason: text('reason').notNull(),
    /** An on-chain run's fill: the swap that made it (amounts are what it moved). */
    txSignature: text('tx_signature'),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.seq] }),
    index('bot_fills_bot_idx').on(table.botId, table.time),
  ],
);

/**
 * Each user's bot key: the address on-chain bots trade from. Its seed is encrypted at rest under
 * WALLET_ENCRYPTION_KEY (bound to the address) and never leaves the server.
 */
export const botKeys = pgTable('bot_keys', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  address: text('address').notNull().unique(),
  encryptedSecret: text('encrypted_secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * The process executing one of the key's fills, and until when its claim holds: one process at a
   * time funds and trades from the key (a crashed holder's claim lapses).
   */
  tradingHolder: text('trading_holder'),
  tradingUntil: timestamp('trading_until', { withTimezone: true }),
});

/**
 * Delegations: SPL approvals of the owner's wrapped-SOL account to the bot key. The chain enforces
 * the allowance; these rows remember what was built, signed and revoked.
 */
export const botDelegations = pgTable(
  'bot_delegations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    walletAddress: text('wallet_address').notNull(),
    botAddress: text('bot_address').notNull(),
    tokenMint: text('token_mint').notNull(),
    amountLamports: text('amount_lamports').notNull(),
    /** pending | active | replaced | revoked. */
    status: text('status').notNull(),
    /** The last transaction built for the wallet to sign (approval, then revocation). */
    unsignedTransaction: text('unsigned_transaction'),
    instructions: jsonb('instructions').notNull(),
    approveSignature: text('approve_signature'),
    revokeSignature: text('revoke_signature'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('bot_delegations_user_idx').on(table.userId, table.createdAt)],
);

/**
 * An on-chain run's swaps, written when signed and before they are sent: after a crash the runner
 * looks the signature up on chain instead of trading again.
 */
export const botOrders = pgTable(
  'bot_orders',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => botRuns.id, { onDelete: 'cascade' }),
    /** The runtime fill this swap executes. */
    seq: integer('seq').notNull(),
    side: text('side').notNull(),
    baseAmount: text('base_amount').notNull(),
    quoteAmount: text('quote_amount').notNull(),
    signature: text('signature').notNull(),
    lastValidBlockHeight: text('last_valid_block_height').notNull(),
    /** sending | landed | failed. */
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.seq] })],
);
