/**
 * Cluster-level methods: health, version, clock, blockhashes, fees, rent and the faucet.
 */
import { AirdropError, SLOTS_PER_EPOCH, type LocalCluster } from '../local-cluster';
import { parseWireMessage, WireFormatError } from '../wire-transaction';
import {
  checkContext,
  readAddress,
  readConfig,
  readInteger,
  readString,
  readU64,
  requireParam,
} from './params';
import {
  agaveInvalidParams,
  invalidParams,
  JSON_RPC_INTERNAL_ERROR,
  RpcError,
  RPC_NODE_UNHEALTHY,
} from './rpc-error';
import { decodeWirePayload, MESSAGE_TYPE } from './wire-decode';
import { formatSol } from './public-limits';
import { SOLANA_CORE_VERSION, withContext, type RpcMethod } from './rpc-method';

function assertHealthy(cluster: LocalCluster): void {
  if (!cluster.isHealthy()) throw new RpcError(RPC_NODE_UNHEALTHY, 'Node is unhealthy', {});
}

const getHealth: RpcMethod = (_params, cluster) => {
  assertHealthy(cluster);
  return 'ok';
};

const getVersion: RpcMethod = () => ({ 'solana-core': SOLANA_CORE_VERSION, 'feature-set': 0 });

// Block height equals the slot on this cluster, at every commitment.
const getSlot: RpcMethod = (params, cluster) => cluster.slotAt(checkContext(readConfig(params, 0), cluster));

const getBlockHeight: RpcMethod = (params, cluster) =>
  cluster.slotAt(checkContext(readConfig(params, 0), cluster));

const getEpochInfo: RpcMethod = (params, cluster) => {
  const slot = cluster.slotAt(checkContext(readConfig(params, 0), cluster));
  return {
    absoluteSlot: slot,
    blockHeight: slot,
    epoch: Math.floor(slot / SLOTS_PER_EPOCH),
    slotIndex: slot % SLOTS_PER_EPOCH,
    slotsInEpoch: SLOTS_PER_EPOCH,
    transactionCount: cluster.transactionCount,
  };
};

const getEpochSchedule: RpcMethod = () => ({
  firstNormalEpoch: 0,
  firstNormalSlot: 0,
  leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
  slotsPerEpoch: SLOTS_PER_EPOCH,
  warmup: false,
});

const getLatestBlockhash: RpcMethod = (params, cluster) => {
  const commitment = checkContext(readConfig(params, 0), cluster);
  return withContext(cluster, cluster.getLatestBlockhash(commitment), cluster.slotAt(commitment));
};

const isBlockhashValid: RpcMethod = (params, cluster) => {
  const blockhash = readString(requireParam(params, 0, 'blockhash'), 'blockhash');
  checkContext(readConfig(params, 1), cluster);
  return withContext(cluster, cluster.isBlockhashValid(blockhash));
};

const getFeeForMessage: RpcMethod = (params, cluster) => {
  const encoded = readString(requireParam(params, 0, 'message'), 'message');
  checkContext(readConfig(params, 1), cluster);
  const bytes = decodeWirePayload(encoded, 'base64', MESSAGE_TYPE);
  let message;
  try {
    message = parseWireMessage(bytes);
  } catch (error) {
    if (!(error instanceof WireFormatError)) throw error;
    throw agaveInvalidParams(
      error.kind === 'sanitize'
        ? `invalid transaction message: ${error.message}`
        : `failed to deserialize ${MESSAGE_TYPE}: ${error.message}`,
    );
  }
  return withContext(cluster, cluster.getFeeForMessage(message));
};

const getMinimumBalanceForRentExemption: RpcMethod = (params, cluster) => {
  const size = readInteger(requireParam(params, 0, 'data length'), 'data length');
  checkContext(readConfig(params, 1), cluster);
  return cluster.minimumBalanceForRentExemption(size);
};

const getTransactionCount: RpcMethod = (params, cluster) => {
  checkContext(readConfig(params, 0), cluster);
  return cluster.transactionCount;
};

const getGenesisHash: RpcMethod = (_params, cluster) => cluster.genesisHash;

const getIdentity: RpcMethod = (_params, cluster) => ({ identity: cluster.treasury.address });

const getMaxRetransmitSlot: RpcMethod = (_params, cluster) => cluster.slot;

/** The newest slot with shreds in the blockstore: the slot being produced, here. */
const getMaxShredInsertSlot: RpcMethod = (_params, cluster) => cluster.slot;

/** The fee of the airdrop transfer (one signature), which the treasury pays too. */
const AIRDROP_FEE_LAMPORTS = 5000n;

/**
 * Lamports (fees included) of each cluster's airdrops that passed the reserve check and have not
 * landed or failed yet: the transfer is signed after an await, so the treasury's balance alone would
 * let concurrent airdrops all pass the check and together take it below its reserve.
 */
const airdropsInFlight = new WeakMap<object, bigint>();

/**
 * The faucet: public callers within their per-request, per-address and per-client allowances; no
 * caller below the treasury's reserve. Refusals are the -32603 a validator answers when its
 * faucet refuses, with the faucet's wording.
 */
const requestAirdrop: RpcMethod = async (params, cluster, call) => {
  const recipient = readAddress(requireParam(params, 0, 'pubkey'));
  const lamports = readU64(requireParam(params, 1, 'lamports'), 'lamports');
  checkContext(readConfig(params, 2), cluster);
  if (lamports === 0n) throw invalidParams('lamports must be positive');
  // Checked and taken synchronously, before the first await: concurrent requests cannot both fit.
  const giveBack =
    call.caller.kind === 'public' ? call.airdrops.take(recipient, call.caller.clientId, lamports) : () => {};
  try {
    // Checked and counted in flight synchronously too, so concurrent airdrops cannot pass it together.
    const inFlight = airdropsInFlight.get(cluster) ?? 0n;
    const available =
      cluster.getBalance(cluster.treasury.address) -
      inFlight -
      AIRDROP_FEE_LAMPORTS -
      call.limits.airdrop.treasuryReserveLamports;
    if (lamports > available) {
      throw new RpcError(
        JSON_RPC_INTERNAL_ERROR,
        `the airdrop faucet has run dry; req: ${formatSol(lamports)}, available: ${formatSol(available > 0n ? available : 0n)}`,
      );
    }
    const spending = lamports + AIRDROP_FEE_LAMPORTS;
    airdropsInFlight.set(cluster, inFlight + spending);
    try {
      return await cluster.requestAirdrop(recipient, lamports);
    } finally {
      airdropsInFlight.set(cluster, (airdropsInFlight.get(cluster) ?? spending) - spending);
    }
  } catch (error) {
    giveBack();
    if (error instanceof AirdropError) throw new RpcError(JSON_RPC_INTERNAL_ERROR, error.message);
    throw error;
  }
};

export const CLUSTER_METHODS: Readonly<Record<string, RpcMethod>> = {
  getHealth,
  getVersion,
  getSlot,
  getBlockHeight,
  getEpochInfo,
  getEpochSchedule,
  getLatestBlockhash,
  isBlockhashValid,
  getFeeForMessage,
  getMinimumBalanceForRentExemption,
  getTransactionCount,
  getGenesisHash,
  getIdentity,
  getMaxRetransmitSlot,
  getMaxShredInsertSlot,
  requestAirdrop,
};

export { assertHealthy };
