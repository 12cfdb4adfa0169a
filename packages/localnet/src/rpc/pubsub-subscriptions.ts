/**
 * The subscription kinds of the PubSub server (see pubsub.ts): what each `*Subscribe` request
 * becomes, the connections and clients that hold subscriptions, and the indexes a commit or a
 * slot looks its subscribers up in.
 */
import type { LocalCluster } from '../local-cluster';
import type { TransactionRecord } from '../ledger';
import { readAccountEncoding, readDataSlice, type AccountEncoding, type DataSlice } from './account-encoding';
import { readProgramAccountFilters, type AccountFilter } from './account-methods';
import { accountNotificationBytes, LOGS_NOTIFICATION_BYTES } from './pubsub-budget';
import {
  readAddress,
  readCommitment,
  readConfig,
  readOptionalBoolean,
  readSignature,
  requireParam,
  type Commitment,
  type Config,
} from './params';
import { invalidParams, JSON_RPC_METHOD_NOT_FOUND, RpcError } from './rpc-error';

export const RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

export interface Base {
  readonly id: number;
  readonly connection: Connection;
  readonly commitment: Commitment;
  /** Bytes of notifications one commit may cost it (0 for those not notified per commit). */
  charge: number;
}
export type Subscription =
  | (Base & { kind: 'signature'; signature: string; received: boolean })
  | (Base & {
      kind: 'account';
      address: string;
      encoding: AccountEncoding;
      config: Config;
      slice: DataSlice | undefined;
    })
  | (Base & {
      kind: 'program';
      programId: string;
      encoding: AccountEncoding;
      config: Config;
      slice: DataSlice | undefined;
      filters: AccountFilter[];
    })
  | (Base & { kind: 'logs'; mentions: string | null })
  | (Base & { kind: 'slot' })
  | (Base & { kind: 'slotsUpdates' })
  | (Base & { kind: 'root' });
export type Kind = Subscription['kind'];

export interface Connection {
  readonly send: (text: string) => void;
  readonly end: (reason: string) => void;
  readonly subscriptions: Map<number, Subscription>;
  /** Its subscriptions other than signature ones (kept with the map). */
  standing: number;
  /** The charges of its subscriptions, added up (kept with the map). */
  charged: number;
  /** Bytes of its notifications waiting in the outbox. */
  queued: number;
  readonly client: Client | undefined;
  /** Ended by the cluster (over its budget): its subscriptions are gone and its frames ignored. */
  ended: boolean;
}

/** The connections of one client (the transport names it, e.g. by IP), which share a budget. */
export interface Client {
  readonly id: string;
  connections: number;
  charged: number;
}

/** Accounts a commit changed, waiting for the commitment their subscribers asked for. */
export interface PendingWrites {
  readonly slot: number;
  readonly record: TransactionRecord;
  readonly accountKeys: readonly string[];
  readonly writable: readonly string[];
}

/** The subscription a `*Subscribe` request asks for (not yet charged against any budget). */
export function parseSubscription(
  cluster: LocalCluster,
  base: { id: number; connection: Connection; charge: number },
  method: string,
  params: readonly unknown[],
): Subscription {
  switch (method) {
    case 'signatureSubscribe': {
      const signature = readSignature(requireParam(params, 0, 'signature'));
      const config = readConfig(params, 1);
      return {
        ...base,
        kind: 'signature',
        signature,
        commitment: readCommitment(config),
        received: readOptionalBoolean(config, 'enableReceivedNotification') ?? false,
      };
    }
    case 'accountSubscribe': {
      const address = readAddress(requireParam(params, 0, 'pubkey'));
      const config = readConfig(params, 1);
      const encoding = readAccountEncoding(config);
      const slice = readDataSlice(config);
      // The account as it is now; one that grows later is re-charged when notified.
      const length = cluster.getAccount(address)?.data.length ?? 0;
      return {
        ...base,
        kind: 'account',
        address,
        commitment: readCommitment(config),
        encoding,
        config,
        slice,
        charge: accountNotificationBytes(length, encoding, slice),
      };
    }
    case 'programSubscribe': {
      const programId = readAddress(requireParam(params, 0, 'pubkey'));
      const config = readConfig(params, 1);
      const encoding = readAccountEncoding(config);
      const slice = readDataSlice(config);
      const filters = readProgramAccountFilters(config);
      // One account of the filtered size (of any size: charged as empty, re-charged when notified).
      const size = filters.find((filter) => filter.dataSize !== undefined)?.dataSize ?? 0;
      return {
        ...base,
        kind: 'program',
        programId,
        commitment: readCommitment(config),
        encoding,
        config,
        slice,
        filters,
        charge: accountNotificationBytes(size, encoding, slice),
      };
    }
    case 'logsSubscribe': {
      const filter = requireParam(params, 0, 'filter');
      let mentions: string | null = null;
      if (filter !== 'all' && filter !== 'allWithVotes') {
        const list = (filter as { mentions?: unknown }).mentions;
        if (!Array.isArray(list) || list.length !== 1) {
          throw invalidParams('Invalid Request: Only 1 address supported');
        }
        mentions = readAddress(list[0]);
      }
      return {
        ...base,
        kind: 'logs',
        mentions,
        commitment: readCommitment(readConfig(params, 1)),
        charge: LOGS_NOTIFICATION_BYTES,
      };
    }
    case 'slotSubscribe':
      return { ...base, kind: 'slot', commitment: 'processed' };
    case 'slotsUpdatesSubscribe':
      return { ...base, kind: 'slotsUpdates', commitment: 'processed' };
    case 'rootSubscribe':
      return { ...base, kind: 'root', commitment: 'finalized' };
    default:
      throw new RpcError(JSON_RPC_METHOD_NOT_FOUND, 'Method not found');
  }
}

