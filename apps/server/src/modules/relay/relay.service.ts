import {
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Transaction,
  type TransactionError,
} from '@solana/kit';
import type { TExecuteSignedTransactionResult, TSpotOrder } from '@solterm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ChainService } from '../chain/chain.service';
import { createIdempotency, type IdempotentAnswer } from './idempotency';
import { createLanding } from './landing';
import type { RelayRepository, TicketRow } from './relay.repository';
import { decodeSigned, messageHashOf, verifySignatures } from './signed-transaction';
import { createKindRegistry, type TicketKind } from './ticket-kinds';
import { createServerTickets, recordedByRequest, type CrashPoint } from './server-tickets';
import { createRelayReconcile } from './relay-reconcile';
import { pendingAnswer } from './money-request';
import { RelayError } from './relay-errors';
import type { Db } from '../../db/database';

export type { TicketKind, SettledTicket } from './ticket-kinds';
export type { TicketRow } from './relay.repository';
export { insertFromSettled } from './relay.repository';
export type { IdempotentAnswer } from './idempotency';
export type {
  ServerTicketKind,
  SettledServerTicket,
  ServerSendOutcome,
  ServerTicketStatus,
  SignedServerTransaction,
  CrashPoint,
} from './server-tickets';
export { RelayError, isRelayError, type RelayErrorCode } from './relay-errors';
export { ZIdempotencyHeadersSchema, landedAnswer, moneyRequestErrorOf, pendingAnswer } from './money-request';

export interface RelayDeps {
  repo: RelayRepository;
  /** The database server tickets are recorded in, with the sending domain's own writes. */
  db: Db;
  chain: ChainService;
  now: () => Date;
  log: FastifyBaseLogger;
  /** How often a sent transaction is rebroadcast until it lands or its blockhash expires (default 2 s). */
  rebroadcastIntervalMs?: number;
  /** How long a request waits for a server-signed transaction's verdict before answering pending. */
  serverRequestWaitMs?: number;
  /** Test hook: the fault-injection suite stops a server send at these points. */
  crashPoint?: (point: CrashPoint, signature: string) => void;
}

/** A transaction built for a wallet to sign, remembered until it is executed. */
export interface NewTicket<Payload> {
  userId: string;
  kind: TicketKind<Payload>;
  /** The wallet that must sign (the fee payer). */
  walletAddress: string;
  messageBytes: Uint8Array;
  lastValidBlockHeight: bigint;
  payload: Payload;
  /** The order the ticket places or fills, if any. */
  orderId?: string | null;
}

/** Who executes: the signed-in user and the wallet the session trades with. */
export interface Executor {
  id: string;
  solanaWalletAddress: string | null;
}

export type { TicketOutcome } from './relay-reconcile';

/**
 * The relay owns every signed transaction. What the server builds for a wallet to sign is a ticket
 * (kind, payload, message hash, expiry height); executing verifies the wallet's signatures against
 * the ticket, adds the server's co-signatures only then, simulates, sends, rebroadcasts until the
 * blockhash expires, confirms, and settles the ticket with its kind's handler in one database
 * transaction. A crash between sending and settling is reconciled from the chain's signature statuses.
 */
