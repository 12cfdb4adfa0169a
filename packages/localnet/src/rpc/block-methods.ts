/**
 * Block methods: getBlock, getBlocks, getBlocksWithLimit, getBlockTime, getBlockCommitment,
 * getBlockProduction, getFirstAvailableBlock, minimumLedgerSlot and getRecentPrioritizationFees,
 * with the validator's commitment rules (`finalized` lags by the finalization depth, `processed`
 * is refused where a validator refuses it) and error answers.
 */
import { SLOTS_PER_EPOCH, type BlockView, type LocalCluster, type MissingBlock } from '../local-cluster';
import {
  checkContext,
  readAddress,
  readArray,
  readConfig,
  readConfirmedCommitment,
  readInteger,
  readU64,
  readOptionalBoolean,
  requireParam,
  type Config,
} from './params';
import { responseTooLarge } from './account-methods';
import { agaveInvalidParams, invalidParams, RpcError } from './rpc-error';
import { withContext, type RpcCall, type RpcMethod } from './rpc-method';
import {
  encodeTransactionWithMeta,
  readMaxSupportedTransactionVersion,
  readTransactionEncoding,
} from './transaction-encoding';

export const RPC_BLOCK_CLEANED_UP = -32001;
export const RPC_BLOCK_NOT_AVAILABLE = -32004;
export const RPC_SLOT_SKIPPED = -32007;
/** getBlocks' widest range and getBlocksWithLimit's largest limit, as Agave's. */
export const MAX_GET_BLOCKS_RANGE = 500_000;
/** Accounts getRecentPrioritizationFees takes (MAX_TX_ACCOUNT_LOCKS). */
const MAX_PRIORITIZATION_FEE_ACCOUNTS = 128;
/** The votes a block's commitment array counts (MAX_LOCKOUT_HISTORY + 1). */
const BLOCK_COMMITMENT_LENGTH = 32;

type TransactionDetails = 'full' | 'accounts' | 'signatures' | 'none';
const TRANSACTION_DETAILS: readonly TransactionDetails[] = ['full', 'accounts', 'signatures', 'none'];

function missingBlockError(slot: number, missing: MissingBlock, cluster: LocalCluster): RpcError {
  if (missing === 'skipped') {
    return new RpcError(
      RPC_SLOT_SKIPPED,
      `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`,
    );
  }
  if (missing === 'cleaned-up') {
    return new RpcError(
      RPC_BLOCK_CLEANED_UP,
      `Block ${slot} cleaned up, does not exist on node. First available block: ${cluster.firstAvailableBlock}`,
    );
  }
  return new RpcError(RPC_BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);
}

/** The block at `slot` if the commitment has reached it, else the validator's error. */
function blockAt(slot: number, config: Config, cluster: LocalCluster): BlockView {
  const commitment = readConfirmedCommitment(config, cluster);
  if (slot > cluster.slotAt(commitment)) throw missingBlockError(slot, 'not-available', cluster);
  const block = cluster.getBlock(slot, { confirmedOnly: commitment === 'confirmed' });
  if (typeof block === 'string') throw missingBlockError(slot, block, cluster);
  return block;
}

function readSlot(params: readonly unknown[], index: number, name: string): number {
  return readInteger(requireParam(params, index, name), name);
}

/** The slot of a block to read; one beyond any this cluster can reach is answered with its exact u64. */
function readBlockSlot(params: readonly unknown[]): number {
  const exact = readU64(requireParam(params, 0, 'slot'), 'slot');
  if (exact > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RpcError(RPC_BLOCK_NOT_AVAILABLE, `Block not available for slot ${exact}`);
  }
  return Number(exact);
}

/** getBlock's second param: a config object, or (legacy clients) the encoding alone. */
function readBlockConfig(params: readonly unknown[]): Config {
  return typeof params[1] === 'string' ? { encoding: params[1] } : readConfig(params, 1);
}

const getBlock: RpcMethod = (params, cluster, call) => {
  const slot = readBlockSlot(params);
  const config = readBlockConfig(params);
  const encoding = readTransactionEncoding(config);
  const details = (config.transactionDetails ?? 'full') as TransactionDetails;
  if (!TRANSACTION_DETAILS.includes(details)) {
    throw invalidParams(
      `unknown variant \`${String(details)}\`, expected one of \`full\`, \`signatures\`, \`none\`, \`accounts\``,
    );
  }
  const rewards = readOptionalBoolean(config, 'rewards') ?? true;
  const maxVersion = readMaxSupportedTransactionVersion(config);
  const block = blockAt(slot, config, cluster);
  if (call.caller.kind === 'public' && (details === 'full' || details === 'accounts')) {
    // Every encoding carries at least the wire transactions (and full details their logs): refuse
    // a busy block before encoding it.
    let floor = 0;
    for (const record of block.transactions) {
      floor += record.transaction.length;
      if (details === 'full') for (const line of record.logs) floor += line.length;
    }
    if (floor > call.limits.maxResponseBytes) throw responseTooLarge(floor, call.limits.maxResponseBytes);
  }
  const answer: Record<string, unknown> = {
    blockHeight: block.slot,
    blockTime: block.blockTime,
    blockhash: block.blockhash,
    parentSlot: block.parentSlot,
    previousBlockhash: block.previousBlockhash,
  };
  if (details === 'full' || details === 'accounts') {
    answer.transactions = block.transactions.map((record) =>
      encodeTransactionWithMeta(record, { encoding, maxVersion, details, rewards }),
    );
  } else if (details === 'signatures') {
    answer.signatures = block.transactions.map((record) => record.signature);
  }
  if (rewards) answer.rewards = [];
  return answer;
};

