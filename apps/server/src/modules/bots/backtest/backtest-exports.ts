import { and, asc, desc, eq, lt, ne, notInArray } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import { backtestExportParts, backtestExports } from './backtest-exports.tables';

/** A user's exports kept: their latest few backtests. */
export const BACKTEST_EXPORTS_KEPT = 3;
/** How long an export is kept at most. */
export const BACKTEST_EXPORT_TTL_MS = 24 * 3600_000;

/**
 * Every fill of a backtest as CSV, kept in the database (any process may serve it; a year of
 * minutes may hold 500,000 fills, ~50 MB of text, which PostgreSQL compresses) in parts of 10,000
 * rows: a download reads one part at a time, never the whole file. Only its owner may read it; a
 * user keeps their latest BACKTEST_EXPORTS_KEPT, for a day.
 */
export function createBacktestExports(db: Db, now: () => Date) {
  return {
    async save(id: string, userId: string, parts: readonly string[], fills: number): Promise<void> {
      await db.transaction(async (tx) => {
        const at = now();
        await tx.insert(backtestExports).values({ id, userId, fills, createdAt: at });
        for (const [seq, csv] of parts.entries()) {
          await tx.insert(backtestExportParts).values({ exportId: id, seq, csv });
        }
        // This one, and the user's latest others (the clock may give several the same time).
        const others = await tx
          .select({ id: backtestExports.id })
          .from(backtestExports)
          .where(and(eq(backtestExports.userId, userId), ne(backtestExports.id, id)))
          .orderBy(desc(backtestExports.createdAt))
          .limit(BACKTEST_EXPORTS_KEPT - 1);
        const kept = [id, ...others.map((row) => row.id)];
        await tx
          .delete(backtestExports)
          .where(and(eq(backtestExports.userId, userId), notInArray(backtestExports.id, kept)));
        await tx
          .delete(backtestExports)
          .where(lt(backtestExports.createdAt, new Date(at.getTime() - BACKTEST_EXPORT_TTL_MS)));
      });
    },

    /** The export's parts, read one at a time; null when there is none of `userId`'s with that id. */
    async open(id: string, userId: string): Promise<AsyncGenerator<string> | null> {
      const [row] = await db
        .select({ id: backtestExports.id })
        .from(backtestExports)
        .where(and(eq(backtestExports.id, id), eq(backtestExports.userId, userId)));
      if (!row) return null;
      return (async function* parts() {
        for (let seq = 0; ; seq += 1) {
          const [part] = await db
            .select({ csv: backtestExportParts.csv })
            .from(backtestExportParts)
            .where(and(eq(backtestExportParts.exportId, id), eq(backtestExportParts.seq, seq)))
            .orderBy(asc(backtestExportParts.seq));
          if (!part) return;
          yield part.csv;
        }
      })();
    },
  };
}

export type BacktestExports = ReturnType<typeof createBacktestExports>;
