import { and, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { insertFrom } from '../../db/insert-from';
import { idempotencyKeys, serverTickets, transactionTickets } from './relay.tables';
import { ticketLifecycle, type TicketEvent, type TicketState } from '@solterm/engine';

export type TicketRow = typeof transactionTickets.$inferSelect;
export type NewTicketRow = typeof transactionTickets.$inferInsert;
export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;
export type ServerTicketRow = typeof serverTickets.$inferSelect;
export type NewServerTicketRow = typeof serverTickets.$inferInsert;

/** What a ticket transition may write besides the status (never the status itself). */
export interface TicketTransitionOptions<Row> {
  values?: Omit<Partial<Row>, 'status'>;
  /** A surrounding database transaction (a settlement and its kind's writes commit together). */
  executor?: Db;
}

/** The state an event enters (the engine's ticket lifecycle decides — never a string written here). */
function entered(event: TicketEvent): TicketState {
  return ticketLifecycle.next(ticketLifecycle.sources(event)[0]!, event);
}

/** The states an event may leave: the compare-and-set of every ticket status write. */
function sourcesOf(event: TicketEvent): TicketState[] {
  return [...ticketLifecycle.sources(event)];
}

/**
 * Applies a lifecycle event to a server ticket (server-tickets.ts): the update's WHERE clause names
 * the states the event may leave, so a ticket that moved on meanwhile is left alone and undefined
 * comes back.
 */
export async function transitionServerTicket(
  executor: Db,
  id: string,
  event: TicketEvent,
  values: TicketTransitionOptions<NewServerTicketRow>['values'] = {},
): Promise<ServerTicketRow | undefined> {
  const [row] = await executor
    .update(serverTickets)
    .set({ ...values, status: entered(event) })
    .where(and(eq(serverTickets.id, id), inArray(serverTickets.status, sourcesOf(event))))
    .returning();
  return row;
}

/** The ticket a one-statement settlement settled (its writes select from it: none when it was not). */
const SETTLED_TICKET = sql.identifier('settled_ticket');
/** The count of settled tickets (0 or 1) in a one-statement settlement's answer, beside any written row. */
const SETTLED_COUNT_NAME = 'settled_ticket_count';
const SETTLED_COUNT = sql.identifier(SETTLED_COUNT_NAME);

/**
 * An insert of `row` for a one-statement settlement (`settleTicketWith`): it selects from the settled
 * ticket, so it writes nothing when another caller settled it first. Columns left out take their
 * database defaults; each value is cast to its column's type (a SELECT list has no target types).
 */
export function insertFromSettled<Table extends PgTable>(table: Table, row: Table['$inferInsert']): SQL {
  return sql`${insertFrom(table, row, SETTLED_TICKET)} on conflict do nothing`;
}

/**
 * A prepared update's value, given when it runs: Drizzle binds it through the column's encoder as it
 * binds a value given at once, but its types admit placeholders only in inserts and conditions.
 */
const setLater = <Value>(name: string) => sql.placeholder(name) as unknown as Value;

/** The relay's tables: transaction tickets and Idempotency-Key answers. */
export function createRelayRepository(db: Db) {
  // The statements every wallet execution runs, built once: Drizzle otherwise builds a statement's
  // SQL from its query objects on every call.
  const ticketByMessageHash = db
    .select()
    .from(transactionTickets)
    .where(eq(transactionTickets.messageHash, sql.placeholder('messageHash')))
    .limit(1)
    .prepare('relay_ticket_by_message_hash');
  const insertOpenTicket = db
    .insert(transactionTickets)
    .values({
      userId: sql.placeholder('userId'),
      kind: sql.placeholder('kind'),
      walletAddress: sql.placeholder('walletAddress'),
      messageHash: sql.placeholder('messageHash'),
      lastValidBlockHeight: sql.placeholder('lastValidBlockHeight'),
      payload: sql.placeholder('payload'),
      orderId: sql.placeholder('orderId'),
      status: 'open',
    })
    .returning()
    .prepare('relay_insert_open_ticket');
  const claim = db
    .update(transactionTickets)
    .set({
      signature: setLater<string>('signature'),
      signedTransaction: setLater<string>('signedTransaction'),
      sentAt: setLater<Date>('sentAt'),
      status: entered('send'),
    })
    .where(
      and(
        eq(transactionTickets.id, sql.placeholder('id')),
        inArray(transactionTickets.status, sourcesOf('send')),
      ),
    )
    .returning({ id: transactionTickets.id })
    .prepare('relay_claim_ticket');

  /**
   * Applies a lifecycle event to a wallet-signed ticket: the update's WHERE clause names the states
   * the event may leave, so a ticket another caller moved on meanwhile (a concurrent execute, the
   * reconcile job racing the landing path) is left alone and undefined comes back. Every status
   * write of a ticket goes through here; each caller decides what a refusal means.
   */
  async function transitionTicket(
    id: string,
    event: TicketEvent,
    options: TicketTransitionOptions<NewTicketRow> = {},
  ): Promise<TicketRow | undefined> {
    const [row] = await (options.executor ?? db)
      .update(transactionTickets)
      .set({ ...options.values, status: entered(event) })
      .where(and(eq(transactionTickets.id, id), inArray(transactionTickets.status, sourcesOf(event))))
      .returning();
    return row;
  }

  async function settleInOneStatement<Table extends PgTable>(
    ticketId: string,
    status: 'landed' | 'failed',
    at: Date,
    writes: readonly SQL[],
    returningFirst?: Table,
  ): Promise<{ settled: boolean; written: Table['$inferSelect'] | undefined }> {
    const event = status === 'landed' ? 'land' : 'fail';
    const settle = db
      .update(transactionTickets)
      .set({ settledAt: at, status: entered(event) })
      .where(and(eq(transactionTickets.id, ticketId), inArray(transactionTickets.status, sourcesOf(event))))
      .returning({ id: transactionTickets.id })
      .getSQL();
    const ctes = writes.map((write, index) => {
      const returning = index === 0 && returningFirst ? sql` returning *` : sql``;
      return sql`, ${sql.identifier(`write_${index}`)} as (${write}${returning})`;
    });
    const count = sql`select count(*)::int as ${SETTLED_COUNT} from ${SETTLED_TICKET}`;
    const select = returningFirst
      ? sql`select counted.${SETTLED_COUNT}, written.* from (${count}) counted left join ${sql.identifier('write_0')} written on true`
      : count;
    // Both drivers (PGlite, node-postgres) answer { rows }, with each column as the driver reads it.
    const { rows } = (await db.execute(
      sql`with ${SETTLED_TICKET} as (${settle})${sql.join(ctes)} ${select}`,
    )) as unknown as { rows: Record<string, unknown>[] };
    const [row] = rows;
    const settled = row?.[SETTLED_COUNT_NAME] === 1;
    if (!returningFirst || !settled) return { settled, written: undefined };
    const columns = Object.entries(getTableColumns(returningFirst) as Record<string, PgColumn>);
    // Nothing inserted (the left join's nulls): every column of a written row has a value or null,
    // and its primary key is never null.
    if (columns.every(([, column]) => row![column.name] === null || row![column.name] === undefined)) {
      return { settled, written: undefined };
    }
    // As drizzle maps a selected row: the driver's value through the column's decoder.
    const written: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = row![column.name];
      written[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return { settled, written: written as Table['$inferSelect'] };
  }

  return {
    transitionTicket,

    async findTicket(id: string): Promise<TicketRow | undefined> {
      const [row] = await db.select().from(transactionTickets).where(eq(transactionTickets.id, id)).limit(1);
      return row;
    },

    /** A new ticket, open for its wallet to sign and execute. */
    async insertOpenTicket(
      values: Pick<
        NewTicketRow,
        'userId' | 'kind' | 'walletAddress' | 'messageHash' | 'lastValidBlockHeight' | 'payload' | 'orderId'
      >,
    ): Promise<TicketRow> {
      const [row] = await insertOpenTicket.execute({ ...values, orderId: values.orderId ?? null });
      return row!;
    },

    async findTicketByMessageHash(messageHash: string): Promise<TicketRow | undefined> {
      const [row] = await ticketByMessageHash.execute({ messageHash });
      return row;
    },

    async findTicketBySignature(signature: string): Promise<TicketRow | undefined> {
      const [row] = await db
        .select()
        .from(transactionTickets)
        .where(eq(transactionTickets.signature, signature))
        .limit(1);
      return row;
    },

    /** The wallet's tickets that were sent and are not settled yet. */
    async sendingTicketsOf(walletAddress: string): Promise<TicketRow[]> {
      return db
        .select()
        .from(transactionTickets)
        .where(
          and(eq(transactionTickets.walletAddress, walletAddress), eq(transactionTickets.status, 'sending')),
        );
    },

    async hasOpenTicket(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: transactionTickets.id })
        .from(transactionTickets)
        .where(and(eq(transactionTickets.userId, userId), eq(transactionTickets.status, 'open')))
        .limit(1);
      return row !== undefined;
    },

    /**
     * Claims an open ticket for sending (`send`) and stores the signed bytes first (durable before
     * the send, so a crash afterwards is reconciled). False when another request claimed it.
     */
    async claimTicket(id: string, signature: string, signedTransaction: string, at: Date): Promise<boolean> {
      try {
        return (await claim.execute({ id, signature, signedTransaction, sentAt: at })).length === 1;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** Expires an open or sending ticket (its blockhash is past); false when it had settled. */
    async expireTicket(id: string, at: Date): Promise<boolean> {
      return (await transitionTicket(id, 'expire', { values: { settledAt: at } })) !== undefined;
    },

    listTicketsByStatus(status: TicketState): Promise<TicketRow[]> {
      return db.select().from(transactionTickets).where(eq(transactionTickets.status, status));
    },

    /**
     * Settles a sent ticket atomically: the ticket becomes landed or failed and `write` records what
     * it did, in one database transaction. False (and nothing written) when another caller settled it.
     */
    async settleTicket(
      ticketId: string,
      status: 'landed' | 'failed',
      at: Date,
      write: (tx: Db) => Promise<void>,
    ): Promise<boolean> {
      const event = status === 'landed' ? 'land' : 'fail';
      return db.transaction(async (tx) => {
        const settled = await transitionTicket(ticketId, event, { values: { settledAt: at }, executor: tx });
        if (!settled) return false;
        await write(tx);
        return true;
      });
    },

    /**
     * `settleTicket` in one statement (no transaction round trips): the ticket's transition and
     * `writes` (built with `insertFromSettled`) commit or fail together, and the writes find no
     * ticket to select from when another caller settled it. False (nothing written) then.
     */
    async settleTicketWith(
      ticketId: string,
      status: 'landed' | 'failed',
      at: Date,
      writes: readonly SQL[],
    ): Promise<boolean> {
      return (await settleInOneStatement(ticketId, status, at, writes)).settled;
    },

    /**
     * `settleTicketWith` whose first write is an insert into `table`: also the row it wrote, as a
     * select of it would read it (undefined when it wrote none: another caller settled the ticket).
     */
    async settleTicketReturning<Table extends PgTable>(
      ticketId: string,
      status: 'landed' | 'failed',
      at: Date,
      writes: readonly SQL[],
      table: Table,
    ): Promise<{ settled: boolean; written: Table['$inferSelect'] | undefined }> {
      return settleInOneStatement(ticketId, status, at, writes, table);
    },

    async findIdempotencyKey(userId: string, key: string): Promise<IdempotencyRow | undefined> {
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
        .limit(1);
      return row;
    },

    /** Takes a key for this request; false when the key already exists. */
    async claimIdempotencyKey(userId: string, key: string, requestHash: string): Promise<boolean> {
      const rows = await db
        .insert(idempotencyKeys)
        .values({ userId, key, requestHash, state: 'in_progress' })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      return rows.length === 1;
    },

    async completeIdempotencyKey(userId: string, key: string, statusCode: number, response: unknown) {
      await db
        .update(idempotencyKeys)
        .set({ state: 'done', statusCode: String(statusCode), response })
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    },

    async releaseIdempotencyKey(userId: string, key: string): Promise<void> {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    },
  };
}

export type RelayRepository = ReturnType<typeof createRelayRepository>;
