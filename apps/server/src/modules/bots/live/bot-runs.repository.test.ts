import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../db/database';
import { users } from '../../auth/auth.tables';
import { botFills, bots } from '../bots.tables';
import { createBotRunsRepository, type NewBotFill } from './bot-runs.repository';

describe('bot runs repository: checkpoint', () => {
  let database: Database;
  let repo: ReturnType<typeof createBotRunsRepository>;
  let userId: string;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    repo = createBotRunsRepository(database.db);
    const [user] = await database.db.insert(users).values({ username: 'runs-user' }).returning();
    userId = user!.id;
  });
  afterAll(() => database.close());

  async function startedRun() {
    const [bot] = await database.db
      .insert(bots)
      .values({ userId, name: 'b', description: '', strategyType: 'scalper', config: {} })
      .returning();
    const run = await repo.start(
      {
        botId: bot!.id,
        userId,
        mode: 'mainnet',
        strategyType: 'scalper',
        config: {} as never,
        initialCash: '0',
        quoteUsdPrice: '1',
        baseDecimals: 9,
        quoteDecimals: 6,
        startedAt: new Date(),
        endsAt: new Date(Date.now() + 3_600_000),
        firstCandle: 60,
      },
      100,
    );
    if (!run || run === 'limit') throw new Error('not started');
    return run;
  }

  const fill = (seq: number, pnl: string | null): NewBotFill => ({
    seq,
    botId: '00000000-0000-4000-8000-000000000000',
    time: new Date('2026-11-28T12:00:00.000Z'),
    side: pnl === null ? 'Buy' : 'Sell',
    baseAmount: '50000000',
    quoteAmount: '7512345',
    pnl,
    reason: 'signal',
    txSignature: pnl === null ? null : 'sig',
  });
  const fillsOf = (runId: string) =>
    database.db.select().from(botFills).where(eq(botFills.runId, runId)).orderBy(botFills.seq);

  it('moves the run and writes its fills together', async () => {
    const run = await startedRun();

    expect(
      await repo.checkpoint(run.id, null, {
        lastCandle: 60,
        lastClose: '150.5',
        fills: [fill(0, null), fill(1, '-12')],
      }),
    ).toBe(true);

    expect(await fillsOf(run.id)).toEqual([
      { runId: run.id, ...fill(0, null) },
      { runId: run.id, ...fill(1, '-12') },
    ]);
    expect(await repo.checkpoint(run.id, 60, { lastCandle: 120, lastClose: '151', fills: [] })).toBe(true);
  });

  it('writes nothing from a checkpoint another pass moved first', async () => {
    const run = await startedRun();
    expect(await repo.checkpoint(run.id, null, { lastCandle: 60, lastClose: '150.5', fills: [] })).toBe(true);

    // Expects the run where it was before the other pass moved it.
    expect(
      await repo.checkpoint(run.id, null, { lastCandle: 60, lastClose: '150.5', fills: [fill(0, null)] }),
    ).toBe(false);

    expect(await fillsOf(run.id)).toEqual([]);
  });
});
