/**
 * The main thread's handle on an embedded cluster running in a worker thread (cluster-worker.ts):
 * JSON-RPC text in and out, the treasury's and market maker's signers, and async tooling methods
 * for tests. The API's event loop only passes messages; LiteSVM, the slot clock and the ledger run
 * on the worker's own thread, so a heavy RPC call never stalls HTTP or WebSocket traffic.
 */
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { createKeyPairSignerFromBytes, type KeyPairSigner } from '@solana/kit';
import type { TransactionRecord } from '../ledger';
import type { AccountView, LocalClusterOptions } from '../local-cluster';
import type { WebSocket } from 'ws';
import { servePubSubSocket, type PubSubEndpoint } from '../pubsub-transport';
import type { PublicRpcLimitOverrides, RpcCaller } from '../rpc/public-limits';
import type { PubSubBudget } from '../rpc/pubsub-budget';
import type {
  ClusterWorkerData,
  OperationName,
  OperationRequest,
  SnapshotRequest,
  WorkerMessage,
} from './protocol';

export type { SnapshotRequest } from './protocol';

/** Reads taken together in one turn of the worker (see {@link ClusterHost.snapshot}). */
export interface ClusterSnapshot {
  readonly slot: number;
  readonly transactionCount: number;
  /** Accounts of each requested program, in request order. */
  readonly programAccounts: AccountView[][];
  /** getSignaturesForAddress of each requested address, in request order. */
  readonly signatures: TransactionRecord[][];
}

export interface ClusterHostOptions {
  /** The cluster's options (functions such as `now` cannot cross to the worker). */
  readonly cluster?: Omit<LocalClusterOptions, 'now' | 'log'>;
  /** Limits of public JSON-RPC callers. */
  readonly limits?: PublicRpcLimitOverrides;
  /** Notification bytes per commit a PubSub connection and a client may cost (pubsub-budget.ts). */
  readonly pubsubBudget?: Partial<PubSubBudget>;
  /** Where the cluster's operational messages go; a crash of the worker is logged at 'error'. */
  readonly log?: (message: string, level?: 'info' | 'error') => void;
}

/** An embedded cluster in a worker thread. Every method answers once the worker has. */
export interface ClusterHost {
  /** The treasury: funded SOL, mint authority of every genesis mint, the faucet's source. */
  readonly treasury: KeyPairSigner;
  /** The market maker: SOL and an associated token account of every genesis token. */
  readonly marketMaker: KeyPairSigner;
  readonly slotDurationMs: number;
  /** Answers a raw JSON-RPC body; `caller` defaults to internal (the server itself). */
  handleJsonRpcText(body: string, caller?: RpcCaller): Promise<string>;
  /**
   * The same answer as UTF-8 bytes, moved from the worker without a copy: for a transport that
   * writes it out as it is (large answers never become strings on this thread's heap).
   */
  handleJsonRpcBytes(body: string, caller?: RpcCaller): Promise<Uint8Array>;
  advanceSlots(count?: number): Promise<void>;
  startSlotClock(): Promise<void>;
  stopSlotClock(): Promise<void>;
  slot(): Promise<number>;
  /** Transactions in the signature log. */
  transactionCount(): Promise<number>;
  getBalance(address: string): Promise<bigint>;
  getAccount(address: string): Promise<AccountView | null>;
  getProgramAccounts(programId: string): Promise<AccountView[]>;
  getSignaturesForAddress(
    address: string,
    options?: { limit?: number; before?: string; until?: string },
  ): Promise<TransactionRecord[]>;
  minimumBalanceForRentExemption(dataLength: number): Promise<bigint>;
  /** Several reads at one instant of the chain: no transaction lands between them. */
  snapshot(request: SnapshotRequest): Promise<ClusterSnapshot>;
  /** Resolves once everything committed so far is on disk. */
  flush(): Promise<void>;
  /** Solana PubSub served by the worker: open a connection per WebSocket client. */
  readonly pubsub: PubSubEndpoint;
  /**
   * Serves an open WebSocket as a PubSub connection on {@link pubsub} (heartbeats included); the
   * connections of one `clientId` (its IP) share a notification budget.
   */
  servePubSubSocket(socket: WebSocket, clientId?: string): void;
  /** Stops the clock, flushes the ledger and ends the worker thread. */
  close(): Promise<void>;
}

const WORKER_ENTRY = new URL('./cluster-worker-entry.mjs', import.meta.url);

/**
 * Ends a use-after-free that crashed the whole process (SIGSEGV, no message) when a cluster worker
 * ended: LiteSVM hands account data to JavaScript as Node-API external buffers, and Node frees the
 * bookkeeping of such a buffer (node_buffer.cc's CallbackInfo) from whichever thread frees its memory.
 * V8 frees dead ArrayBuffers' memory on a background thread while the worker's environment is being
 * torn down, and that environment's cleanup also reads the same bookkeeping (core dump of a test
 * worker: `CallbackInfo::Clean()` <- `Environment::RunCleanup()` <- `FreeEnvironment()` <-
 * `Worker::Run()`, on memory glibc had already freed). Swept in V8's GC pause instead, each
 * worker's ArrayBuffers are freed on that worker's own thread. Process-wide; set before a worker
 * starts.
 */
function freeArrayBuffersOnTheirOwnThread(): void {
  setFlagsFromString('--no-concurrent-array-buffer-sweeping');
}

/**
 * Starts a local cluster in a worker thread and resolves once its genesis (or ledger replay) is done.
 *
 * @example
 * const cluster = await startClusterWorker({ cluster: { dataDir: 'data/localnet' } });
 * const text = await cluster.handleJsonRpcText('{"jsonrpc":"2.0","id":1,"method":"getSlot"}');
 * await cluster.close();
 */
