/**
 * Messages between the main thread's {@link ClusterHost} and the worker thread that owns the
 * LocalCluster. Everything here survives structured cloning (bigint and Uint8Array included). Either
 * side may post an array of its messages instead of one: those of one turn of its thread, in order.
 */
import type { LocalClusterOptions } from '../local-cluster';
import type { PublicRpcLimitOverrides, RpcCaller } from '../rpc/public-limits';
import type { PubSubBudget } from '../rpc/pubsub-budget';

/** What the worker is started with: cluster and JSON-RPC options without functions. */
export interface ClusterWorkerData {
  readonly cluster: Omit<LocalClusterOptions, 'now' | 'log'>;
  readonly limits?: PublicRpcLimitOverrides;
  readonly pubsubBudget?: Partial<PubSubBudget>;
}

/** Several reads the worker answers in one turn, so no transaction lands between them. */
export interface SnapshotRequest {
  readonly programAccounts?: readonly string[];
  readonly signaturesFor?: readonly {
    readonly address: string;
    readonly options?: { readonly limit?: number; readonly before?: string; readonly until?: string };
  }[];
}

/** The tooling operations the host forwards (see ClusterHost for their meaning). */
export interface ClusterOperations {
  rpc(body: string, caller?: RpcCaller): string;
  rpcBytes(body: string, caller?: RpcCaller): Uint8Array;
  advanceSlots(count?: number): void;
  startSlotClock(): void;
  stopSlotClock(): void;
  slot(): number;
  transactionCount(): number;
  getBalance(address: string): bigint;
  getAccount(address: string): unknown;
  getProgramAccounts(programId: string): unknown;
  getSignaturesForAddress(
    address: string,
    options?: { limit?: number; before?: string; until?: string },
  ): unknown;
  minimumBalanceForRentExemption(dataLength: number): bigint;
  snapshot(request: SnapshotRequest): unknown;
  /**
   * Opens a PubSub connection of a client (sharing its byte budget); its frames out come back as
   * 'pubsub' messages, and 'pubsubEnd' when the PubSub ends it.
   */
  pubsubOpen(connection: number, clientId?: string): void;
  pubsubMessage(connection: number, text: string): void;
  pubsubClose(connection: number): void;
  flush(): void;
  close(): void;
}

export type OperationName = keyof ClusterOperations;

export interface OperationRequest {
  readonly id: number;
  readonly op: OperationName;
  readonly args: readonly unknown[];
}

export type WorkerMessage =
  | {
      readonly type: 'ready';
      /** solana-keygen layout (seed then public key): the venue and the faucet sign with these. */
      readonly treasurySecretKey: Uint8Array;
      readonly marketMakerSecretKey: Uint8Array;
      readonly slotDurationMs: number;
    }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'log'; readonly line: string }
  | { readonly type: 'pubsub'; readonly connection: number; readonly text: string }
  | { readonly type: 'pubsubEnd'; readonly connection: number; readonly reason: string }
  | { readonly type: 'result'; readonly id: number; readonly value: unknown }
  | { readonly type: 'error'; readonly id: number; readonly name: string; readonly message: string };