/** Refuses, before listing them, more blocks than a public answer can hold. */
function assertBlockListFits(start: number, end: number, cluster: LocalCluster, call: RpcCall): void {
  if (call.caller.kind !== 'public') return;
  const floor = cluster.countBlocks(start, end) * (String(end).length + 1);
  if (floor > call.limits.maxResponseBytes) throw responseTooLarge(floor, call.limits.maxResponseBytes);
}

/**
 * As Agave: the end (by default start + 500,000) is first brought down to the commitment's slot,
 * then a range still wider than 500,000 slots is refused.
 */
const getBlocks: RpcMethod = (params, cluster, call) => {
  const start = readSlot(params, 0, 'start_slot');
  // The second param is the end slot, or the config when the end is left out.
  const hasEnd = typeof params[1] === 'number' || typeof params[1] === 'bigint';
  const requestedEnd = hasEnd ? readSlot(params, 1, 'end_slot') : start + MAX_GET_BLOCKS_RANGE;
  // kit sends a left-out end as null, keeping the config third.
  const config = readConfig(params, hasEnd || params[1] === null ? 2 : 1);
  const end = Math.min(requestedEnd, cluster.slotAt(readConfirmedCommitment(config, cluster)));
  if (end < start) return [];
  if (end - start > MAX_GET_BLOCKS_RANGE)
    throw agaveInvalidParams(`Slot range too large; max ${MAX_GET_BLOCKS_RANGE}`);
  assertBlockListFits(start, end, cluster, call);
  return cluster.getBlocks(start, end);
};

const getBlocksWithLimit: RpcMethod = (params, cluster, call) => {
  const start = readSlot(params, 0, 'start_slot');
  const limit = readSlot(params, 1, 'limit');
  const config = readConfig(params, 2);
  if (limit > MAX_GET_BLOCKS_RANGE) throw agaveInvalidParams(`Limit too large; max ${MAX_GET_BLOCKS_RANGE}`);
  const end = cluster.slotAt(readConfirmedCommitment(config, cluster));
  if (limit === 0 || end < start) return [];
  assertBlockListFits(start, Math.min(end, start + limit - 1), cluster, call);
  return cluster.getBlocks(start, end, limit);
};

const getBlockTime: RpcMethod = (params, cluster) => {
  const slot = readBlockSlot(params);
  const missing = cluster.missingBlock(slot);
  if (missing !== undefined) throw missingBlockError(slot, missing, cluster);
  return cluster.blockTimeOf(slot);
};

/**
 * Stake that voted on a block, by lockout depth. This cluster has no stake, so every entry is
 * zero; a rooted block's commitment is no longer tracked (null), as a validator answers.
 */
const getBlockCommitment: RpcMethod = (params, cluster) => {
  const slot = readSlot(params, 0, 'slot');
  const tracked =
    slot > cluster.slotAt('finalized') && slot <= cluster.slot && cluster.missingBlock(slot) === undefined;
  return { commitment: tracked ? new Array<number>(BLOCK_COMMITMENT_LENGTH).fill(0) : null, totalStake: 0 };
};

/** This node leads every slot; the blocks it produced are the slots that are blocks. */
const getBlockProduction: RpcMethod = (params, cluster) => {
  const config = readConfig(params, 0);
  const commitment = checkContext(config, cluster);
  const newest = cluster.slotAt(commitment);
  const range = (config.range ?? {}) as { firstSlot?: unknown; lastSlot?: unknown };
  const firstSlot =
    range.firstSlot === undefined || range.firstSlot === null
      ? newest - (newest % SLOTS_PER_EPOCH)
      : readInteger(range.firstSlot, 'firstSlot');
  const lastSlot =
    range.lastSlot === undefined || range.lastSlot === null
      ? newest
      : readInteger(range.lastSlot, 'lastSlot');
  if (lastSlot < firstSlot) {
    throw agaveInvalidParams(`lastSlot, ${lastSlot}, cannot be less than firstSlot, ${firstSlot}`);
  }
  if (lastSlot > newest) {
    // Named exactly, as a validator does (readInteger clamps past 2^53).
    const exact = readU64(range.lastSlot, 'lastSlot');
    throw agaveInvalidParams(`lastSlot, ${exact}, is too large; max ${newest}`);
  }
  const identity = cluster.treasury.address as string;
  const leaderSlots = lastSlot - firstSlot + 1;
  const produced = cluster.countBlocks(firstSlot, lastSlot);
  const byIdentity =
    typeof config.identity === 'string' && readAddress(config.identity) !== identity
      ? {}
      : { [identity]: [leaderSlots, produced] };
  return withContext(cluster, { byIdentity, range: { firstSlot, lastSlot } }, newest);
};

const getFirstAvailableBlock: RpcMethod = (_params, cluster) => cluster.firstAvailableBlock;

const minimumLedgerSlot: RpcMethod = (_params, cluster) => cluster.firstAvailableBlock;

/** The lowest compute-unit price that landed in each recent slot (raised by write-locked accounts). */
const getRecentPrioritizationFees: RpcMethod = (params, cluster) => {
  const accounts =
    params[0] === undefined || params[0] === null
      ? []
      : readArray(params[0], 'account addresses', MAX_PRIORITIZATION_FEE_ACCOUNTS).map(readAddress);
  return cluster.getRecentPrioritizationFees(accounts);
};

export const BLOCK_METHODS: Readonly<Record<string, RpcMethod>> = {
  getBlock,
  getBlocks,
  getBlocksWithLimit,
  getBlockTime,
  getBlockCommitment,
  getBlockProduction,
  getFirstAvailableBlock,
  minimumLedgerSlot,
  getRecentPrioritizationFees,
};
