import { asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { exchangeFromSnapshot, PerpExchange, snapshotOf, type PerpSnapshot } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/database';
import { applyCommand, type PerpCommand, type PerpEffect } from './perp-commands';
import type { PerpMarket } from './perp-markets';
import { perpCommands, perpSnapshots } from './futures.tables';

/** A snapshot is written every this many commands; older commands are then deleted. */
const SNAPSHOT_EVERY = 500n;
const CATCH_UP_PAGE = 1_000;

export interface Applied {
  seq: bigint;
  command: PerpCommand;
  effect: PerpEffect;
}

/** The venue in memory and the last command applied to it. */
interface Replica {
  exchange: PerpExchange;
  applied: bigint;
}

/**
 * The perp venue replicated from its command log. Every process holds the venue in memory; a
 * writer takes the venue's advisory lock in its database transaction, catches up with commands
 * other processes committed, applies its command (a refusal rolls back and changes nothing),
 * appends it as `seq = last + 1`, and lets `record` write what the command did (orders, trades,
 * transfers) in the same transaction. Readers catch up without the lock: commits happen in `seq`
 * order, so they never skip one. Each row is applied only when it is the next one, so catch-ups
 * that overlap never apply a command twice; a reload builds a new replica aside and swaps it in.
 */
export function createPerpLedger(deps: {
  database: Database;
  markets: readonly PerpMarket[];
  log: FastifyBaseLogger;
}) {
  const { database, markets } = deps;
  let replica: Replica = { exchange: new PerpExchange(markets), applied: 0n };
  /** The memory may be ahead of the database (a transaction failed after applying): reload before use. */
  let stale = true;
  /** Commands this process applied whose transaction has not finished (memory ahead of the log, on purpose). */
  let ownPending = 0;
  let loading: Promise<void> | null = null;

  /** Applies the rows of `page` that come next, in order, to `target`. */
  function applyRows(target: Replica, rows: { seq: bigint; command: unknown }[]): void {
    for (const row of rows) {
      if (row.seq <= target.applied) continue;
      if (row.seq !== target.applied + 1n) {
        throw new Error(`perp command log has a gap before ${row.seq} (applied ${target.applied})`);
      }
      try {
        applyCommand(target.exchange, row.command as PerpCommand);
      } catch {
        // A refused command is never logged, so this is unreachable unless the engine changed;
        // the venue is unchanged by a refusal either way.
      }
      target.applied = row.seq;
    }
  }

  const page = (db: Db, from: bigint) =>
    db
      .select()
      .from(perpCommands)
      .where(gte(perpCommands.seq, from))
      .orderBy(asc(perpCommands.seq))
      .limit(CATCH_UP_PAGE);

  function load(): Promise<void> {
    loading ??= (async () => {
      try {
        const [snapshot] = await database.db
          .select()
          .from(perpSnapshots)
          .orderBy(desc(perpSnapshots.seq))
          .limit(1);
        const next: Replica = {
          exchange: snapshot
            ? exchangeFromSnapshot(markets, snapshot.state as PerpSnapshot)
            : new PerpExchange(markets),
          applied: snapshot?.seq ?? 0n,
        };
        for (;;) {
          const rows = await page(database.db, next.applied + 1n);
          applyRows(next, rows);
          if (rows.length < CATCH_UP_PAGE) break;
        }
        replica = next;
        stale = false;
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  /**
   * Applies the commands committed after ours. The read starts at our own last command: if it is
   * not there (and no write of ours is in flight), a transaction we applied in memory rolled back
   * after all (a relay settlement's, say), and the venue is reloaded.
   */
  async function catchUp(db: Db): Promise<void> {
    const target = replica;
    for (;;) {
      const from = target.applied;
      const rows = await page(db, from);
      if (replica !== target) return; // reloaded meanwhile: the new replica is complete
      if (from > 0n && rows[0]?.seq !== from && ownPending === 0 && !(await snapshotAt(db, from))) {
        deps.log.warn({ seq: from }, 'perp venue memory was ahead of the log: reloading');
        return load();
      }
      applyRows(target, rows);
      if (rows.length < CATCH_UP_PAGE || target.applied === from) return;
    }
  }

  async function snapshotAt(db: Db, seq: bigint): Promise<boolean> {
    const rows = await db
      .select({ seq: perpSnapshots.seq })
      .from(perpSnapshots)
      .where(eq(perpSnapshots.seq, seq));
    return rows.length > 0;
  }

  async function fresh(db: Db): Promise<void> {
    if (stale || loading) await load();
    else await catchUp(db);
  }

  async function write<R>(
    tx: Db,
    command: PerpCommand,
    record: (tx: Db, applied: Applied) => Promise<R>,
  ): Promise<{ applied: Applied; recorded: R }> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('perp-venue', 0))`);
    await fresh(tx);
    const target = replica;
    const effect = applyCommand(target.exchange, command);
    const seq = target.applied + 1n;
    target.applied = seq;
    ownPending++;
    try {
      await tx.insert(perpCommands).values({ seq, command });
      const entry = { seq, command, effect };
      const recorded = await record(tx, entry);
      if (seq % SNAPSHOT_EVERY === 0n) {
        await tx.insert(perpSnapshots).values({ seq, state: snapshotOf(target.exchange) });
        await tx.delete(perpSnapshots).where(lte(perpSnapshots.seq, seq - SNAPSHOT_EVERY * 2n));
        await tx.delete(perpCommands).where(lte(perpCommands.seq, seq - SNAPSHOT_EVERY));
      }
      return { applied: entry, recorded };
    } catch (error) {
      stale = true;
      throw error;
    } finally {
      ownPending--;
    }
  }

  return {
    load,

    /** The venue as of the last committed command (caught up first). */
    async read(): Promise<PerpExchange> {
      await fresh(database.db);
      return replica.exchange;
    },

    /** The venue without catching up (for code already inside a write, and pushes). */
    current(): PerpExchange {
      return replica.exchange;
    },

    /**
     * Applies and logs one command in its own transaction, or in `tx` (a relay settlement's), with
     * `record` writing its effects alongside. Throws the engine's PerpError when refused.
     */
    async run<R>(
      command: PerpCommand,
      record: (tx: Db, applied: Applied) => Promise<R>,
      tx?: Db,
    ): Promise<{ applied: Applied; recorded: R }> {
      if (tx) return write(tx, command, record);
      try {
        return await database.db.transaction((inner) => write(inner as unknown as Db, command, record));
      } catch (error) {
        // A refusal rolled back before anything was applied; anything else may have left memory ahead.
        if (!(error instanceof Error && error.name === 'PerpError')) stale = true;
        throw error;
      }
    },
  };
}

export type PerpLedger = ReturnType<typeof createPerpLedger>;
