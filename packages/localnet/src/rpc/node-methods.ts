/**
 * What wallets and dashboards ask of a node beyond accounts and transactions: the cluster's nodes,
 * leaders, votes, supply, largest accounts, performance, stake and inflation. This is a one-node
 * cluster without stake or votes: its identity leads every slot, there are no vote accounts, no
 * snapshots and no inflation rewards; the inflation schedule is mainnet's constants.
 */
import { SLOTS_PER_EPOCH, type AccountView, type LocalCluster } from '../local-cluster';
import { SYSTEM_PROGRAM_ID } from '../program-ids';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../token-layout';
import { JsonFloat } from './json';
import {
  checkContext,
  readAddress,
  readArray,
  readConfig,
  readInteger,
  readOptionalBoolean,
  readU64,
  requireParam,
  U64_MAX,
} from './params';
import { responseTooLarge } from './account-methods';
import { RPC_BLOCK_NOT_AVAILABLE } from './block-methods';
import { agaveInvalidParams, invalidParams, RpcError } from './rpc-error';
import { SOLANA_CORE_VERSION, withContext, type RpcMethod } from './rpc-method';

/** Agave's "No snapshot" (getHighestSnapshotSlot on a node that has taken none). */
const RPC_NO_SNAPSHOT = -32008;
const MAX_SLOT_LEADERS = 5000;
const MAX_PERFORMANCE_SAMPLES = 720;
const MAX_INFLATION_REWARD_ADDRESSES = 1000;
const LARGEST_ACCOUNTS = 20;
/** Programs whose accounts hold every lamport of this cluster (system wallets, token accounts, programs). */
const LAMPORT_OWNERS = [
  SYSTEM_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
  'Sysvar1111111111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
];

const identityOf = (cluster: LocalCluster) => cluster.treasury.address as string;

function everyAccount(cluster: LocalCluster): AccountView[] {
  return LAMPORT_OWNERS.flatMap((owner) => cluster.getProgramAccounts(owner));
}

const getClusterNodes: RpcMethod = (_params, cluster) => [
  {
    pubkey: identityOf(cluster),
    gossip: null,
    tpu: null,
    tpuQuic: null,
    rpc: null,
    pubsub: null,
    version: SOLANA_CORE_VERSION,
    featureSet: 0,
    shredVersion: 0,
  },
];

const getVoteAccounts: RpcMethod = (params, cluster) => {
  checkContext(readConfig(params, 0), cluster);
  return { current: [], delinquent: [] };
};

const getSlotLeader: RpcMethod = (params, cluster) => {
  checkContext(readConfig(params, 0), cluster);
  return identityOf(cluster);
};

const getSlotLeaders: RpcMethod = (params, cluster) => {
  const start = readU64(requireParam(params, 0, 'start slot'), 'start slot');
  const limit = readInteger(requireParam(params, 1, 'limit'), 'limit');
  if (limit > MAX_SLOT_LEADERS) throw agaveInvalidParams(`Invalid limit; max ${MAX_SLOT_LEADERS}`);
  // A validator knows the leader schedule up to the next epoch; the first epoch past it is refused.
  const epochLength = BigInt(SLOTS_PER_EPOCH);
  const unknownFrom = BigInt(Math.floor(cluster.slot / SLOTS_PER_EPOCH) + 2);
  const lastEpoch = (start + BigInt(Math.max(limit, 1)) - 1n) / epochLength;
  if (limit > 0 && lastEpoch >= unknownFrom) {
    const epoch = start / epochLength > unknownFrom ? start / epochLength : unknownFrom;
    throw agaveInvalidParams(`Invalid slot range: leader schedule for epoch ${epoch} is unavailable`);
  }
  return Array.from({ length: limit }, () => identityOf(cluster));
};

const getLeaderSchedule: RpcMethod = (params, cluster, call) => {
  const first = params[0];
  const config = readConfig(params, typeof first === 'object' && first !== null ? 0 : 1);
  const slot =
    typeof first === 'number' || typeof first === 'bigint' ? readInteger(first, 'slot') : cluster.slot;
  if (Math.floor(slot / SLOTS_PER_EPOCH) !== Math.floor(cluster.slot / SLOTS_PER_EPOCH)) return null;
  const identity = identityOf(cluster);
  if (typeof config.identity === 'string' && config.identity !== identity) return {};
  // A public caller could never receive it (~3 MB over the answer cap): refuse before building it,
  // or every call would cost the cluster's thread the ~25 ms of building and serialising it.
  const bytes = identity.length + 6 + scheduleDigits(SLOTS_PER_EPOCH) + SLOTS_PER_EPOCH;
  if (call.caller.kind === 'public' && bytes > call.limits.maxResponseBytes) {
    throw responseTooLarge(bytes, call.limits.maxResponseBytes);
  }
  // The one node leads every slot of the epoch (relative slot indexes, as validators answer).
  return { [identity]: Array.from({ length: SLOTS_PER_EPOCH }, (_, index) => index) };
};

