import { and, count, desc, eq, ne } from 'drizzle-orm';
import type { TBotConfig } from '@solterm/contracts';
import type { Db } from '../../db/database';
import { bots } from './bots.tables';

export type BotRow = Omit<typeof bots.$inferSelect, 'config'> & { config: TBotConfig };

export function createBotsRepository(db: Db, now: () => Date) {
  const rowOf = (row: typeof bots.$inferSelect): BotRow => ({ ...row, config: row.config as TBotConfig });
  return {
    async insert(bot: {
      userId: string;
      name: string;
      description: string;
      strategyType: string;
      config: TBotConfig;
      isPublic: boolean;
      /** The marketplace bot this one copies, and its "name by creator" then. */
      copiedFrom?: string;
      copiedFromLabel?: string;
    }): Promise<BotRow> {
      const [row] = await db
        .insert(bots)
        .values({ ...bot, createdAt: now() })
        .returning();
      return rowOf(row!);
    },

    async countOf(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(bots).where(eq(bots.userId, userId));
      return Number(row?.n ?? 0);
    },

    async listOf(userId: string): Promise<BotRow[]> {
      const rows = await db.select().from(bots).where(eq(bots.userId, userId)).orderBy(desc(bots.createdAt));
      return rows.map(rowOf);
    },

    /** The bot if `userId` owns it (another user's bot is as absent as a deleted one). */
    async findOwned(userId: string, id: string): Promise<BotRow | undefined> {
      const [row] = await db
        .select()
        .from(bots)
        .where(and(eq(bots.id, id), eq(bots.userId, userId)));
      return row ? rowOf(row) : undefined;
    },

    /**
     * Changes a stopped bot's definition; false when it is not the user's or is running (a start
     * between the caller's check and this write does not see a half-edited bot: one statement).
     */
    async updateStopped(
      userId: string,
      id: string,
      patch: Partial<Pick<BotRow, 'name' | 'description' | 'strategyType' | 'config' | 'isPublic'>>,
    ): Promise<boolean> {
      const updated = await db
        .update(bots)
        .set(patch)
        .where(and(eq(bots.id, id), eq(bots.userId, userId), ne(bots.status, 'running')))
        .returning({ id: bots.id });
      return updated.length > 0;
    },

    async setPublic(userId: string, id: string, isPublic: boolean): Promise<void> {
      await db
        .update(bots)
        .set({ isPublic })
        .where(and(eq(bots.id, id), eq(bots.userId, userId)));
    },

    async deleteOwned(userId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(bots)
        .where(and(eq(bots.id, id), eq(bots.userId, userId)))
        .returning({ id: bots.id });
      return deleted.length > 0;
    },
  };
}

export type BotsRepository = ReturnType<typeof createBotsRepository>;
