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

/** Answers of POST /trading/execute-signed-transaction by Idempotency-Key, per user. */
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
