import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * The perp venue's command log: every change to the venue (deposit, order, cancel, oracle move,
 * maker quote, funding, liquidation, withdrawal) in the order it was applied. `seq` is given by the
 * writer under an advisory lock (one after the last), so the log has no gaps and every process
 * replays it into the same state.
 */
export const perpCommands = pgTable('perp_commands', {
  seq: bigint('seq', { mode: 'bigint' }).primaryKey(),
  command: jsonb('command').notNull(),
  createdAt: createdAt(),
});

/** The venue's state after command `seq` (a restart loads the newest and replays the rest). */
export const perpSnapshots = pgTable('perp_snapshots', {
  seq: bigint('seq', { mode: 'bigint' }).primaryKey(),
  state: jsonb('state').notNull(),
  createdAt: createdAt(),
});

/** Users' futures orders as they were placed and what became of them (the book holds the open ones). */
export const perpOrders = pgTable(
  'perp_orders',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    orderType: text('order_type').notNull(),
    /** Lots. */
    size: numeric('size').notNull(),
    /** USDC base units per token (limit orders). */
    price: numeric('price'),
    filledSize: numeric('filled_size').notNull(),
    /** Σ lots × price of the fills (USDC base units per token × lots), for the average. */
    filledValue: numeric('filled_value').notNull(),
    leverage: integer('leverage').notNull(),
    reduceOnly: boolean('reduce_only').notNull(),
    postOnly: boolean('post_only').notNull(),
    status: text('status').notNull(),
    /** A trigger order's trigger price (USDC base units per token). */
    triggerPrice: numeric('trigger_price'),
    /** 'tp' or 'sl': a position's take profit or stop loss. */
    tpsl: text('tpsl'),
    /** When a trigger order fired. */
    triggeredAt: timestamp('triggered_at', { withTimezone: true }),
    /** Why a fired trigger order traded nothing, or why it was cancelled. */
    statusReason: text('status_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('perp_orders_user_idx').on(table.userId, table.createdAt)],
);

/** Each user's side of each fill. */
export const perpTrades = pgTable(
  'perp_trades',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: bigint('order_id', { mode: 'bigint' }).notNull(),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    role: text('role').notNull(),
    size: numeric('size').notNull(),
    price: numeric('price').notNull(),
    fee: numeric('fee').notNull(),
    realizedPnl: numeric('realized_pnl').notNull(),
    liquidation: boolean('liquidation').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('perp_trades_user_idx').on(table.userId, table.createdAt)],
);

/** Every fill of a market (both sides in one row): volume, the public trades tape. */
export const perpFills = pgTable(
  'perp_fills',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    size: numeric('size').notNull(),
    price: numeric('price').notNull(),
    notional: numeric('notional').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('perp_fills_symbol_idx').on(table.symbol, table.createdAt)],
);

/** Hourly funding per market, and what each user paid or received. */
export const perpFunding = pgTable(
  'perp_funding',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    symbol: text('symbol').notNull(),
    rate: numeric('rate').notNull(),
    /** Null: the market's row; otherwise one user's payment. */
    userId: uuid('user_id'),
    amount: numeric('amount'),
    createdAt: createdAt(),
  },
  (table) => [index('perp_funding_symbol_idx').on(table.symbol, table.createdAt)],
);

/**
 * Collateral moving on chain: a deposit (the wallet signs a USDC transfer into the vault; credited
 * when it lands) or a withdrawal (debited first, then the vault sends; refunded if it cannot land).
 */
export const perpTransfers = pgTable(
  'perp_transfers',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** USDC base units. */
    amount: numeric('amount').notNull(),
    walletAddress: text('wallet_address').notNull(),
    /** pending → landed | failed | refunded. */
    status: text('status').notNull(),
    signature: text('signature'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('perp_transfers_user_idx').on(table.userId, table.createdAt)],
);

/** POST /futures/save-trade: a trade record the client saves (part 2 §3 futures saved trade). */
export const perpSavedTrades = pgTable('perp_saved_trades', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  trade: jsonb('trade').notNull(),
  createdAt: createdAt(),
});
