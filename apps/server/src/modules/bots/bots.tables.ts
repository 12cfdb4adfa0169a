import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('bots_user_idx').on(table.userId, table.createdAt)],
);
