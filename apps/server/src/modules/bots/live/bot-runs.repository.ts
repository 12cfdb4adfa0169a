import { and, asc, between, count, desc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { TBotConfig } from '@solterm/contracts';
import type { Db } from '../../../db/database';
import { insertFrom } from '../../../db/insert-from';
import { botFills, botRuns, bots } from '../bots.tables';

export type BotRunRow = Omit<typeof botRuns.$inferSelect, 'config'> & { config: TBotConfig };
export type BotFillRow = typeof botFills.$inferSelect;
export type NewBotFill = Omit<BotFillRow, 'runId'>;

/** The CTE of `checkpoint`'s move of the run: its fills are inserted from it. */
const MOVED_RUN = sql.identifier('moved_run');

const runOf = (row: typeof botRuns.$inferSelect): BotRunRow => ({ ...row, config: row.config as TBotConfig });

/** Live runs of bots and their fills. The bot's own `status` mirrors its newest run's. */
export function createBotRunsRepository(db: Db) {
  return {
    /**
     * Starts a run unless the bot already runs (undefined) or its owner runs `maxRunning` bots
     * ('limit'): the bot's status flips from not-running to running in the same statement that
     * guards it, so two starts racing each other start one run.
     */
    async start(
      run: Omit<typeof botRuns.$inferInsert, 'id' | 'status' | 'lastCandle' | 'lastClose' | 'stoppedAt'>,
      maxRunning: number,
    ): Promise<BotRunRow | 'limit' | undefined> {
      return db.transaction(async (tx) => {
        // The user's row is locked for the count, so two starts racing each other cannot both pass it.
        await tx.execute(sql`select id from users where id = ${run.userId} for update`);
        const [{ running }] = (await tx
          .select({ running: count() })
          .from(bots)
          .where(and(eq(bots.userId, run.userId), eq(bots.status, 'running')))) as [{ running: number }];
        if (Number(running) >= maxRunning) return 'limit' as const;
        const claimed = await tx
          .update(bots)
          .set({ status: 'running', networkMode: run.mode })
          .where(and(eq(bots.id, run.botId), eq(bots.userId, run.userId), sql`${bots.status} <> 'running'`))
          .returning({ id: bots.id });
        if (claimed.length === 0) return undefined;
        const [row] = await tx
          .insert(botRuns)
          .values({ ...run, status: 'running' })
          .returning();
        return runOf(row!);
      });
    },

    /** Ends a running run (and the bot's status with it); false when it was not running. */
    async finish(runId: string, status: 'stopped' | 'failed', message: string, at: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [run] = await tx
          .update(botRuns)
          .set({ status, message, stoppedAt: at })
          .where(and(eq(botRuns.id, runId), eq(botRuns.status, 'running')))
          .returning({ botId: botRuns.botId });
        if (!run) return false;
        await tx.update(bots).set({ status }).where(eq(bots.id, run.botId));
        return true;
      });
    },

    async running(): Promise<BotRunRow[]> {
      const rows = await db.select().from(botRuns).where(eq(botRuns.status, 'running'));
      return rows.map(runOf);
    },

    /** The newest run of each of these bots. */
    async latestOf(botIds: readonly string[]): Promise<Map<string, BotRunRow>> {
      if (botIds.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([botRuns.botId])
        .from(botRuns)
        .where(inArray(botRuns.botId, [...botIds]))
        .orderBy(botRuns.botId, desc(botRuns.startedAt));
      return new Map(rows.map((row) => [row.botId, runOf(row)]));
    },

    /** A bot's runs, newest first. */
    async runsOf(botId: string, limit: number): Promise<BotRunRow[]> {
      const rows = await db
        .select()
        .from(botRuns)
        .where(eq(botRuns.botId, botId))
        .orderBy(desc(botRuns.startedAt))
        .limit(limit);
      return rows.map(runOf);
    },

    /** Per run: its fills, its sells and their realised PnL (quote base units), in one query. */
    async statsOfRuns(
      runIds: readonly string[],
    ): Promise<Map<string, { fills: number; sells: number; pnl: bigint }>> {
      if (runIds.length === 0) return new Map();
      const rows = await db
        .select({
          runId: botFills.runId,
          fills: count(),
          sells: sql<string>`count(*) filter (where ${botFills.side} = 'Sell')`,
          pnl: sql<string | null>`sum((${botFills.pnl})::numeric)::text`,
        })
        .from(botFills)
        .where(inArray(botFills.runId, [...runIds]))
        .groupBy(botFills.runId);
      return new Map(
        rows.map((row) => [
          row.runId,
          { fills: Number(row.fills), sells: Number(row.sells), pnl: BigInt(row.pnl ?? '0') },
        ]),
      );
    },

    /** The fills of each of these runs, in order (one query for a whole bot list). */
    async fillsOfRuns(runIds: readonly string[]): Promise<Map<string, BotFillRow[]>> {
      const out = new Map<string, BotFillRow[]>(runIds.map((id) => [id, []]));
      if (runIds.length === 0) return out;
      const rows = await db
        .select()
        .from(botFills)
        .where(inArray(botFills.runId, [...runIds]))
        .orderBy(asc(botFills.runId), asc(botFills.seq));
      for (const row of rows) out.get(row.runId)!.push(row);
      return out;
    },

    /**
     * The user's runs that may have filled within the window (their first candle not after its end,
     * and not stopped before its start), newest first, with their bot's name and pair.
     */
    runsInWindow(userId: string, window: { from: Date; to: Date }, limit: number) {
      return db
        .select({
          id: botRuns.id,
          botName: bots.name,
          mode: botRuns.mode,
          symbol: sql<string>`${botRuns.config}->>'symbol'`,
          baseDecimals: botRuns.baseDecimals,
          quoteDecimals: botRuns.quoteDecimals,
        })
        .from(botRuns)
        .innerJoin(bots, eq(bots.id, botRuns.botId))
        .where(
          and(
            eq(botRuns.userId, userId),
            lte(botRuns.firstCandle, Math.floor(window.to.getTime() / 1000)),
            or(isNull(botRuns.stoppedAt), gte(botRuns.stoppedAt, window.from)),
          ),
        )
        .orderBy(desc(botRuns.startedAt))
        .limit(limit);
    },

    /** These runs' fills between two instants, newest first. */
    fillsInWindow(runIds: readonly string[], window: { from: Date; to: Date }, limit: number) {
      if (runIds.length === 0) return Promise.resolve([] as BotFillRow[]);
      return db
        .select()
        .from(botFills)
        .where(and(inArray(botFills.runId, [...runIds]), between(botFills.time, window.from, window.to)))
        .orderBy(desc(botFills.time), desc(botFills.seq))
        .limit(limit);
    },

    /**
     * Records candles evaluated since `expectedLast` and the fills they made, in one transaction;
     * false (nothing written) when the run moved on meanwhile (another process advanced it) or ended.
     */
    async checkpoint(
      runId: string,
      expectedLast: number | null,
      next: { lastCandle: number; lastClose: string; fills: readonly NewBotFill[] },
    ): Promise<boolean> {
      // One statement: the fills are inserted from the run's guarded move, so none without it.
      const moved = db
        .update(botRuns)
        .set({ lastCandle: next.lastCandle, lastClose: next.lastClose })
        .where(
          and(
            eq(botRuns.id, runId),
            eq(botRuns.status, 'running'),
            expectedLast === null ? isNull(botRuns.lastCandle) : eq(botRuns.lastCandle, expectedLast),
          ),
        )
        .returning({ id: botRuns.id })
        .getSQL();
      const fills = next.fills.map(
        (fill, index) =>
          sql`, ${sql.identifier(`fill_${index}`)} as (${insertFrom(botFills, { ...fill, runId }, MOVED_RUN)})`,
      );
      // Both drivers (PGlite, node-postgres) answer { rows }.
      const { rows } = (await db.execute(
        sql`with ${MOVED_RUN} as (${moved})${sql.join(fills)} select count(*)::int as moved from ${MOVED_RUN}`,
      )) as unknown as { rows: { moved: number }[] };
      return rows[0]?.moved === 1;
    },
  };
}

export type BotRunsRepository = ReturnType<typeof createBotRunsRepository>;
