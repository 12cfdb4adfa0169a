import type { Transaction } from '@solana/kit';
import type { TSpotOrder } from '@solterm/contracts';
import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { TicketRow } from './relay.repository';

/** What a kind's handler is told when its transaction landed (or landed with an error). */
export interface SettledTicket<Payload> {
  /** The database transaction the ticket's status change commits in: write through it. */
  tx: Db;
  ticket: TicketRow;
  payload: Payload;
  signature: string;
  at: Date;
  /** The fee the transaction paid, when the kind asked for it (`readsFee`) and the node answered. */
  feeLamports: bigint | null;
  /** When execution started (performance.now()), or null when settled by reconciliation. */
  startedAt: number | null;
}

/**
 * A kind of signed transaction, registered by the module that builds it: the relay validates the
 * payload it stores with `payload`, lets the module co-sign at execute time, and calls `onLanded` /
 * `onFailed` in the same database transaction that settles the ticket (so a ticket is recorded once).
 */
export interface TicketKind<Payload> {
  readonly kind: string;
  readonly payload: z.ZodType<Payload>;
  /** Signers the server adds after the wallet signed (their signatures are absent until then). */
  serverSigners?(payload: Payload): readonly string[];
  /** Adds those signatures, after re-checking whatever they commit the server to (a quote). */
  coSign?(ticket: TicketRow, payload: Payload, transaction: Transaction): Promise<Transaction>;
  /** Whether the handlers need the landed transaction's fee (one more RPC call). */
  readonly readsFee?: boolean;
  /** Writes what landed (one of `onLanded` and `landedWrites`). */
  onLanded?(settled: SettledTicket<Payload>): Promise<void>;
  /**
   * What landed as inserts built with `insertFromSettled`: the ticket's settlement and these commit
   * in one statement instead of a transaction of several (the swap's hot path).
   */
  landedWrites?(settled: Omit<SettledTicket<Payload>, 'tx'>): readonly SQL[];
  /** The table of `landedWrites`' first insert: its written row is handed to `afterSettled`. */
  readonly landedWritesReturn?: PgTable;
  onFailed?(settled: SettledTicket<Payload>): Promise<void>;
  /**
   * After the settlement committed (once per caller): the order it wrote, pushed to the user.
   * `written` is the row of `landedWritesReturn` when this caller's settlement wrote it.
   */
  afterSettled?(ticket: TicketRow, payload: Payload, written?: unknown): Promise<TSpotOrder | null>;
}

/** The kinds known to a relay, by name. */
export function createKindRegistry() {
  const kinds = new Map<string, TicketKind<unknown>>();
  return {
    add<Payload>(kind: TicketKind<Payload>): void {
      if (kinds.has(kind.kind)) throw new Error(`ticket kind '${kind.kind}' is registered twice`);
      kinds.set(kind.kind, kind as TicketKind<unknown>);
    },
    get(name: string): TicketKind<unknown> {
      const kind = kinds.get(name);
      if (!kind) throw new Error(`no ticket kind '${name}' is registered`);
      return kind;
    },
  };
}
