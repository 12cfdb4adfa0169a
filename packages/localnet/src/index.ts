/**
 * @solterm/localnet — a local Solana cluster on LiteSVM served as standard Solana JSON-RPC.
 *
 * @example
 * const cluster = await createLocalCluster({ dataDir: 'data/localnet' });
 * const rpc = createJsonRpcHandler(cluster);
 * const server = await startLocalnetServer({ handler: rpc, port: 8899 });
 * // createSolanaRpc(server.url) …
 * await server.close();
 * await cluster.close();
 */
export {
  AirdropError,
  createLocalCluster,
  DEFAULT_FINALIZATION_DEPTH,
  DEFAULT_SLOT_DURATION_MS,
  LocalCluster,
  MARKET_MAKER_KEYPAIR_FILE,
  SLOTS_PER_EPOCH,
  TREASURY_KEYPAIR_FILE,
  type AccountView,
  type LocalClusterOptions,
  type SendOptions,
  type SendOutcome,
  type SignatureStatus,
  type SimulateOptions,
  type SimulationResult,
} from './local-cluster';
export { loadAccountDir, parseAccountFixture, type AccountFixture } from './account-fixtures';
export { MAX_PROCESSING_AGE } from './blockhash-queue';
export {
  DEFAULT_MARKET_MAKER_INVENTORY,
  DEFAULT_TREASURY_LAMPORTS,
  findAssociatedTokenAddress,
  type GenesisMint,
  type GenesisToken,
  type MarketMakerInventory,
} from './genesis';
export { readKeyPairFile, type StoredKeyPair } from './keypair-store';
export type { TransactionRecord } from './ledger';
export { describeTransactionError, type TransactionErrorJson } from './transaction-error';
export {
  createJsonRpcHandler,
  RPC_METHODS,
  type JsonRpcHandler,
  type JsonRpcHandlerOptions,
  type JsonRpcResponse,
} from './rpc/json-rpc-handler';
export {
  DEFAULT_PUBLIC_RPC_LIMITS,
  INTERNAL_CALLER,
  type AirdropLimits,
  type PublicRpcLimitOverrides,
  type PublicRpcLimits,
  type RpcCaller,
} from './rpc/public-limits';
export { JsonFloat, stringifyJson } from './rpc/json';
export {
  BUDGET_EXCEEDED_REASON,
  createPubSub,
  MAX_SUBSCRIPTIONS_PER_CONNECTION,
  MAX_STANDING_SUBSCRIPTIONS_PER_CONNECTION,
  type PubSub,
  type PubSubConnection,
  type PubSubConnectOptions,
  type PubSubOptions,
} from './rpc/pubsub';
export { DEFAULT_PUBSUB_BUDGET, accountNotificationBytes, type PubSubBudget } from './rpc/pubsub-budget';
export {
  attachPubSub,
  createPubSubSockets,
  servePubSubSocket,
  type PubSubEndpoint,
  type PubSubSockets,
} from './pubsub-transport';
export {
  startLocalnetServer,
  type JsonRpcTextHandler,
  type LocalnetServer,
  type LocalnetServerOptions,
} from './http-server';
export { readLocalnetConfig, type LocalnetConfig } from './config';
export {
  startClusterWorker,
  type ClusterHost,
  type ClusterHostOptions,
  type ClusterSnapshot,
  type SnapshotRequest,
} from './worker/cluster-host';
