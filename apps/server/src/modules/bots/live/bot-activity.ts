import { and, asc, eq, gte, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import { botFills, botRuns, bots } from '../bots.tables';

/** A run of a bot as alerts read it: its lifecycle, and its fills since an instant. */
export interface BotRunActivity {
  runId: string;
  botId: string;
  botName: string;
  status: 'running' | 'stopped' | 'failed';
  message: string | null;
  startedAt: Date;
  stoppedAt: Date | null;
  endsAt: Date;
  fills: { seq: number; time: Date; side: string; reason: string }[];
}

/**
 * Runs of these bots running now or ended since `since`, with their fills made since then (bot
 * alerts: started, stopped, completed, error and fill events). Read-only.
 */
export function createBotActivity(db: Db) {
  return async function activitySince(botIds: readonly string[], since: Date): Promise<BotRunActivity[]> {
    if (botIds.length === 0) return [];
    const runs = await db
      .select({
        runId: botRuns.id,
        botId: botRuns.botId,
        botName: bots.name,
        status: botRuns.status,
        message: botRuns.message,
        startedAt: botRuns.startedAt,
        stoppedAt: botRuns.stoppedAt,
        endsAt: botRuns.endsAt,
      })
      .from(botRuns)
      .innerJoin(bots, eq(bots.id, botRuns.botId))
      .where(
        and(
          inArray(botRuns.botId, [...botIds]),
          or(isNull(botRuns.stoppedAt), gte(botRuns.stoppedAt, since), gte(botRuns.startedAt, since)),
        ),
      );
    if (runs.length === 0) return [];
    const fills = await db
      .select({
        runId: botFills.runId,
        seq: botFills.seq,
        time: botFills.time,
        side: botFills.side,
        reason: botFills.reason,
      })
      .from(botFills)
      .where(
        and(
          inArray(
            botFills.runId,
            runs.map((run) => run.runId),
          ),
          gte(botFills.time, since),
        ),
      )
      .orderBy(asc(botFills.runId), asc(botFills.seq));
    return runs.map((run) => ({
      ...run,
      status: run.status as BotRunActivity['status'],
      fills: fills.filter((fill) => fill.runId === run.runId),
    }));
  };
}
