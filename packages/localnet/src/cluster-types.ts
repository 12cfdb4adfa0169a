/** The local cluster's public types and constants (see `LocalCluster`). */
import type { AccountFixture } from './account-fixtures';
import type { GenesisToken, MarketMakerInventory } from './genesis';
import type { TransactionRecord } from './ledger';
import type { ExecutionReport } from './svm-runtime';
import type { TransactionErrorJson } from './transaction-error';

/** Default slot duration, as on mainnet. */
export const DEFAULT_SLOT_DURATION_MS = 400;
/** Slots after which a confirmed transaction counts as finalized (mainnet: 32-slot lockout). */
export const DEFAULT_FINALIZATION_DEPTH = 32;
/**
 * How many slots the clock may run ahead of the wall by ending slots early when one of their
 * transactions is confirmed (see `ClusterClock.sealConfirmedSlot`): a blockhash then lives at
 * least (150 − 32) × 400 ms of wall time, however many transactions a second arrive.
 */
export const MAX_SEALED_SLOT_LEAD = 32;
/**
 * While the clock is ahead of the wall, a slot lasts this many slot durations instead of waiting for
 * the wall to catch up: slots keep coming (every 600 ms at 400 ms slots) and the lead drains by half
 * a slot per slot (32 slots of lead in 64 slots, ~38 s), so an app never sees the chain stall.
 */
export const AHEAD_SLOT_STRETCH = 1.5;
/** Slots per epoch, as on mainnet. */
export const SLOTS_PER_EPOCH = 432_000;

export interface LocalClusterOptions {
  /** Directory for keypairs and the ledger; omit for an in-memory cluster that forgets everything. */
  readonly dataDir?: string;
  /** Milliseconds per slot (default 400). */
  readonly slotDurationMs?: number;
  /** 'auto' (default) advances slots on a timer; 'manual' leaves it to {@link LocalCluster.advanceSlots}. */
  readonly slotClock?: 'auto' | 'manual';
  /** Tokens created at genesis (default: every listed token of @solterm/contracts). */
  readonly tokens?: readonly GenesisToken[];
  /** Treasury lamports at genesis (default one million SOL). */
  readonly treasuryLamports?: bigint;
  /** The market maker's genesis inventory. */
  readonly marketMakerInventory?: MarketMakerInventory;
  /**
   * End a slot once one of its transactions is confirmed, as a validator's confirmed slot is a
   * complete block (default: with the 'auto' clock, at most {@link MAX_SEALED_SLOT_LEAD} slots
   * ahead of the wall). 'manual' clocks never end a slot by themselves.
   */
  readonly sealConfirmedSlots?: boolean;
  /** Slots until a transaction is finalized (default 32). */
  readonly finalizationDepth?: number;
  /** fdatasync each ledger batch (default true). */
  readonly fsync?: boolean;
  /** Wall clock in milliseconds (default Date.now), for block times and the slot timer. */
  readonly now?: () => number;
  /** Where operational messages go (default: nowhere). */
  readonly log?: (message: string) => void;
  /**
   * Accounts placed at genesis, after the product's (`solana-test-validator --account-dir`): each
   * start places them again; a restarted cluster's ledger state of the same address wins.
   */
  readonly accounts?: readonly AccountFixture[];
}

/** One minute of the cluster's work (getRecentPerformanceSamples). */
export interface PerformanceSample {
  readonly slot: number;
  readonly numSlots: number;
  readonly numTransactions: number;
  readonly numNonVoteTransactions: number;
  readonly samplePeriodSecs: number;
}

/** What a cluster tells its listeners (the PubSub server): slots as they pass, transactions as they commit. */
export interface ClusterListener {
  /** The clock reached `slot` (called once per slot, in order). */
  slot?(slot: number): void;
  /**
   * A transaction was committed: its log entry, every account key it referenced and the writable
   * ones (whose state it may have changed).
   */
  committed?(record: TransactionRecord, accountKeys: readonly string[], writable: readonly string[]): void;
}

/** A commitment level, as RPC methods take it. */
export type CommitmentLevel = 'processed' | 'confirmed' | 'finalized';

/** A block as getBlock describes it (block height equals the slot on this cluster). */
export interface BlockView {
  readonly slot: number;
  readonly parentSlot: number;
  readonly blockhash: string;
  readonly previousBlockhash: string;
  readonly blockTime: number;
  readonly transactions: readonly TransactionRecord[];
}

/** Why a slot has no block to show (the validator's -32004, -32007 and -32001 answers). */
export type MissingBlock = 'not-available' | 'skipped' | 'cleaned-up';

/** A signature's status in the sense of getSignatureStatuses. */
export interface SignatureStatus {
  readonly slot: number;
  /** Slots since the transaction's slot; null once finalized. */
  readonly confirmations: number | null;
  readonly err: TransactionErrorJson | null;
  readonly confirmationStatus: 'processed' | 'confirmed' | 'finalized';
}

/**
 * What sending a transaction did. `committed`: it is in the signature log (with `record.err` set
 * when it failed but was charged a fee). `rejected`: nothing changed on chain — a validator would
 * report a preflight failure, or silently drop the transaction when preflight is skipped.
 */
export type SendOutcome =
  | { readonly kind: 'committed'; readonly signature: string; readonly record: TransactionRecord }
  | ({
      readonly kind: 'rejected';
      readonly signature: string;
      readonly err: TransactionErrorJson;
    } & ExecutionReport);

export interface SendOptions {
  /** Commit a transaction that fails during execution (charging its fee), as skipPreflight does. */
  readonly skipPreflight?: boolean;
  /** The base64 text the bytes came from, stored as-is to avoid re-encoding. */
  readonly base64?: string;
}

export interface SimulateOptions {
  readonly sigVerify?: boolean;
  readonly replaceRecentBlockhash?: boolean;
}

/** Thrown by {@link LocalCluster.requestAirdrop} when the faucet transfer does not land. */
export class AirdropError extends Error {
  override readonly name = 'AirdropError';
}
