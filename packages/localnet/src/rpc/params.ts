/**
 * Reading positional JSON-RPC params at the trust boundary: addresses, signatures, config objects,
 * commitments, encodings, integers. Each failure is the -32602 a validator would answer.
 */
import { decodeBase58Exact } from '../base58';
import type { CommitmentLevel, LocalCluster } from '../local-cluster';
import {
  agaveInvalidParams,
  invalidParam,
  invalidParams,
  RpcError,
  RPC_MIN_CONTEXT_SLOT_NOT_REACHED,
} from './rpc-error';

export type Commitment = CommitmentLevel;
export type Config = Readonly<Record<string, unknown>>;

const LEGACY_COMMITMENTS: Readonly<Record<string, Commitment>> = {
  processed: 'processed',
  confirmed: 'confirmed',
  finalized: 'finalized',
  recent: 'processed',
  single: 'confirmed',
  singleGossip: 'confirmed',
  root: 'finalized',
  max: 'finalized',
};

/** The param at `index`, which must be present. */
export function requireParam(params: readonly unknown[], index: number, name: string): unknown {
  if (params.length <= index || params[index] === undefined) {
    throw invalidParams(`\`params\` should have at least ${index + 1} argument(s) (missing ${name})`);
  }
  return params[index];
}

export function readAddress(value: unknown): string {
  if (typeof value !== 'string') throw invalidParams('invalid type: expected a base58 address string');
  if (decodeBase58Exact(value, 32) === undefined) throw invalidParam('Invalid');
  return value;
}

export function readSignature(value: unknown): string {
  if (typeof value !== 'string') throw invalidParams('invalid type: expected a base58 signature string');
  if (decodeBase58Exact(value, 64) === undefined) throw invalidParam('Invalid');
  return value;
}

export function readString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidParams(`invalid type: expected a string for ${name}`);
  return value;
}

export const U64_MAX = 2n ** 64n - 1n;

/**
 * A u64 param, exactly: request bodies are parsed with integer literals beyond 2^53 as bigint
 * (see `parseJsonRequest`), so 2^63 − 1 arrives whole, as serde reads it on a validator.
 */
export function readU64(value: unknown, name: string): bigint {
  if (typeof value === 'bigint' && value >= 0n && value <= U64_MAX) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw invalidParams(`invalid value for ${name}: expected a u64`);
}

/**
 * A u64 param where the value is used as a count, size or slot: beyond 2^53 it is clamped to
 * Number.MAX_SAFE_INTEGER (larger than any slot, size or count this cluster can reach).
 */
export function readInteger(value: unknown, name: string): number {
  const exact = readU64(value, name);
  return exact > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(exact);
}

/** The optional config object at `index` (absent or null → empty). */
export function readConfig(params: readonly unknown[], index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParams('invalid type: expected a config object');
  return value as Config;
}

/** The commitment a config names (legacy names mapped), or undefined when it names none it knows. */
export function commitmentOf(config: Config): Commitment | undefined {
  const value = config.commitment;
  return typeof value === 'string' && Object.hasOwn(LEGACY_COMMITMENTS, value)
    ? LEGACY_COMMITMENTS[value]
    : undefined;
}

export function readCommitment(config: Config, fallback: Commitment = 'finalized'): Commitment {
  const value = config.commitment;
  if (value === undefined || value === null) return fallback;
  const commitment = commitmentOf(config);
  if (commitment === undefined) {
    throw invalidParams(
      `unknown variant \`${String(value)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``,
    );
  }
  return commitment;
}

/** Validates commitment and minContextSlot of a config, as every read method does. */
export function checkContext(config: Config, cluster: LocalCluster): Commitment {
  const commitment = readCommitment(config);
  if (config.minContextSlot !== undefined && config.minContextSlot !== null) {
    const minContextSlot = readU64(config.minContextSlot, 'minContextSlot');
    if (minContextSlot > BigInt(cluster.slot)) {
      throw new RpcError(RPC_MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', {
        contextSlot: cluster.slot,
      });
    }
  }
  return commitment;
}

export function readOptionalBoolean(config: Config, name: string): boolean | undefined {
  const value = config[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidParams(`invalid type: expected a boolean for ${name}`);
  return value;
}

export function readArray(value: unknown, name: string, max: number): readonly unknown[] {
  if (!Array.isArray(value)) throw invalidParams(`invalid type: expected an array for ${name}`);
  if (value.length > max) throw invalidParams(`Too many inputs provided; max ${max}`);
  return value;
}

/** The commitment of a history read (getTransaction, getBlock…), which refuses `processed`. */
export function readConfirmedCommitment(config: Config, cluster: LocalCluster): 'confirmed' | 'finalized' {
  const commitment = checkContext(config, cluster);
  if (commitment === 'processed')
    throw agaveInvalidParams('Method does not support commitment below `confirmed`');
  return commitment;
}
