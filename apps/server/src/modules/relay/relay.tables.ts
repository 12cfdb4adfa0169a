import {
  index,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Every transaction built for a wallet to sign (see relay.service.ts). `message_hash` finds the
 * ticket of a signed transaction; once sent, `signature` and `signed_transaction` are stored first,
 * so a crash between sending and recording is reconciled from the chain on the next start.
 */
export const transactionTickets = pgTable(
  'transaction_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    walletAddress: text('wallet_address').notNull(),
    /** SHA-256 of the message bytes, hex. */
    messageHash: text('message_hash').notNull(),
    lastValidBlockHeight: numeric('last_valid_block_height').notNull(),
    payload: jsonb('payload').notNull(),
    orderId: uuid('order_id'),
    /** open → sending → landed | failed | expired. */
    status: text('status').notNull(),
    signature: text('signature'),
    signedTransaction: text('signed_transaction'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('transaction_tickets_message_unique').on(table.messageHash),
    uniqueIndex('transaction_tickets_signature_unique').on(table.signature),
    index('transaction_tickets_status_idx').on(table.status),
  ],
);

/**
 * Every transaction the server signs alone (vault and bot withdrawals, bot swaps, keeper fills and
 * refunds, faucet mints, vault funding): written with its kind, payload, signed bytes, signature and
 * expiry height BEFORE it is sent — in the same database transaction as whatever the sending domain
 * debited — so the one reconcile job settles it from the chain (landed, failed, or expired unseen),
 * whatever happened to the request or the process. Status follows the ticket lifecycle.
 */
export const serverTickets = pgTable(
  'server_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** The user the transaction pays or serves (null for the venue's own transactions). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    payload: jsonb('payload').notNull(),
    signature: text('signature').notNull(),
    signedTransaction: text('signed_transaction').notNull(),
    lastValidBlockHeight: numeric('last_valid_block_height').notNull(),
    /** open (recorded, not yet sent) → sending → landed | failed | expired. */
    status: text('status').notNull(),
    slot: numeric('slot'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('server_tickets_signature_unique').on(table.signature),
    index('server_tickets_status_idx').on(table.status),
    index('server_tickets_user_idx').on(table.userId),
  ],
);

/** Answers of money-moving requests by Idempotency-Key, per user (trading, withdrawals, faucet). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** in_progress | done */
    state: text('state').notNull(),
    statusCode: numeric('status_code'),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] })],
);
