import { and, desc, eq, exists, getTableColumns, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import { botDelegations, botKeys, botOrders, botRuns } from '../bots.tables';

export type BotKeyRow = typeof botKeys.$inferSelect;
export type DelegationRow = typeof botDelegations.$inferSelect;
export type BotOrderRow = typeof botOrders.$inferSelect;
export type DelegationStatus = 'pending' | 'active' | 'replaced' | 'revoked';

/** The CTE of `recordOrder`'s key claim: the order is inserted from it, so only when it claimed. */
const CLAIMED = sql.identifier('claimed_key');

/** The user's bot key, when no other holder's claim on it holds at `now`. */
const keyClaimable = (userId: string, holder: string, now: Date) =>
  and(
    eq(botKeys.userId, userId),
    or(isNull(botKeys.tradingUntil), lt(botKeys.tradingUntil, now), eq(botKeys.tradingHolder, holder)),
  );

const releaseKeySql = (userId: string, holder: string) =>
  sql`update ${botKeys} set ${sql.identifier(botKeys.tradingHolder.name)} = null, ${sql.identifier(botKeys.tradingUntil.name)} = null where ${botKeys.userId} = ${userId} and ${botKeys.tradingHolder} = ${holder}`;

const orderStatusSql = (runId: string, seq: number, signature: string, status: 'landed' | 'failed') =>
  sql`update ${botOrders} set ${sql.identifier(botOrders.status.name)} = ${status} where ${botOrders.runId} = ${runId} and ${botOrders.seq} = ${seq} and ${botOrders.signature} = ${signature}`;

/** Bot keys, delegations and the swaps of on-chain runs. */
export function createBotFundsRepository(db: Db) {
  return {
    async keyOf(userId: string): Promise<BotKeyRow | undefined> {
      const [row] = await db.select().from(botKeys).where(eq(botKeys.userId, userId));
      return row;
    },

    /** Stores a new key unless the user got one meanwhile; answers the user's key either way. */
    async insertKey(row: typeof botKeys.$inferInsert): Promise<BotKeyRow> {
      await db.insert(botKeys).values(row).onConflictDoNothing({ target: botKeys.userId });
      const [stored] = await db.select().from(botKeys).where(eq(botKeys.userId, row.userId));
      return stored!;
    },

    async insertDelegation(row: typeof botDelegations.$inferInsert): Promise<DelegationRow> {
      const [stored] = await db.insert(botDelegations).values(row).returning();
      return stored!;
    },

    async delegation(userId: string, id: string): Promise<DelegationRow | undefined> {
      const [row] = await db
        .select()
        .from(botDelegations)
        .where(and(eq(botDelegations.id, id), eq(botDelegations.userId, userId)));
      return row;
    },

    async delegationsOf(userId: string, limit: number): Promise<DelegationRow[]> {
      return db
        .select()
        .from(botDelegations)
        .where(eq(botDelegations.userId, userId))
        .orderBy(desc(botDelegations.createdAt))
        .limit(limit);
    },

    async activeDelegation(userId: string): Promise<DelegationRow | undefined> {
      const [row] = await db
        .select()
        .from(botDelegations)
        .where(and(eq(botDelegations.userId, userId), eq(botDelegations.status, 'active')))
        .orderBy(desc(botDelegations.updatedAt))
        .limit(1);
      return row;
    },

    async setUnsigned(id: string, unsigned: string, instructions: string[], at: Date): Promise<void> {
      await db
        .update(botDelegations)
        .set({ unsignedTransaction: unsigned, instructions, updatedAt: at })
        .where(eq(botDelegations.id, id));
    },

    /**
     * The approval landed: this delegation is active and the user's earlier active ones are
     * replaced (an SPL approve overwrites the account's delegate and allowance).
     */
    async activate(tx: Db, id: string, userId: string, signature: string, at: Date): Promise<void> {
      await tx
        .update(botDelegations)
        .set({ status: 'replaced', updatedAt: at })
        .where(
          and(
            eq(botDelegations.userId, userId),
            eq(botDelegations.status, 'active'),
            ne(botDelegations.id, id),
          ),
        );
      await tx
        .update(botDelegations)
        .set({ status: 'active', approveSignature: signature, unsignedTransaction: null, updatedAt: at })
        .where(eq(botDelegations.id, id));
    },

    /** The revocation landed: every active delegation of the user ends (the account has no delegate). */
    async revokeAll(tx: Db, userId: string, signature: string, at: Date): Promise<void> {
      await tx
        .update(botDelegations)
        .set({ status: 'revoked', revokeSignature: signature, unsignedTransaction: null, updatedAt: at })
        .where(and(eq(botDelegations.userId, userId), inArray(botDelegations.status, ['active', 'pending'])));
    },

    async order(runId: string, seq: number): Promise<BotOrderRow | undefined> {
      const [row] = await db
        .select()
        .from(botOrders)
        .where(and(eq(botOrders.runId, runId), eq(botOrders.seq, seq)));
      return row;
    },

    /**
     * Claims the user's bot key for `holder` until `until`: true when no other holder's claim holds
     * at `now` (an expired one is taken over; the holder's own is extended).
     */
    async claimKey(userId: string, holder: string, now: Date, until: Date): Promise<boolean> {
      const claimed = await db
        .update(botKeys)
        .set({ tradingHolder: holder, tradingUntil: until })
        .where(keyClaimable(userId, holder, now))
        .returning({ userId: botKeys.userId });
      return claimed.length > 0;
    },

    /** Ends `holder`'s claim on the user's bot key (nothing when another holds it now). */
    async releaseKey(userId: string, holder: string): Promise<void> {
      await db.execute(releaseKeySql(userId, holder));
    },

    /**
     * Records a signed swap before it is sent, in one statement with its checks: only while the run
     * is running and `claim.holder` holds the user's bot key (its claim renewed until `claim.until`,
     * as `claimKey`), and only as a fill's first swap or one replacing an attempt that failed. False
     * (nothing written) when any fails: the run was stopped, another process holds the key, or it
     * recorded a swap for the fill meanwhile — this one must not be sent.
     */
    async recordOrder(
      row: typeof botOrders.$inferInsert,
      claim: { userId: string; holder: string; now: Date; until: Date },
    ): Promise<boolean> {
      const claimed = db
        .update(botKeys)
        .set({ tradingHolder: claim.holder, tradingUntil: claim.until })
        .where(
          and(
            keyClaimable(claim.userId, claim.holder, claim.now),
            exists(
              db
                .select({ id: botRuns.id })
                .from(botRuns)
                .where(and(eq(botRuns.id, row.runId), eq(botRuns.status, 'running'))),
            ),
          ),
        )
        .returning({ userId: botKeys.userId })
        .getSQL();
      const columns = getTableColumns(botOrders);
      const entries = Object.entries(row).filter(([, value]) => value !== undefined) as [
        keyof typeof columns,
        unknown,
      ][];
      const names = entries.map(([key]) => sql.identifier(columns[key].name));
      const values = entries.map(
        ([key, value]) => sql`${sql.param(value, columns[key])}::${sql.raw(columns[key].getSQLType())}`,
      );
      const replaced = (
        [
          'side',
          'baseAmount',
          'quoteAmount',
          'signature',
          'lastValidBlockHeight',
          'status',
          'createdAt',
        ] as const
      ).map(
        (key) => sql`${sql.identifier(columns[key].name)} = excluded.${sql.identifier(columns[key].name)}`,
      );
      const { rows } = (await db.execute(
        sql`with ${CLAIMED} as (${claimed}) insert into ${botOrders} (${sql.join(names, sql`, `)}) select ${sql.join(values, sql`, `)} from ${CLAIMED} on conflict (${sql.identifier(columns.runId.name)}, ${sql.identifier(columns.seq.name)}) do update set ${sql.join(replaced, sql`, `)} where ${botOrders.status} = 'failed' returning ${botOrders.seq}`,
      )) as unknown as { rows: unknown[] };
      return rows.length > 0;
    },

    /** Settles fill `seq`'s swap sent under `signature` (not a newer one that replaced it). */
    async setOrderStatus(
      runId: string,
      seq: number,
      signature: string,
      status: 'landed' | 'failed',
    ): Promise<void> {
      await db.execute(orderStatusSql(runId, seq, signature, status));
    },

    /** `setOrderStatus` and `releaseKey` in one statement. */
    async setOrderStatusAndReleaseKey(
      order: { runId: string; seq: number; signature: string; status: 'landed' | 'failed' },
      key: { userId: string; holder: string },
    ): Promise<void> {
      await db.execute(
        sql`with ${sql.identifier('settled_order')} as (${orderStatusSql(order.runId, order.seq, order.signature, order.status)}) ${releaseKeySql(key.userId, key.holder)}`,
      );
    },

    /** The user's on-chain runs that are running (a revocation stops them). */
    async runningOnChain(userId: string): Promise<{ id: string; botId: string }[]> {
      return db
        .select({ id: botRuns.id, botId: botRuns.botId })
        .from(botRuns)
        .where(and(eq(botRuns.userId, userId), eq(botRuns.status, 'running'), eq(botRuns.mode, 'mainnet')));
    },
  };
}

export type BotFundsRepository = ReturnType<typeof createBotFundsRepository>;
