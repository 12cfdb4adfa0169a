import { bigint, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Tokens the market stores history for, by mint. Candles refer to a token by this small integer id:
 * a year of hourly and a week of minute candles for fifty tokens is close to a million rows, and
 * an integer key keeps those rows and their index small (three times faster to write than a
 * 44-character mint in every row).
 */
export const marketTokens = pgTable('market_tokens', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  mint: text('mint').notNull().unique(),
  symbol: text('symbol').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Stored OHLCV candles of the finest series: one-minute and one-hour candles per token. Prices are
 * USD decimals; `volume_usd` is traded value in USD with two decimals; `open_time` is the candle's
 * open time in unix seconds. Coarser intervals are aggregated from these on read.
 */
export const marketCandles = pgTable(
  'market_candles',
  {
    tokenId: integer('token_id')
      .notNull()
      .references(() => marketTokens.id, { onDelete: 'cascade' }),
    resolutionSeconds: integer('resolution_seconds').notNull(),
    openTime: bigint('open_time', { mode: 'number' }).notNull(),
    open: numeric('open').notNull(),
    high: numeric('high').notNull(),
    low: numeric('low').notNull(),
    close: numeric('close').notNull(),
    volumeUsd: numeric('volume_usd').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tokenId, table.resolutionSeconds, table.openTime] })],
);

/**
 * What each stored series holds: its first and last open time and the generator that produced it
 * (the simulator seed and model version), so a changed seed rebuilds history instead of mixing two
 * markets.
 */
export const marketSeries = pgTable(
  'market_series',
  {
    tokenId: integer('token_id')
      .notNull()
      .references(() => marketTokens.id, { onDelete: 'cascade' }),
    resolutionSeconds: integer('resolution_seconds').notNull(),
    generator: text('generator').notNull(),
    firstOpenTime: bigint('first_open_time', { mode: 'number' }).notNull(),
    lastOpenTime: bigint('last_open_time', { mode: 'number' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tokenId, table.resolutionSeconds] })],
);