/** The kind of subscription each `*Unsubscribe` method ends. */
export const UNSUBSCRIBE: Record<string, Kind> = {
  signatureUnsubscribe: 'signature',
  accountUnsubscribe: 'account',
  programUnsubscribe: 'program',
  logsUnsubscribe: 'logs',
  slotUnsubscribe: 'slot',
  slotsUpdatesUnsubscribe: 'slotsUpdates',
  rootUnsubscribe: 'root',
};

/** Every open subscription, indexed by what wakes it. */
export class SubscriptionIndex {
  readonly bySignature = new Map<string, Set<Subscription>>();
  readonly byAccount = new Map<string, Set<Subscription>>();
  readonly byProgram = new Map<string, Set<Subscription>>();
  readonly logs = new Set<Subscription>();
  readonly slots = new Set<Subscription>();
  readonly slotsUpdates = new Set<Subscription>();
  readonly roots = new Set<Subscription>();

  /** Adds `sub` to the indexes and to its connection, charging its connection and client. */
  insert(sub: Subscription): void {
    const add = (index: Map<string, Set<Subscription>>, key: string) => {
      let set = index.get(key);
      if (!set) index.set(key, (set = new Set()));
      set.add(sub);
    };
    if (sub.kind === 'signature') add(this.bySignature, sub.signature);
    else if (sub.kind === 'account') add(this.byAccount, sub.address);
    else if (sub.kind === 'program') add(this.byProgram, sub.programId);
    else if (sub.kind === 'logs') this.logs.add(sub);
    else if (sub.kind === 'slot') this.slots.add(sub);
    else if (sub.kind === 'slotsUpdates') this.slotsUpdates.add(sub);
    else this.roots.add(sub);
    const { connection } = sub;
    connection.subscriptions.set(sub.id, sub);
    if (sub.kind !== 'signature') connection.standing += 1;
    connection.charged += sub.charge;
    if (connection.client) connection.client.charged += sub.charge;
  }

  /** Removes `sub` (once), giving its charge back. */
  remove(sub: Subscription): void {
    if (!sub.connection.subscriptions.delete(sub.id)) return;
    if (sub.kind !== 'signature') sub.connection.standing -= 1;
    sub.connection.charged -= sub.charge;
    if (sub.connection.client) sub.connection.client.charged -= sub.charge;
    const from = (index: Map<string, Set<Subscription>>, key: string) => {
      const set = index.get(key);
      set?.delete(sub);
      if (set?.size === 0) index.delete(key);
    };
    if (sub.kind === 'signature') from(this.bySignature, sub.signature);
    else if (sub.kind === 'account') from(this.byAccount, sub.address);
    else if (sub.kind === 'program') from(this.byProgram, sub.programId);
    else if (sub.kind === 'logs') this.logs.delete(sub);
    else if (sub.kind === 'slot') this.slots.delete(sub);
    else if (sub.kind === 'slotsUpdates') this.slotsUpdates.delete(sub);
    else this.roots.delete(sub);
  }

  /** Open subscriptions, all connections (tests and limits). */
  get size(): number {
    const { bySignature, byAccount, byProgram, logs, slots, slotsUpdates, roots } = this;
    return (
      bySignature.size +
      byAccount.size +
      byProgram.size +
      logs.size +
      slots.size +
      slotsUpdates.size +
      roots.size
    );
  }
}
