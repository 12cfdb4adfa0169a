import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { pollPacer, type ChainService, type SignatureLanding } from '../chain/chain.service';
import { RelayError } from './relay-errors';
import { transitionServerTicket as transition, type ServerTicketRow } from './relay.repository';
import { serverTickets } from './relay.tables';

export type { ServerTicketRow } from './relay.repository';

/** A transaction the server built and signed: its wire bytes, signature and expiry height. */
export interface SignedServerTransaction {
  base64: string;
  signature: string | null;
  lastValidBlockHeight: bigint;
}

/** What a kind's handler is told when its ticket settles, inside the settling database transaction. */
export interface SettledServerTicket<Payload> {
  tx: Db;
  ticket: ServerTicketRow;
  payload: Payload;
  signature: string;
  at: Date;
}

/**
 * A kind of server-signed transaction, registered by the domain that sends it. Exactly one handler
 * runs per ticket, once, in the database transaction that settles it: `onLanded` (it landed and
 * succeeded), `onFailed` (it landed with an error: its effects were reverted), `onExpired` (its
 * blockhash expired and the chain never saw it). Only the last two may give anything back or send
 * again — never an exception.
 */
export interface ServerTicketKind<Payload> {
  readonly kind: string;
  readonly payload: z.ZodType<Payload>;
  onLanded?(settled: SettledServerTicket<Payload>): Promise<void>;
  onFailed?(settled: SettledServerTicket<Payload>): Promise<void>;
  onExpired?(settled: SettledServerTicket<Payload>): Promise<void>;
}

/** Where a server ticket stands: `pending` means the chain's verdict is not known yet. */
export type ServerTicketStatus = 'pending' | 'landed' | 'failed' | 'expired';

export interface ServerSendOutcome {
  status: ServerTicketStatus;
  signature: string;
  ticketId: string;
}

/** Points a crash may hit a send at; the fault-injection tests stop the process there. */
export type CrashPoint = 'signed' | 'recorded' | 'sent';

export interface ServerTicketsDeps {
  db: Db;
  chain: ChainService;
  now: () => Date;
  log: FastifyBaseLogger;
  /** How often an unconfirmed transaction is broadcast again while its blockhash is valid (default 2 s). */
  rebroadcastIntervalMs?: number;
  /** How long a request waits for the chain's verdict before answering pending (default 20 s). */
  requestWaitMs?: number;
  /** Test hook: called at each crash point (a test throws here to stop the send as a kill would). */
  crashPoint?: (point: CrashPoint, signature: string) => void;
}

/**
 * The signatures a request recorded as tickets: once one is recorded, the request's outcome is
 * ambiguous at worst — whatever is thrown afterwards, it answers pending, never an error a retry
 * (or a released Idempotency-Key) would pay again.
 */
export const recordedByRequest = new AsyncLocalStorage<string[]>();

function publicStatus(status: string): ServerTicketStatus {
  return status === 'landed' || status === 'failed' || status === 'expired' ? status : 'pending';
}

/**
 * Server tickets: the one way the server sends a transaction it signed alone. `send` records the
 * ticket (with the domain's own writes, atomically) before the first broadcast, then lands it;
 * an RPC failure at any point after the record leaves the ticket pending — never an error the
 * domain could mistake for "not sent" — and `reconcile` (a scheduled job, and every start) asks the
 * chain again until it landed, failed, or expired unseen. Status moves only along the ticket
 * lifecycle: each UPDATE names the states its event may leave in its WHERE clause.
 */
