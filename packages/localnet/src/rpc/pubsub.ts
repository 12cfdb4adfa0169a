/**
 * Solana's PubSub over WebSocket (the `*Subscribe` / `*Unsubscribe` methods and their
 * notifications, shaped as a validator's), for one cluster. A transport hands each connection's
 * text frames to `connection.handle` and sends what `send` is given; the subscriptions live here.
 *
 * Commitment: `processed` is notified when a transaction commits, `confirmed` once it is durable in
 * the ledger (what getSignatureStatuses calls confirmed), `finalized` once it is `finalizationSlots`
 * deep. Account and program notifications carry the account as it is when they are sent.
 *
 * Cost: each account, program and logs subscription is charged the bytes of the largest
 * notification it can cause per commit (pubsub-budget.ts), and a connection — and a client across
 * its connections — holds subscriptions only up to its budget; one past it is refused. A
 * subscription whose notification would outgrow its charge (an account reallocated larger, a
 * program's larger or several accounts in one commit) is re-charged before it is sent; when its
 * connection cannot afford that, the connection is ended instead, so a commit never costs a
 * connection more than its budget. Notifications of 64 KiB or more are encoded and sent from an
 * outbox a few milliseconds at a time, so requests are not held behind a commit's fan-out.
 */
import type { ClusterListener, LocalCluster } from '../local-cluster';
import { stringifyJson } from './json';
import { accountNotificationBytes, DEFAULT_PUBSUB_BUDGET, type PubSubBudget } from './pubsub-budget';
import {
  parseSubscription,
  RANK,
  SubscriptionIndex,
  UNSUBSCRIBE,
  type Client,
  type Connection,
  type PendingWrites,
  type Subscription,
} from './pubsub-subscriptions';
import { notifySlotUpdates } from './pubsub-slot-updates';
import { accountText, notificationText } from './pubsub-text';
import type { AccountEncoding } from './account-encoding';
import type { Commitment, Config } from './params';
import {
  JSON_RPC_INVALID_PARAMS,
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_PARSE_ERROR,
  RpcError,
} from './rpc-error';

/** Subscriptions one connection may hold (a validator's default is far higher, shared by all). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 10_000;
/**
 * Of those, the ones that notify on every matching commit or slot (account, program, logs, slot,
 * root): each commit fans out to all of them, so one client cannot make every transaction cost the
 * cluster thousands of notifications. Signature subscriptions end after one notification.
 */
export const MAX_STANDING_SUBSCRIPTIONS_PER_CONNECTION = 256;

export interface PubSubConnectOptions {
  /** Whose connection this is; connections of one client share its byte budget. */
  readonly clientId?: string;
  /** Ends the transport's connection (a WebSocket closes with 1008 and this reason). */
  readonly end?: (reason: string) => void;
}

export interface PubSubOptions {
  readonly budget?: Partial<PubSubBudget>;
}

/** Notifications from this size on go through the outbox (see `deliver`); smaller ones go at once. */
const DEFER_BYTES = 64 * 1024;
/** Work the outbox does in one turn of the event loop. */
const DRAIN_SLICE_MS = 2;
/** Commits' worth of a connection's budget that may wait in the outbox before it is ended. */
const QUEUED_BUDGETS = 4;

/** The close reason of a connection whose notifications outgrew its budget (WebSocket: ≤ 123 bytes). */
export const BUDGET_EXCEEDED_REASON = 'PubSub notifications past the byte budget per commit';

export interface PubSubConnection {
  /** Handles one text frame (a JSON-RPC request or batch). */
  handle(text: string): void;
  /** Drops the connection's subscriptions. */
  close(): void;
}

