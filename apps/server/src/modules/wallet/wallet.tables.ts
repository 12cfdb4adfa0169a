import { index, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables';

/**
 * Every faucet grant (`POST /wallet/fund`), kept so the faucet's rate limit survives a restart and
 * holds across server processes: a user's grants within the window are counted before each new one.
 */
export const faucetGrants = pgTable(
  'faucet_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    walletAddress: text('wallet_address').notNull(),
    amountSol: numeric('amount_sol').notNull(),
    amountUsdc: numeric('amount_usdc').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('faucet_grants_user_created_idx').on(table.userId, table.createdAt),
    index('faucet_grants_wallet_created_idx').on(table.walletAddress, table.createdAt),
  ],
);