export function createRelay(deps: RelayDeps) {
  const { repo, chain, now } = deps;
  const kinds = createKindRegistry();
  const landing = createLanding(deps);
  const idempotency = createIdempotency(repo);
  const server = createServerTickets({
    db: deps.db,
    chain,
    now,
    log: deps.log,
    rebroadcastIntervalMs: deps.rebroadcastIntervalMs,
    requestWaitMs: deps.serverRequestWaitMs,
    crashPoint: deps.crashPoint,
  });

  async function settle(
    ticket: TicketRow,
    startedAt: number | null,
    failed: boolean,
  ): Promise<TSpotOrder | null> {
    const kind = kinds.get(ticket.kind);
    const payload = kind.payload.parse(ticket.payload);
    const signature = ticket.signature!;
    const feeLamports = kind.readsFee ? await chain.getTransactionFee(signature).catch(() => null) : null;
    const at = now();
    const settled = { ticket, payload, signature, at, feeLamports, startedAt };
    const writes = failed ? undefined : kind.landedWrites?.(settled);
    let written: unknown;
    if (writes && kind.landedWritesReturn) {
      ({ written } = await repo.settleTicketReturning(
        ticket.id,
        'landed',
        at,
        writes,
        kind.landedWritesReturn,
      ));
    } else if (writes) {
      await repo.settleTicketWith(ticket.id, 'landed', at, writes);
    } else {
      const handler = failed ? kind.onFailed : kind.onLanded;
      await repo.settleTicket(ticket.id, failed ? 'failed' : 'landed', at, async (tx) => {
        await handler?.({ tx, ...settled });
      });
    }
    return (await kind.afterSettled?.(ticket, payload, written)) ?? null;
  }

  const reconciling = createRelayReconcile({ repo, chain, now, log: deps.log, settle });
  const { reconcileTicket } = reconciling;

  /** The executor's open ticket this transaction was built as; refusals name what is wrong. */
  async function ticketOf(executor: Executor, transaction: Transaction): Promise<TicketRow> {
    const ticket = await repo.findTicketByMessageHash(messageHashOf(transaction.messageBytes));
    if (!ticket || ticket.userId !== executor.id) {
      const feePayer = Object.keys(transaction.signatures)[0];
      if (feePayer && feePayer === executor.solanaWalletAddress && (await repo.hasOpenTicket(executor.id))) {
        throw new RelayError('RELAY__TRANSACTION_MODIFIED');
      }
      throw new RelayError('RELAY__TRANSACTION_UNKNOWN');
    }
    if (ticket.status === 'expired') throw new RelayError('RELAY__TRANSACTION_EXPIRED');
    if (ticket.status !== 'open') throw new RelayError('RELAY__ALREADY_EXECUTED');
    return ticket;
  }

  /**
   * The wire transaction to send (co-signed by the server where its kind says so), simulated while
   * the blockhash's validity is checked; a refusal carries the simulation's error for the domain to word.
   */
  async function prepare(ticket: TicketRow, transaction: Transaction): Promise<string> {
    const kind = kinds.get(ticket.kind);
    const payload = kind.payload.parse(ticket.payload);
    const serverSigners = kind.serverSigners?.(payload) ?? [];
    await verifySignatures(transaction, serverSigners);
    // A refused expiry (another request claimed or settled the ticket) changes nothing: this
    // transaction's blockhash is past either way.
    const expired = async () => {
      await repo.expireTicket(ticket.id, now());
      return new RelayError('RELAY__TRANSACTION_EXPIRED');
    };
    const heightRead = chain.getBlockHeight();
    heightRead.catch(() => undefined);
    const ready =
      kind.coSign && serverSigners.length > 0 ? await kind.coSign(ticket, payload, transaction) : transaction;
    const wireBase64 = getBase64EncodedWireTransaction(ready);
    // The simulation changes nothing on chain: it runs alongside the expiry check, and its outcome
    // (or failure) only counts once the blockhash is known to be still valid.
    const simulating = chain.simulateTransaction(wireBase64);
    simulating.catch(() => undefined);
    if ((await heightRead) > BigInt(ticket.lastValidBlockHeight)) throw await expired();
    const simulation = await simulating;
    if (simulation.err) {
      deps.log.info({ ticket: ticket.id, err: simulation.err }, 'signed transaction refused in simulation');
      // The node no longer knows the blockhash: the ticket can never land.
      if (simulation.err === 'BlockhashNotFound') throw await expired();
      throw new RelayError('RELAY__SIMULATION_FAILED', undefined, undefined, simulation.err);
    }
    return wireBase64;
  }

  /**
   * Claims the ticket, lands the transaction and settles it. An RPC error once it was claimed is an
   * unknown outcome, never "not sent": the node may have it. The ticket stays sent (the reconcile job
   * settles it: landed, failed, or expired unseen) and the caller is told RELAY__OUTCOME_UNKNOWN
   * with its signature — reopening it here lost the record of a transaction that landed.
   */
  async function send(ticket: TicketRow, transaction: Transaction, wireBase64: string, startedAt: number) {
    const signature = getSignatureFromTransaction(transaction);
    if (!(await repo.claimTicket(ticket.id, signature, wireBase64, now()))) {
      throw new RelayError('RELAY__ALREADY_EXECUTED');
    }
    let landed;
    try {
      landed = await landing.land(wireBase64, signature, BigInt(ticket.lastValidBlockHeight));
    } catch (error) {
      deps.log.warn({ err: error, signature }, 'signed transaction sent, outcome unknown');
      throw new RelayError(
        'RELAY__OUTCOME_UNKNOWN',
        'the outcome of the transaction is not known yet',
        signature,
      );
    }
    if (landed.outcome === 'expired') {
      await repo.expireTicket(ticket.id, now());
      throw new RelayError('RELAY__TRANSACTION_EXPIRED');
    }
    const sent = { ...ticket, signature, signedTransaction: wireBase64, status: 'sending' };
    const order = await settle(sent, startedAt, landed.err !== null);
    if (landed.err !== null) {
      deps.log.warn({ signature, err: landed.err }, 'transaction landed with an error');
      throw new RelayError(
        'RELAY__TRANSACTION_FAILED',
        'the transaction landed with an error',
        signature,
        landed.err as TransactionError,
      );
    }
    return { transaction_hash: signature, status: 'confirmed' as const, slot: Number(landed.slot), order };
  }

  return {
    /** Registers a kind of ticket (each module registers its own at start). */
    registerKind<Payload>(kind: TicketKind<Payload>): void {
      kinds.add(kind);
    },

    /** Remembers a built transaction as an open ticket; its payload must satisfy the kind's schema. */
    async register<Payload>(ticket: NewTicket<Payload>): Promise<{ id: string }> {
      const payload = ticket.kind.payload.parse(ticket.payload);
      const row = await repo.insertOpenTicket({
        userId: ticket.userId,
        kind: ticket.kind.kind,
        walletAddress: ticket.walletAddress,
        messageHash: messageHashOf(ticket.messageBytes),
        lastValidBlockHeight: ticket.lastValidBlockHeight.toString(),
        payload: payload as Record<string, unknown>,
        orderId: ticket.orderId ?? null,
      });
      return { id: row.id };
    },

    /**
     * POST /trading/execute-signed-transaction: verify, co-sign, simulate, send, confirm, settle.
     * Throws RELAY__OUTCOME_UNKNOWN (with the signature) when the node failed after the send: the
     * ticket stays sent until the reconcile job's verdict.
     */
    async execute(executor: Executor, signedBase64: string): Promise<TExecuteSignedTransactionResult> {
      const startedAt = performance.now();
      const transaction = decodeSigned(signedBase64);
      const ticket = await ticketOf(executor, transaction);
      const wireBase64 = await prepare(ticket, transaction);
      return send(ticket, transaction, wireBase64, startedAt);
    },

    /**
     * The relay's verdict on the user's ticket sent under `signature`, reconciled now when it is
     * still in flight: `unknown` when no ticket was ever sent under it (it never left the server).
     * Throws when the chain cannot be asked.
     */
    async outcomeOf(
      userId: string,
      signature: string,
    ): Promise<'landed' | 'failed' | 'expired' | 'in_flight' | 'unknown'> {
      const ticket = await repo.findTicketBySignature(signature);
      if (!ticket || ticket.userId !== userId) return 'unknown';
      if (ticket.status === 'sending') return reconcileTicket(ticket);
      if (ticket.status === 'landed' || ticket.status === 'failed' || ticket.status === 'expired') {
        return ticket.status;
      }
      return 'unknown';
    },

    /** Whether a ticket of the user's was ever sent under `signature` (the chain is not asked). */
    async wasSent(userId: string, signature: string): Promise<boolean> {
      const ticket = await repo.findTicketBySignature(signature);
      return ticket !== undefined && ticket.userId === userId;
    },

    /**
     * Whether every transaction `walletAddress` sent for the user has settled, asking the chain now
     * about those still in flight: false while one may yet land.
     */
    async walletSettled(userId: string, walletAddress: string): Promise<boolean> {
      for (const ticket of await repo.sendingTicketsOf(walletAddress)) {
        if (ticket.userId !== userId) continue;
        if ((await reconcileTicket(ticket)) === 'in_flight') return false;
      }
      return true;
    },

    /** The Idempotency-Key protocol around an execution (the same key and body answer the first result). */
    idempotency,

    /**
     * A request that moves money: under its Idempotency-Key when it has one (a retry answers the
     * first outcome — landed, pending or refused — and never pays again); the relay's errors, and
     * any `run` throws, pass through `mapError` (the domain's words).
     */
    async moneyRequest(
      userId: string,
      key: string | undefined,
      requestBody: unknown,
      run: () => Promise<IdempotentAnswer>,
      mapError: (error: unknown) => unknown,
    ): Promise<IdempotentAnswer> {
      const guarded = async () => {
        const recorded: string[] = [];
        try {
          return await recordedByRequest.run(recorded, run);
        } catch (error) {
          // A ticket was recorded before the failure: it may land, so the answer is pending (and a
          // retry with the key answers that), never an error that invites a second payment.
          const signature = recorded.at(-1);
          if (signature === undefined) throw mapError(error);
          deps.log.error({ err: error, signature }, 'request failed after its transaction was recorded');
          return pendingAnswer(signature);
        }
      };
      if (!key) return guarded();
      try {
        return await idempotency.answer(userId, key, requestBody, guarded);
      } catch (error) {
        throw mapError(error);
      }
    },

    /**
     * Transactions the server signs alone, as tickets: register a kind, `send` (recorded with the
     * domain's writes before it is sent), `reconcile` (the scheduled job), `statusOf` (a user's).
     */
    server,

    reconcileTicket,

    /**
     * GET /api/transactions/{signature}: where the user's transaction stands, whoever signed it (a
     * server ticket, or a wallet ticket whose send ended in an unknown outcome); an unsettled one is
     * asked about on the chain now. Null when it is not theirs or unknown.
     */
    async transactionStatus(
      userId: string,
      signature: string,
    ): Promise<'pending' | 'landed' | 'failed' | 'expired' | null> {
      const serverSigned = await server.statusOf(userId, signature);
      if (serverSigned) return serverSigned;
      const ticket = await repo.findTicketBySignature(signature);
      if (!ticket || ticket.userId !== userId) return null;
      if (ticket.status === 'landed' || ticket.status === 'failed' || ticket.status === 'expired') {
        return ticket.status;
      }
      if (ticket.status !== 'sending') return null;
      const outcome = await reconcileTicket(ticket).catch(() => 'in_flight' as const);
      return outcome === 'in_flight' ? 'pending' : outcome;
    },

    /** A user's ticket still in flight under `signature` is reconciled now (POST /trading/spot/order). */
    reconcileSignature: reconciling.reconcileSignature,

    /** After a restart: every ticket that was sent but not settled is settled from the chain. */
    reconcileSent: reconciling.reconcileSent,
  };
}

export type Relay = ReturnType<typeof createRelay>;