export function createServerTickets(deps: ServerTicketsDeps) {
  const { db, chain, now } = deps;
  const rebroadcastIntervalMs = deps.rebroadcastIntervalMs ?? 2000;
  const requestWaitMs = deps.requestWaitMs ?? 20_000;
  const kinds = new Map<string, ServerTicketKind<unknown>>();

  function kindOf(name: string): ServerTicketKind<unknown> {
    const kind = kinds.get(name);
    if (!kind) throw new RelayError('RELAY__KIND_UNKNOWN', `no server ticket kind '${name}' is registered`);
    return kind;
  }

  async function find(id: string): Promise<ServerTicketRow> {
    const [row] = await db.select().from(serverTickets).where(eq(serverTickets.id, id)).limit(1);
    return row!;
  }

  /** Settles a ticket once: its status and its kind's handler commit together, or neither does. */
  async function settle(
    ticket: ServerTicketRow,
    event: 'land' | 'fail' | 'expire',
    slot: bigint | null,
  ): Promise<ServerTicketStatus> {
    const kind = kindOf(ticket.kind);
    const payload = kind.payload.parse(ticket.payload);
    const at = now();
    const handler = event === 'land' ? kind.onLanded : event === 'fail' ? kind.onFailed : kind.onExpired;
    await db.transaction(async (tx) => {
      const settled = await transition(tx, ticket.id, event, {
        settledAt: at,
        slot: slot === null ? null : slot.toString(),
      });
      if (!settled) return;
      await handler?.call(kind, { tx, ticket: settled, payload, signature: ticket.signature, at });
    });
    // Whoever settled it (this call or a concurrent one), the stored status is the answer.
    return publicStatus((await find(ticket.id)).status);
  }

  function verdict(ticket: ServerTicketRow, status: SignatureLanding) {
    if (status.err !== null) {
      deps.log.warn(
        { signature: ticket.signature, kind: ticket.kind, err: status.err },
        'server transaction failed on chain',
      );
    }
    return settle(ticket, status.err === null ? 'land' : 'fail', status.slot);
  }

  /**
   * Asks the chain about a recorded ticket once: settles it when the chain has a verdict, expires
   * it when its blockhash is past and the chain never saw it, else broadcasts it (again). Any RPC
   * failure leaves it pending.
   */
  async function reconcileOne(ticket: ServerTicketRow): Promise<ServerTicketStatus> {
    try {
      const [status] = await chain.getSignatureStatuses([ticket.signature]);
      if (status && status.confirmationStatus !== 'processed') return await verdict(ticket, status);
      if (status) return 'pending';
      if ((await chain.getBlockHeight()) > BigInt(ticket.lastValidBlockHeight)) {
        // One last look: it may have landed just before the blockhash expired.
        const [last] = await chain.getSignatureStatuses([ticket.signature]);
        if (last) return last.confirmationStatus === 'processed' ? 'pending' : await verdict(ticket, last);
        return await settle(ticket, 'expire', null);
      }
      // Recorded but never sent (a crash before the send) moves on to sending; one already
      // sending is refused here and broadcast again all the same.
      await transition(db, ticket.id, 'send', { sentAt: now() });
      await chain.sendTransaction(ticket.signedTransaction);
      return 'pending';
    } catch (error) {
      deps.log.warn({ err: error, signature: ticket.signature }, 'server ticket not reconciled yet');
      return 'pending';
    }
  }

  /** Broadcasts a recorded ticket and waits (at most `requestWaitMs`) for the chain's verdict. */
  async function land(ticket: ServerTicketRow): Promise<ServerTicketStatus> {
    const deadline = performance.now() + requestWaitMs;
    await transition(db, ticket.id, 'send', { sentAt: now() });
    const watch = chain.watchConfirmation(ticket.signature);
    try {
      // A send that errs may still have reached the node: its answer says nothing, the statuses do.
      await chain.sendTransaction(ticket.signedTransaction).catch(() => undefined);
      deps.crashPoint?.('sent', ticket.signature);
      return await confirm(ticket, deadline, pollPacer(watch));
    } finally {
      watch.cancel();
    }
  }

  /** Polls the sent ticket's status until its verdict, its expiry, or `deadline` (then pending). */
  async function confirm(
    ticket: ServerTicketRow,
    deadline: number,
    pacer: ReturnType<typeof pollPacer>,
  ): Promise<ServerTicketStatus> {
    let lastSend = performance.now();
    for (let attempt = 0; performance.now() < deadline; attempt++) {
      await pacer.wait(attempt);
      try {
        const [status] = await chain.getSignatureStatuses([ticket.signature]);
        if (status && status.confirmationStatus !== 'processed') return await verdict(ticket, status);
        if (performance.now() - lastSend >= rebroadcastIntervalMs) {
          if ((await chain.getBlockHeight()) > BigInt(ticket.lastValidBlockHeight)) {
            return await reconcileOne(ticket);
          }
          await chain.sendTransaction(ticket.signedTransaction).catch(() => undefined);
          lastSend = performance.now();
        }
      } catch {
        // The node did not answer: the verdict is unknown, and the reconcile job asks again.
        return 'pending';
      }
    }
    return 'pending';
  }

  return {
    registerKind<Payload>(kind: ServerTicketKind<Payload>): void {
      if (kinds.has(kind.kind)) throw new Error(`server ticket kind '${kind.kind}' is registered twice`);
      kinds.set(kind.kind, kind as ServerTicketKind<unknown>);
    },

    /** Simulates before anything is recorded: a transaction that would fail is never sent. */
    async preflight(built: SignedServerTransaction): Promise<void> {
      let simulation;
      try {
        simulation = await chain.simulateTransaction(built.base64);
      } catch {
        throw new RelayError('RELAY__RPC_UNAVAILABLE');
      }
      if (simulation.err) {
        deps.log.error(
          { signature: built.signature, err: simulation.err, logs: simulation.logs },
          'server transaction would fail',
        );
        throw new RelayError('RELAY__SIMULATION_FAILED');
      }
    },

    /**
     * Sends a signed transaction as a ticket of `kind`: `record` (the domain's debit or claim) and
     * the ticket commit in one database transaction before the first broadcast. Answers the
     * chain's verdict, or `pending` when it is not known in time (the reconcile job settles it).
     */
    async send<Payload>(request: {
      kind: ServerTicketKind<Payload>;
      userId?: string | null;
      payload: Payload;
      built: SignedServerTransaction;
      /** Simulate first (default true); refusals throw RELAY__SIMULATION_FAILED, nothing recorded. */
      simulate?: boolean;
      record?: (tx: Db) => Promise<void>;
    }): Promise<ServerSendOutcome> {
      const kind = kindOf(request.kind.kind);
      const payload = kind.payload.parse(request.payload) as Record<string, unknown>;
      const signature = request.built.signature;
      if (!signature)
        throw new RelayError('RELAY__KIND_UNKNOWN', 'a server ticket needs a signed transaction');
      if (request.simulate !== false) await this.preflight(request.built);
      deps.crashPoint?.('signed', signature);
      const ticket = await db.transaction(async (tx) => {
        // The ticket first: the domain's writes (which may move in-memory state, the perp ledger's)
        // come last, so nothing after them can roll the transaction back.
        const [row] = await tx
          .insert(serverTickets)
          .values({
            kind: kind.kind,
            userId: request.userId ?? null,
            payload,
            signature,
            signedTransaction: request.built.base64,
            lastValidBlockHeight: request.built.lastValidBlockHeight.toString(),
            status: 'open',
          })
          .returning();
        await request.record?.(tx);
        return row!;
      });
      recordedByRequest.getStore()?.push(signature);
      deps.crashPoint?.('recorded', signature);
      return { status: await land(ticket), signature, ticketId: ticket.id };
    },

    /** Every ticket not settled yet is asked about once (the scheduled job; also run at start). */
    async reconcile(): Promise<{ settled: number; pending: number }> {
      const open = await db
        .select()
        .from(serverTickets)
        .where(inArray(serverTickets.status, ['open', 'sending']));
      let settled = 0;
      for (const ticket of open) {
        if ((await reconcileOne(ticket)) === 'pending') continue;
        settled++;
      }
      return { settled, pending: open.length - settled };
    },

    /** A ticket's status, for its user (null when it is not theirs or does not exist). */
    async statusOf(userId: string, signature: string): Promise<ServerTicketStatus | null> {
      const [row] = await db
        .select()
        .from(serverTickets)
        .where(and(eq(serverTickets.signature, signature), eq(serverTickets.userId, userId)))
        .limit(1);
      if (!row) return null;
      if (row.status === 'open' || row.status === 'sending') return reconcileOne(row);
      return publicStatus(row.status);
    },

    /**
     * Whether every ticket of `kind` serving the user has settled, asking the chain now about those
     * still open or sending: false while one may yet land.
     */
    async userSettled(userId: string, kind: string): Promise<boolean> {
      const unsettled = await db
        .select()
        .from(serverTickets)
        .where(
          and(
            eq(serverTickets.userId, userId),
            eq(serverTickets.kind, kind),
            inArray(serverTickets.status, ['open', 'sending']),
          ),
        );
      for (const ticket of unsettled) if ((await reconcileOne(ticket)) === 'pending') return false;
      return true;
    },

    /** Tickets not settled yet (tests, health). */
    async unsettled(): Promise<ServerTicketRow[]> {
      return db
        .select()
        .from(serverTickets)
        .where(inArray(serverTickets.status, ['open', 'sending']));
    },
  };
}

export type ServerTickets = ReturnType<typeof createServerTickets>;