export async function startClusterWorker(options: ClusterHostOptions = {}): Promise<ClusterHost> {
  const workerData: ClusterWorkerData = {
    cluster: options.cluster ?? {},
    limits: options.limits,
    pubsubBudget: options.pubsubBudget,
  };
  freeArrayBuffersOnTheirOwnThread();
  const worker = new Worker(WORKER_ENTRY, { workerData, stdout: false, stderr: false });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  /** Open PubSub connections: where each one's frames go, and how the worker ends one. */
  const pubsubSenders = new Map<number, { send: (text: string) => void; end: (reason: string) => void }>();
  let nextConnection = 1;
  let failure: Error | undefined;
  let closing: Promise<void> | undefined;

  const failAll = (error: Error): void => {
    failure ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const ready = new Promise<Extract<WorkerMessage, { type: 'ready' }>>((resolve, reject) => {
    const receive = (message: WorkerMessage): void => {
      switch (message.type) {
        case 'ready':
          resolve(message);
          return;
        case 'failed':
          reject(new Error(`the cluster worker failed to start: ${message.message}`));
          return;
        case 'log':
          options.log?.(message.line);
          return;
        case 'pubsub':
          pubsubSenders.get(message.connection)?.send(message.text);
          return;
        case 'pubsubEnd':
          pubsubSenders.get(message.connection)?.end(message.reason);
          return;
        case 'result':
        case 'error': {
          const waiting = pending.get(message.id);
          if (waiting === undefined) return;
          pending.delete(message.id);
          if (message.type === 'result') waiting.resolve(message.value);
          else waiting.reject(Object.assign(new Error(message.message), { name: message.name }));
          return;
        }
      }
    };
    // The worker posts what it has to say in one turn as one message (a batch).
    worker.on('message', (message: WorkerMessage | readonly WorkerMessage[]) => {
      if (Array.isArray(message)) for (const each of message as readonly WorkerMessage[]) receive(each);
      else receive(message as WorkerMessage);
    });
    worker.on('error', (error) => {
      options.log?.(`localnet: the cluster worker crashed: ${error.stack ?? error.message}`, 'error');
      failAll(error);
      reject(error);
    });
    worker.on('exit', (code) => {
      const error = new Error(`the cluster worker exited (code ${code})`);
      if (closing === undefined) options.log?.(`localnet: ${error.message} unexpectedly`, 'error');
      failAll(error);
      reject(error);
    });
  });

  let started: Extract<WorkerMessage, { type: 'ready' }>;
  try {
    started = await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  const [treasury, marketMaker] = await Promise.all([
    createKeyPairSignerFromBytes(started.treasurySecretKey),
    createKeyPairSignerFromBytes(started.marketMakerSecretKey),
  ]);

  /**
   * Requests made in one turn of this thread (a swap's reads started together, a watch and its send)
   * go to the worker as one message, in order, once the turn's microtasks have run: each message
   * wakes the other thread and costs both a structured clone, so fewer and larger is cheaper.
   */
  let queued: OperationRequest[] | undefined;
  const postQueued = (): void => {
    const batch = queued!;
    queued = undefined;
    if (failure === undefined) worker.postMessage(batch.length === 1 ? batch[0] : batch);
  };

  function request<T>(op: OperationName, ...args: unknown[]): Promise<T> {
    if (failure !== undefined) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (queued === undefined) {
        queued = [];
        process.nextTick(postQueued);
      }
      queued.push({ id, op, args });
    });
  }

  const pubsub: PubSubEndpoint = {
    connect(send, connectOptions = {}) {
      const connection = nextConnection++;
      pubsubSenders.set(connection, { send, end: connectOptions.end ?? (() => undefined) });
      // Messages to the worker keep their order: the open precedes the connection's frames.
      const ignore = () => undefined;
      request('pubsubOpen', connection, connectOptions.clientId).catch(ignore);
      return {
        handle: (text) => void request('pubsubMessage', connection, text).catch(ignore),
        close() {
          pubsubSenders.delete(connection);
          request('pubsubClose', connection).catch(ignore);
        },
      };
    },
  };

  return {
    treasury,
    marketMaker,
    slotDurationMs: started.slotDurationMs,
    handleJsonRpcText: (body, caller) => request<string>('rpc', body, caller),
    handleJsonRpcBytes: (body, caller) => request<Uint8Array>('rpcBytes', body, caller),
    advanceSlots: (count) => request('advanceSlots', count),
    startSlotClock: () => request('startSlotClock'),
    stopSlotClock: () => request('stopSlotClock'),
    slot: () => request('slot'),
    transactionCount: () => request('transactionCount'),
    getBalance: (address) => request('getBalance', address),
    getAccount: (address) => request('getAccount', address),
    getProgramAccounts: (programId) => request('getProgramAccounts', programId),
    getSignaturesForAddress: (address, filter) => request('getSignaturesForAddress', address, filter),
    minimumBalanceForRentExemption: (dataLength) => request('minimumBalanceForRentExemption', dataLength),
    snapshot: (reads) => request('snapshot', reads),
    flush: () => request('flush'),
    pubsub,
    servePubSubSocket: (socket, clientId) => servePubSubSocket(socket, pubsub, clientId),
    close() {
      closing ??= (async () => {
        try {
          if (failure === undefined) await request('close');
        } finally {
          await worker.terminate();
        }
      })();
      return closing;
    },
  };
}
