import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { marketCandles, marketSeries, marketTokens } from './market.tables';

/** Candles of one series in columns, as decimal strings (what the database stores). */
export interface CandleRows {
  openTime: number[];
  open: string[];
  high: string[];
  low: string[];
  close: string[];
  volumeUsd: string[];
}

/** Candles read back, prices as the doubles nearest to the stored decimals (exact for ≤ 15 digits). */
export interface StoredCandles {
  openTime: number[];
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  /** Volume in whole US cents. */
  volumeCents: number[];
}

export interface SeriesState {
  generator: string;
  firstOpenTime: number;
  lastOpenTime: number;
}

interface ReadRow {
  t: number | string;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number | string;
}

export function createMarketRepository(db: Db) {
  const ids = new Map<string, number>();
  return {
    /** The id of a token's row (created on first use); cached. */
    async tokenId(mint: string, symbol: string): Promise<number> {
      const cached = ids.get(mint);
      if (cached !== undefined) return cached;
      await db
        .insert(marketTokens)
        .values({ mint, symbol })
        .onConflictDoNothing({ target: marketTokens.mint });
      const [row] = await db
        .select({ id: marketTokens.id })
        .from(marketTokens)
        .where(eq(marketTokens.mint, mint))
        .limit(1);
      ids.set(mint, row!.id);
      return row!.id;
    },

    async findSeries(tokenId: number, resolutionSeconds: number): Promise<SeriesState | undefined> {
      const [row] = await db
        .select()
        .from(marketSeries)
        .where(and(eq(marketSeries.tokenId, tokenId), eq(marketSeries.resolutionSeconds, resolutionSeconds)))
        .limit(1);
      return row
        ? {
            generator: row.generator,
            firstOpenTime: Number(row.firstOpenTime),
            lastOpenTime: Number(row.lastOpenTime),
          }
        : undefined;
    },

    async saveSeries(tokenId: number, resolutionSeconds: number, state: SeriesState): Promise<void> {
      await db
        .insert(marketSeries)
        .values({ tokenId, resolutionSeconds, ...state, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [marketSeries.tokenId, marketSeries.resolutionSeconds],
          set: { ...state, updatedAt: new Date() },
        });
    },

    /** Forgets a series entirely (its generator changed). */
    async deleteSeries(tokenId: number, resolutionSeconds: number): Promise<void> {
      await db
        .delete(marketCandles)
        .where(
          and(eq(marketCandles.tokenId, tokenId), eq(marketCandles.resolutionSeconds, resolutionSeconds)),
        );
      await db
        .delete(marketSeries)
        .where(and(eq(marketSeries.tokenId, tokenId), eq(marketSeries.resolutionSeconds, resolutionSeconds)));
    },

    /**
     * Inserts many candles of one series in one statement (columns passed as arrays and unnested:
     * one round trip and one parse for thousands of rows, on PGlite and PostgreSQL alike).
     * Existing candles are left as they are (the generator is deterministic).
     */
    async insertCandles(tokenId: number, resolutionSeconds: number, rows: CandleRows): Promise<void> {
      if (rows.openTime.length === 0) return;
      await db.execute(sql`
        insert into market_candles (token_id, resolution_seconds, open_time, open, high, low, close, volume_usd)
        select ${tokenId}::integer, ${resolutionSeconds}::integer, t, o, h, l, c, v
        from unnest(
          ${sql.param(rows.openTime)}::bigint[],
          ${sql.param(rows.open)}::numeric[],
          ${sql.param(rows.high)}::numeric[],
          ${sql.param(rows.low)}::numeric[],
          ${sql.param(rows.close)}::numeric[],
          ${sql.param(rows.volumeUsd)}::numeric[]
        ) as u(t, o, h, l, c, v)
        on conflict do nothing`);
    },

    /** Candles with `fromOpen <= open_time <= toOpen`, oldest first. */
    async readCandles(
      tokenId: number,
      resolutionSeconds: number,
      fromOpen: number,
      toOpen: number,
    ): Promise<StoredCandles> {
      const result = await db.execute(sql`
        select open_time as t, open::float8 as o, high::float8 as h, low::float8 as l, close::float8 as c,
               (volume_usd * 100)::bigint as v
        from market_candles
        where token_id = ${tokenId} and resolution_seconds = ${resolutionSeconds}
          and open_time >= ${fromOpen} and open_time <= ${toOpen}
        order by open_time`);
      // PGlite and node-postgres both answer with `{ rows }`; int8 arrives as number or string.
      const rows = (result as unknown as { rows: ReadRow[] }).rows;
      const out: StoredCandles = { openTime: [], open: [], high: [], low: [], close: [], volumeCents: [] };
      for (const row of rows) {
        out.openTime.push(Number(row.t));
        out.open.push(Number(row.o));
        out.high.push(Number(row.h));
        out.low.push(Number(row.l));
        out.close.push(Number(row.c));
        out.volumeCents.push(Number(row.v));
      }
      return out;
    },

    /** Deletes candles of a series that open before `cutoff` (keeps the minute window bounded). */
    async pruneCandles(tokenId: number, resolutionSeconds: number, cutoff: number): Promise<void> {
      await db
        .delete(marketCandles)
        .where(
          and(
            eq(marketCandles.tokenId, tokenId),
            eq(marketCandles.resolutionSeconds, resolutionSeconds),
            lt(marketCandles.openTime, cutoff),
          ),
        );
    },

    async countCandles(tokenId: number, resolutionSeconds: number): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(marketCandles)
        .where(
          and(eq(marketCandles.tokenId, tokenId), eq(marketCandles.resolutionSeconds, resolutionSeconds)),
        );
      return Number(row?.count ?? 0);
    },
  };
}

export type MarketRepository = ReturnType<typeof createMarketRepository>;
