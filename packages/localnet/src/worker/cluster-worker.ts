/**
 * The worker thread that owns the embedded cluster: LiteSVM, the slot clock, the ledger and the
 * JSON-RPC handler all run here, so no chain work (a large scan, a batch, a transaction) runs on
 * the event loop that serves HTTP and WebSocket traffic. The main thread talks to it through
 * {@link ClusterHost} (cluster-host.ts).
 */
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { createLocalCluster, exportSignerSecretKeys, type LocalCluster } from '../local-cluster';
import { createJsonRpcHandler, type JsonRpcHandler } from '../rpc/json-rpc-handler';
import { createPubSub, type PubSubConnection } from '../rpc/pubsub';
import type { PubSubBudget } from '../rpc/pubsub-budget';
import type { RpcCaller } from '../rpc/public-limits';
import { writeValidatorLedgerFiles } from '../validator-ledger-files';
import type {
  ClusterOperations,
  ClusterWorkerData,
  OperationRequest,
  SnapshotRequest,
  WorkerMessage,
} from './protocol';

const AIRDROP_STATE_FILE = 'airdrop-grants.json';
const encoder = new TextEncoder();

/** A result whose bytes move to the main thread instead of being copied. */
class MovedBytes {
  constructor(readonly bytes: Uint8Array) {}
}
const port = parentPort;
if (port === null) throw new Error('cluster-worker runs in a worker thread');
/**
 * What the worker says in one turn (answers, notifications, logs) goes out as one message, in order,
 * once the turn's microtasks have run (cluster-host.ts batches its requests the same way).
 */
let outbox: WorkerMessage[] = [];
let outboxMoves: ArrayBuffer[] = [];
function postOutbox(): void {
  const [messages, moves] = [outbox, outboxMoves];
  [outbox, outboxMoves] = [[], []];
  port!.postMessage(messages.length === 1 ? messages[0] : messages, moves);
}
function post(message: WorkerMessage, moves: readonly ArrayBuffer[] = []): void {
  if (outbox.length === 0) process.nextTick(postOutbox);
  outbox.push(message);
  outboxMoves.push(...moves);
}
const log = (line: string): void => post({ type: 'log', line });

function operationsOf(cluster: LocalCluster, handler: JsonRpcHandler, pubsubBudget?: Partial<PubSubBudget>) {
  const pubsub = createPubSub(cluster, { budget: pubsubBudget });
  const connections = new Map<number, PubSubConnection>();
  return {
    pubsubOpen: (connection: number, clientId?: string) => {
      connections.set(
        connection,
        pubsub.connect((text) => post({ type: 'pubsub', connection, text }), {
          clientId,
          end: (reason) => post({ type: 'pubsubEnd', connection, reason }),
        }),
      );
    },
    pubsubMessage: (connection: number, text: string) => connections.get(connection)?.handle(text),
    pubsubClose: (connection: number) => {
      connections.get(connection)?.close();
      connections.delete(connection);
    },
    rpc: (body: string, caller?: RpcCaller) => handler.handleJsonRpcText(body, caller),
    // UTF-8 here, handed over without a copy: the main thread sends the bytes as they are and never
    // holds a multi-megabyte answer as a string on its heap.
    rpcBytes: async (body: string, caller?: RpcCaller) =>
      new MovedBytes(encoder.encode(await handler.handleJsonRpcText(body, caller))),
    advanceSlots: (count?: number) => cluster.advanceSlots(count),
    startSlotClock: () => cluster.startSlotClock(),
    stopSlotClock: () => cluster.stopSlotClock(),
    slot: () => cluster.slot,
    transactionCount: () => cluster.transactionCount,
    getBalance: (address: string) => cluster.getBalance(address),
    getAccount: (address: string) => cluster.getAccount(address),
    getProgramAccounts: (programId: string) => cluster.getProgramAccounts(programId),
    getSignaturesForAddress: (
      address: string,
      options?: { limit?: number; before?: string; until?: string },
    ) => cluster.getSignaturesForAddress(address, options),
    minimumBalanceForRentExemption: (dataLength: number) =>
      cluster.minimumBalanceForRentExemption(dataLength),
    snapshot: (request: SnapshotRequest) => ({
      slot: cluster.slot,
      transactionCount: cluster.transactionCount,
      programAccounts: (request.programAccounts ?? []).map((programId) =>
        cluster.getProgramAccounts(programId),
      ),
      signatures: (request.signaturesFor ?? []).map(({ address, options }) =>
        cluster.getSignaturesForAddress(address, options),
      ),
    }),
    flush: () => cluster.flush(),
    close: () => cluster.close(),
  } satisfies { [Name in keyof ClusterOperations]: (...args: never[]) => unknown };
}

async function main(): Promise<void> {
  const data = workerData as ClusterWorkerData;
  const cluster = await createLocalCluster({ ...data.cluster, log });
  const secretKeys = exportSignerSecretKeys(cluster);
  const { dataDir } = data.cluster;
  // As `npm run localnet` does: a project's live tests can read the node's files from the app's too.
  if (dataDir !== undefined) await writeValidatorLedgerFiles(dataDir, cluster);
  const handler = createJsonRpcHandler(cluster, {
    log,
    limits: data.limits,
    // Public airdrop allowances live beside the ledger, so a restart does not reset them.
    airdropStatePath: dataDir === undefined ? undefined : join(dataDir, AIRDROP_STATE_FILE),
  });
  const operations = operationsOf(cluster, handler, data.pubsubBudget) as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  port!.on('message', (message: OperationRequest | readonly OperationRequest[]) => {
    if (Array.isArray(message)) for (const request of message as readonly OperationRequest[]) run(request);
    else run(message as OperationRequest);
  });
  function run(request: OperationRequest): void {
    let value: unknown;
    try {
      value = operations[request.op]!(...request.args);
    } catch (error) {
      answerError(request.id, error);
      return;
    }
    if (value instanceof Promise) {
      value.then(
        (resolved: unknown) => answer(request.id, resolved),
        (error: unknown) => answerError(request.id, error),
      );
    } else {
      answer(request.id, value);
    }
  }
  post({
    type: 'ready',
    treasurySecretKey: secretKeys.treasury,
    marketMakerSecretKey: secretKeys.marketMaker,
    slotDurationMs: cluster.slotDurationMs,
  });
}

function answer(id: number, value: unknown): void {
  if (value instanceof MovedBytes) {
    // TextEncoder's output owns its ArrayBuffer (never a shared pool), so it can be transferred.
    post({ type: 'result', id, value: value.bytes }, [value.bytes.buffer as ArrayBuffer]);
  } else {
    post({ type: 'result', id, value });
  }
}

function answerError(id: number, error: unknown): void {
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  post({ type: 'error', id, name, message });
}

main().catch((error: unknown) => {
  post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
});
