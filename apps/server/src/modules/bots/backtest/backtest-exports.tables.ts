import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../../auth/auth.tables';

/** A backtest's fills kept for export (its owner's latest few, for a day): backtest-exports.ts. */
export const backtestExports = pgTable('backtest_exports', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  fills: integer('fills').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** The export's CSV in parts of BACKTEST_EXPORT_PART_ROWS fills (the first holds the header). */
export const backtestExportParts = pgTable(
  'backtest_export_parts',
  {
    exportId: uuid('export_id')
      .notNull()
      .references(() => backtestExports.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    csv: text('csv').notNull(),
  },
  (table) => [primaryKey({ columns: [table.exportId, table.seq] })],
);