/** Digits of the numbers 0 … count − 1 written out. */
function scheduleDigits(count: number): number {
  let digits = 0;
  for (let low = 1, width = 1; low <= count || width === 1; low *= 10, width += 1) {
    const start = width === 1 ? 0 : low;
    digits += Math.max(0, Math.min(count, low * 10) - start) * width;
    if (low * 10 >= count) break;
  }
  return digits;
}

const getHighestSnapshotSlot: RpcMethod = () => {
  throw new RpcError(RPC_NO_SNAPSHOT, 'No snapshot');
};

const getStakeMinimumDelegation: RpcMethod = (params, cluster) => {
  checkContext(readConfig(params, 0), cluster);
  // Mainnet's answer while the raise to 1 SOL is not active: one lamport.
  return withContext(cluster, 1n);
};

const getInflationGovernor: RpcMethod = () => ({
  foundation: new JsonFloat(0.05),
  foundationTerm: new JsonFloat(7),
  initial: new JsonFloat(0.08),
  taper: new JsonFloat(0.15),
  terminal: new JsonFloat(0.015),
});

const getInflationRate: RpcMethod = (_params, cluster) => ({
  epoch: Math.floor(cluster.slot / SLOTS_PER_EPOCH),
  foundation: new JsonFloat(0),
  total: new JsonFloat(0.08),
  validator: new JsonFloat(0.08),
});

const getInflationReward: RpcMethod = (params, cluster) => {
  const addresses = readArray(
    requireParam(params, 0, 'addresses'),
    'addresses',
    MAX_INFLATION_REWARD_ADDRESSES,
  ).map(readAddress);
  const config = readConfig(params, 1);
  const commitment = checkContext(config, cluster);
  if (config.epoch !== undefined && config.epoch !== null) {
    // As Agave: an epoch's rewards are in the first block of the next epoch; until that block
    // exists the answer is -32004 for its first slot (epoch arithmetic saturating at u64::MAX).
    const epoch = readU64(config.epoch, 'epoch');
    const nextEpoch = epoch + 1n > U64_MAX ? U64_MAX : epoch + 1n;
    const product = nextEpoch * BigInt(SLOTS_PER_EPOCH);
    const firstSlot = product > U64_MAX ? U64_MAX : product;
    if (firstSlot > BigInt(cluster.slotAt(commitment))) {
      throw new RpcError(RPC_BLOCK_NOT_AVAILABLE, `Block not available for slot ${firstSlot}`);
    }
  }
  // No stake, no votes: nobody earned an inflation reward.
  return addresses.map(() => null);
};

const getRecentPerformanceSamples: RpcMethod = (params, cluster) => {
  const limit =
    params[0] === undefined || params[0] === null ? MAX_PERFORMANCE_SAMPLES : readInteger(params[0], 'limit');
  if (limit > MAX_PERFORMANCE_SAMPLES)
    throw agaveInvalidParams(`Invalid limit; max ${MAX_PERFORMANCE_SAMPLES}`);
  return cluster.recentPerformanceSamples(limit);
};

/** The treasury (faucet and mint authority) is this cluster's non-circulating supply. */
const getSupply: RpcMethod = (params, cluster) => {
  const config = readConfig(params, 0);
  checkContext(config, cluster);
  const total = everyAccount(cluster).reduce((sum, account) => sum + account.lamports, 0n);
  const treasury = cluster.getBalance(identityOf(cluster));
  return withContext(cluster, {
    total,
    circulating: total - treasury,
    nonCirculating: treasury,
    nonCirculatingAccounts:
      readOptionalBoolean(config, 'excludeNonCirculatingAccountsList') === true ? [] : [identityOf(cluster)],
  });
};

const getLargestAccounts: RpcMethod = (params, cluster) => {
  const config = readConfig(params, 0);
  checkContext(config, cluster);
  const filter = config.filter;
  if (filter !== undefined && filter !== null && filter !== 'circulating' && filter !== 'nonCirculating') {
    throw invalidParams('unknown variant, expected `circulating` or `nonCirculating`');
  }
  const treasury = identityOf(cluster);
  const accounts = everyAccount(cluster)
    .filter((account) =>
      filter === 'circulating'
        ? account.address !== treasury
        : filter === 'nonCirculating'
          ? account.address === treasury
          : true,
    )
    .sort((a, b) => (b.lamports > a.lamports ? 1 : b.lamports < a.lamports ? -1 : 0))
    .slice(0, LARGEST_ACCOUNTS)
    .map((account) => ({ address: account.address, lamports: account.lamports }));
  return withContext(cluster, accounts);
};

export const NODE_METHODS: Readonly<Record<string, RpcMethod>> = {
  getClusterNodes,
  getVoteAccounts,
  getSlotLeader,
  getSlotLeaders,
  getLeaderSchedule,
  getHighestSnapshotSlot,
  getStakeMinimumDelegation,
  getInflationGovernor,
  getInflationRate,
  getInflationReward,
  getRecentPerformanceSamples,
  getSupply,
  getLargestAccounts,
};