export function createPubSub(cluster: LocalCluster, options: PubSubOptions = {}) {
  const budget: PubSubBudget = { ...DEFAULT_PUBSUB_BUDGET, ...options.budget };
  let nextId = 0;
  const clients = new Map<string, Client>();
  const index = new SubscriptionIndex();
  const { bySignature, byAccount, byProgram, logs, slots, slotsUpdates, roots } = index;
  /** Signatures whose subscribers wait for `finalized` (checked as slots pass). */
  const awaitingFinal = new Set<string>();
  /** Commits whose account, program and logs subscribers wait for `finalized`. */
  const finalQueue: PendingWrites[] = [];

  const notify = (sub: Subscription, method: string, result: unknown) =>
    sub.connection.send(stringifyJson({ jsonrpc: '2.0', method, params: { result, subscription: sub.id } }));

  const remove = (sub: Subscription) => index.remove(sub);

  /** Why `connection` cannot take `bytes` more a commit, or undefined when it can. */
  function overBudget(connection: Connection, bytes: number): string | undefined {
    if (connection.charged + bytes > budget.maxBytesPerConnection) {
      return `on this connection: ${connection.charged} of its ${budget.maxBytesPerConnection} (max) are taken`;
    }
    const { client } = connection;
    if (client && client.charged + bytes > budget.maxBytesPerClient) {
      return `from this client: ${client.charged} of its ${budget.maxBytesPerClient} (max) are taken by its connections`;
    }
    return undefined;
  }

  /** Ends a connection: its subscriptions go at once, and the transport closes it. */
  function endConnection(connection: Connection): void {
    connection.ended = true;
    for (const sub of [...connection.subscriptions.values()]) remove(sub);
    connection.end(BUDGET_EXCEEDED_REASON);
  }

  /**
   * Whether `sub` may send notifications costing `bytes` this commit: within its charge, or
   * re-charged when its connection and client can afford the difference; otherwise its connection
   * is ended and nothing is sent.
   */
  function afford(sub: Subscription, bytes: number): boolean {
    if (bytes <= sub.charge) return true;
    const more = bytes - sub.charge;
    const { connection } = sub;
    if (overBudget(connection, more) !== undefined) {
      endConnection(connection);
      return false;
    }
    sub.charge = bytes;
    connection.charged += more;
    if (connection.client) connection.client.charged += more;
    return true;
  }

  /**
   * Notifies (and ends) the signature subscriptions whose commitment the signature has reached. A
   * status is told as getSignatureStatuses reports it: once the transaction is confirmed, at every
   * commitment (see LocalCluster.getReportedSignatureStatus).
   */
  function checkSignature(signature: string): void {
    const subs = bySignature.get(signature);
    if (!subs) return;
    const status = cluster.getReportedSignatureStatus(signature);
    if (status === null) return;
    const rank = RANK[status.confirmationStatus];
    let waitsForFinal = false;
    for (const sub of [...subs]) {
      if (sub.kind !== 'signature') continue;
      if (RANK[sub.commitment] <= rank) {
        notify(sub, 'signatureNotification', {
          context: { slot: BigInt(cluster.slot) },
          value: { err: status.err },
        });
        remove(sub); // a validator ends a signature subscription after its notification
      } else if (sub.commitment === 'finalized') waitsForFinal = true;
    }
    if (waitsForFinal) awaitingFinal.add(signature);
    else awaitingFinal.delete(signature);
  }

  /**
   * Large notifications wait here and are encoded and sent a few milliseconds of work at a time, in
   * later turns of the event loop, so that a request arriving during a commit's fan-out waits for
   * one notification, not for all of them. A connection's notifications keep their order: once one
   * of its notifications waits, the next ones wait behind it.
   */
  const outbox: (() => void)[] = [];
  let draining = false;
  function drain(): void {
    const until = performance.now() + DRAIN_SLICE_MS;
    while (outbox.length > 0 && performance.now() < until) outbox.shift()!();
    if (outbox.length > 0) setImmediate(drain);
    else draining = false;
  }

  /** Sends `sub` the notification `text()` builds, now or (when large) from the outbox. */
  function deliver(sub: Subscription, bytes: number, text: () => string): void {
    const { connection } = sub;
    if (bytes < DEFER_BYTES && connection.queued === 0) return connection.send(text());
    // A connection whose commits come faster than the worker can encode them is not kept up with.
    if (connection.queued + bytes > QUEUED_BUDGETS * budget.maxBytesPerConnection) {
      return endConnection(connection);
    }
    connection.queued += bytes;
    outbox.push(() => {
      connection.queued -= bytes;
      if (connection.subscriptions.get(sub.id) === sub) connection.send(text());
    });
    if (!draining) {
      draining = true;
      setImmediate(drain);
    }
  }

  /**
   * Account, program and logs notifications of a commit, for subscribers at `commitment`. Each
   * account is encoded once per encoding and slice, however many subscribers watch it.
   */
  function deliverWrites(writes: PendingWrites, matches: (commitment: Commitment) => boolean): void {
    const context = stringifyJson({ slot: BigInt(cluster.slot) });
    /** What each program subscription's notifications of this commit cost so far. */
    const programCost = new Map<Subscription, number>();
    for (const address of writes.writable) {
      const subs = byAccount.get(address);
      // (A large account is read only for a phase that has someone to tell.)
      const waiting = subs !== undefined && [...subs].some((sub) => matches(sub.commitment));
      if (!waiting && byProgram.size === 0) continue;
      const account = cluster.getAccount(address);
      const length = account?.data.length ?? 0;
      const encoded = new Map<string, string>();
      const textOf = (encoding: AccountEncoding, config: Config): string => {
        const key = `${encoding}:${JSON.stringify(config.dataSlice ?? null)}`;
        let text = encoded.get(key);
        if (text === undefined) encoded.set(key, (text = accountText(cluster, account, encoding, config)));
        return text;
      };
      for (const sub of subs ?? []) {
        if (sub.kind !== 'account' || !matches(sub.commitment)) continue;
        const bytes = accountNotificationBytes(length, sub.encoding, sub.slice);
        if (!afford(sub, bytes)) continue;
        deliver(sub, bytes, () =>
          notificationText(sub.id, 'accountNotification', context, textOf(sub.encoding, sub.config)),
        );
      }
      if (account === null) continue;
      for (const sub of byProgram.get(account.owner) ?? []) {
        if (
          sub.kind !== 'program' ||
          !matches(sub.commitment) ||
          !sub.filters.every((filter) => filter(account))
        )
          continue;
        const bytes = accountNotificationBytes(length, sub.encoding, sub.slice);
        const cost = (programCost.get(sub) ?? 0) + bytes;
        if (!afford(sub, cost)) continue;
        programCost.set(sub, cost);
        deliver(sub, bytes, () =>
          notificationText(
            sub.id,
            'programNotification',
            context,
            `{"pubkey":"${address}","account":${textOf(sub.encoding, sub.config)}}`,
          ),
        );
      }
    }
    for (const sub of logs) {
      if (sub.kind !== 'logs' || !matches(sub.commitment)) continue;
      if (sub.mentions !== null && !writes.accountKeys.includes(sub.mentions)) continue;
      const text = stringifyJson({
        jsonrpc: '2.0',
        method: 'logsNotification',
        params: {
          result: {
            context: { slot: BigInt(cluster.slot) },
            value: { signature: writes.record.signature, err: writes.record.err, logs: writes.record.logs },
          },
          subscription: sub.id,
        },
      });
      const bytes = Buffer.byteLength(text);
      if (afford(sub, bytes)) deliver(sub, bytes, () => text);
    }
  }

  const listener: ClusterListener = {
    committed(record, accountKeys, writable) {
      const writes: PendingWrites = { slot: record.slot, record, accountKeys, writable };
      for (const sub of bySignature.get(record.signature) ?? []) {
        if (sub.kind === 'signature' && sub.received) {
          notify(sub, 'signatureNotification', {
            context: { slot: BigInt(record.slot) },
            value: 'receivedSignature',
          });
        }
      }
      const watched = byAccount.size + byProgram.size + logs.size > 0;
      if (!watched && !bySignature.has(record.signature)) return;
      checkSignature(record.signature);
      deliverWrites(writes, (commitment) => commitment === 'processed');
      // Confirmed once the ledger holds it durably (at once for an in-memory cluster).
      // (A failed ledger write rejects the flush: nothing becomes confirmed, and nothing throws.)
      cluster.flush().then(
        () => {
          checkSignature(record.signature);
          deliverWrites(writes, (commitment) => commitment === 'confirmed');
        },
        () => undefined,
      );
      if (watched) finalQueue.push(writes);
    },
    slot(slot) {
      const root = slot - cluster.finalizationSlots;
      for (const sub of slots)
        notify(sub, 'slotNotification', {
          parent: BigInt(Math.max(0, slot - 1)),
          root: BigInt(Math.max(0, root)),
          slot: BigInt(slot),
        });
      if (root >= 0) for (const sub of roots) notify(sub, 'rootNotification', BigInt(root));
      notifySlotUpdates(cluster, slot, slotsUpdates, notify);
      for (const signature of [...awaitingFinal]) checkSignature(signature);
      while (finalQueue.length > 0 && finalQueue[0]!.slot <= root) {
        deliverWrites(finalQueue.shift()!, (commitment) => commitment === 'finalized');
      }
    },
  };
  const unlisten = cluster.listen(listener);

  function subscribe(connection: Connection, method: string, params: readonly unknown[]): number {
    if (connection.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      throw new RpcError(
        JSON_RPC_INVALID_REQUEST,
        `Too many subscriptions on this connection (max ${MAX_SUBSCRIPTIONS_PER_CONNECTION})`,
      );
    }
    if (method !== 'signatureSubscribe' && connection.standing >= MAX_STANDING_SUBSCRIPTIONS_PER_CONNECTION) {
      throw new RpcError(
        JSON_RPC_INVALID_REQUEST,
        `Too many account, program, logs, slot and root subscriptions on this connection (max ${MAX_STANDING_SUBSCRIPTIONS_PER_CONNECTION})`,
      );
    }
    const sub = parseSubscription(cluster, { id: nextId, connection, charge: 0 }, method, params);
    const over = overBudget(connection, sub.charge);
    if (over !== undefined) {
      throw new RpcError(
        JSON_RPC_INVALID_REQUEST,
        `Too many notification bytes per commit ${over}; this subscription may cost ${sub.charge} a commit (narrow it with a dataSlice or dataSize filter, or unsubscribe others)`,
      );
    }
    nextId += 1;
    index.insert(sub);
    return sub.id;
  }

  function answer(connection: Connection, request: unknown): { reply: object; after?: () => void } {
    const id = (request as { id?: unknown })?.id ?? null;
    const fail = (code: number, message: string) => ({
      reply: { jsonrpc: '2.0', error: { code, message }, id },
    });
    if (
      typeof request !== 'object' ||
      request === null ||
      (request as { jsonrpc?: unknown }).jsonrpc !== '2.0'
    ) {
      return fail(JSON_RPC_INVALID_REQUEST, 'Invalid Request');
    }
    const { method, params = [] } = request as { method?: unknown; params?: unknown };
    if (typeof method !== 'string') return fail(JSON_RPC_INVALID_REQUEST, 'Invalid Request');
    if (!Array.isArray(params)) return fail(JSON_RPC_INVALID_PARAMS, 'Invalid params');
    try {
      const kind = UNSUBSCRIBE[method];
      if (kind !== undefined) {
        const target = connection.subscriptions.get(Number(params[0]));
        if (target === undefined || target.kind !== kind) {
          return fail(JSON_RPC_INVALID_PARAMS, 'Invalid subscription id.');
        }
        remove(target);
        return { reply: { jsonrpc: '2.0', result: true, id } };
      }
      const subscription = subscribe(connection, method, params);
      const sub = connection.subscriptions.get(subscription)!;
      // A signature already at the asked commitment is notified right after the answer; one that
      // committed but is not yet durable is checked again in the turn the ledger has it, before a
      // getSignatureStatuses can report it (web3.js asks right after subscribing, and takes a
      // failure it reads there as a thrown error rather than the notification's answer).
      const after =
        sub.kind === 'signature'
          ? () => {
              checkSignature(sub.signature);
              cluster.whenReported(sub.signature).then(
                () => checkSignature(sub.signature),
                () => undefined,
              );
            }
          : undefined;
      return { reply: { jsonrpc: '2.0', result: BigInt(subscription), id }, after };
    } catch (error) {
      if (error instanceof RpcError) return fail(error.code, error.message);
      throw error;
    }
  }

  return {
    connect(send: (text: string) => void, options: PubSubConnectOptions = {}): PubSubConnection {
      let client: Client | undefined;
      if (options.clientId !== undefined) {
        client = clients.get(options.clientId);
        if (!client)
          clients.set(options.clientId, (client = { id: options.clientId, connections: 0, charged: 0 }));
        client.connections += 1;
      }
      const connection: Connection = {
        send,
        end: options.end ?? (() => undefined),
        subscriptions: new Map(),
        standing: 0,
        charged: 0,
        queued: 0,
        client,
        ended: false,
      };
      let closed = false;
      return {
        handle(text: string) {
          if (connection.ended || closed) return;
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            send(
              stringifyJson({
                jsonrpc: '2.0',
                error: { code: JSON_RPC_PARSE_ERROR, message: 'Parse error' },
                id: null,
              }),
            );
            return;
          }
          const requests = Array.isArray(body) ? body : [body];
          const answers = requests.map((request) => answer(connection, request));
          send(stringifyJson(Array.isArray(body) ? answers.map((a) => a.reply) : answers[0]!.reply));
          for (const { after } of answers) after?.();
        },
        close() {
          if (closed) return;
          closed = true;
          for (const sub of [...connection.subscriptions.values()]) remove(sub);
          if (client && --client.connections === 0) clients.delete(client.id);
        },
      };
    },
    /** Stops listening to the cluster. */
    close() {
      unlisten();
      outbox.length = 0;
    },
    /** Notifications waiting in the outbox (tests wait for none). */
    get queued(): number {
      return outbox.length;
    },
    /** Open subscriptions, all connections (tests and limits). */
    get size(): number {
      return index.size;
    },
  };
}

export type PubSub = ReturnType<typeof createPubSub>;
