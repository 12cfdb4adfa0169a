import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every email the app sends. Without SMTP this table is the delivery: read it at GET /api/dev/outbox. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    transport: text('transport').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('email_outbox_to_idx').on(table.toAddress, table.createdAt)],
);
