import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { TBotConfig } from '@solterm/contracts';
import type { Db } from '../../../db/database';
import type { BotRow } from '../bots.repository';
import { botCopies, bots } from '../bots.tables';

const rowOf = (row: typeof bots.$inferSelect): BotRow => ({ ...row, config: row.config as TBotConfig });
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Public bots and who copied them. */
export function createMarketplaceRepository(db: Db) {
  return {
    /**
     * Public bots whose name or strategy contains `text`, or whose creator is one of `creatorIds`,
     * newest first, at most `limit` (the marketplace filters and sorts these in memory).
     */
    async publicBots(text: string, creatorIds: readonly string[], limit: number): Promise<BotRow[]> {
      const matches: SQL[] = [];
      if (text) {
        const pattern = likePattern(text);
        matches.push(ilike(bots.name, pattern), ilike(bots.strategyType, pattern));
        if (creatorIds.length > 0) matches.push(inArray(bots.userId, [...creatorIds]));
      }
      const rows = await db
        .select()
        .from(bots)
        .where(matches.length > 0 ? and(eq(bots.isPublic, true), or(...matches)) : eq(bots.isPublic, true))
        .orderBy(desc(bots.createdAt))
        .limit(limit);
      return rows.map(rowOf);
    },

    async findPublic(id: string): Promise<BotRow | undefined> {
      const [row] = await db
        .select()
        .from(bots)
        .where(and(eq(bots.id, id), eq(bots.isPublic, true)));
      return row ? rowOf(row) : undefined;
    },

    /** How many users copied each bot (each once, ever). */
    async copyCounts(originIds: readonly string[]): Promise<Map<string, number>> {
      if (originIds.length === 0) return new Map();
      const rows = await db
        .select({ originId: botCopies.originId, n: count() })
        .from(botCopies)
        .where(inArray(botCopies.originId, [...originIds]))
        .groupBy(botCopies.originId);
      return new Map(rows.map((row) => [row.originId, Number(row.n)]));
    },

    /** The user's existing copy of `originId`, if they kept one. */
    async copyOf(userId: string, originId: string): Promise<BotRow | undefined> {
      const [row] = await db
        .select()
        .from(bots)
        .where(and(eq(bots.userId, userId), eq(bots.copiedFrom, originId)))
        .limit(1);
      return row ? rowOf(row) : undefined;
    },

    /** Which of `originIds` `userId` holds a copy of now. */
    async copiedBy(userId: string, originIds: readonly string[]): Promise<Set<string>> {
      if (originIds.length === 0) return new Set();
      const rows = await db
        .select({ originId: bots.copiedFrom })
        .from(bots)
        .where(and(eq(bots.userId, userId), inArray(bots.copiedFrom, [...originIds])));
      return new Set(rows.map((row) => row.originId!));
    },

    /** Counts `userId` among the copiers of `originId` (once: a second copy counts nothing). */
    async recordCopier(originId: string, userId: string, at: Date): Promise<void> {
      await db.insert(botCopies).values({ originId, userId, createdAt: at }).onConflictDoNothing();
    },
  };
}

export type MarketplaceRepository = ReturnType<typeof createMarketplaceRepository>;
