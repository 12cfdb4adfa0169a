/**
 * A local Solana cluster on LiteSVM: the real SVM runtime with the SPL Token and Associated Token
 * programs, plus what LiteSVM leaves to its host — a slot clock, a queue of recent blockhashes
 * that expire after 150 slots, a signature log with replay protection, durable persistence and a
 * genesis with the product's tokens at their mainnet mint addresses.
 *
 * Business code never calls this directly: it talks JSON-RPC to it (see `rpc/json-rpc-handler`).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  address,
  appendTransactionMessageInstructions,
  blockhash as toBlockhash,
  createTransactionMessage,
  getSignatureFromTransaction,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
} from '@solana/kit';
import { LISTED_TOKENS } from '@solterm/contracts';
import type { AccountFixture } from './account-fixtures';
import { encodeBase58 } from './base58';
import { lockDataDir } from './data-dir-lock';
import { BlockHistory } from './block-history';
import { BlockhashQueue, MAX_PROCESSING_AGE, type RecentBlockhash } from './blockhash-queue';
import {
  durableNonceAccountOf,
  durableNonceFromBlockhash,
  setsNonceValue,
  signaturesVerify,
  withBlockhash,
} from './durable-nonce';
import { calculateTransactionFee, computeUnitPrice } from './fees';
import {
  DEFAULT_MARKET_MAKER_INVENTORY,
  DEFAULT_TREASURY_LAMPORTS,
  planGenesis,
  type GenesisMint,
  type GenesisToken,
  type MarketMakerInventory,
} from './genesis';
import { generateStoredKeyPair, loadOrCreateKeyPairFile, type StoredKeyPair } from './keypair-store';
import { Ledger, type AccountStateTuple, type LedgerReplay, type TransactionRecord } from './ledger';
import { SYSTEM_PROGRAM_ID } from './program-ids';
import {
  RENT_EXEMPT_EPOCH,
  SvmRuntime,
  toBase64,
  type AccountView,
  type ExecutionReport,
  type SimulationResult,
} from './svm-runtime';
import type { TransactionErrorJson } from './transaction-error';
import { parseWireTransaction, type WireTransaction } from './wire-transaction';

export type { AccountView, ExecutionReport, SimulationResult } from './svm-runtime';

/** Default slot duration, as on mainnet. */
export const DEFAULT_SLOT_DURATION_MS = 400;
/** Slots after which a confirmed transaction counts as finalized (mainnet: 32-slot lockout). */
export const DEFAULT_FINALIZATION_DEPTH = 32;
/** Slots per epoch, as on mainnet. */
export const SLOTS_PER_EPOCH = 432_000;
/** A slot marker is logged every this many slots; a restart resumes past the last marker. */
const SLOT_MARKER_INTERVAL = 25;
/** Entries of the SlotHashes sysvar, as on mainnet. */
const MAX_SLOT_HASHES = 512;

export const TREASURY_KEYPAIR_FILE = 'treasury-keypair.json';
export const MARKET_MAKER_KEYPAIR_FILE = 'market-maker-keypair.json';
const CLUSTER_META_FILE = 'cluster.json';

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

const PERFORMANCE_SAMPLE_MS = 60_000;
const MAX_PERFORMANCE_SAMPLES = 720;

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

interface StoredTransaction {
  readonly record: TransactionRecord;
  /** Ledger sequence number; durable once the ledger's durableSeq reaches it. */
  readonly seq: number;
}

/**
 * Creates (or reopens, when `dataDir` holds a previous run) a local cluster.
 *
 * @example
 * const cluster = await createLocalCluster({ dataDir: './data/localnet' });
 * const { blockhash } = cluster.getLatestBlockhash();
 * // … later
 * await cluster.close();
 */
export async function createLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const { dataDir } = options;
  let treasury: StoredKeyPair;
  let marketMaker: StoredKeyPair;
  let blockhashSeed: Uint8Array;
  let ledger: Ledger | null = null;
  let replay: LedgerReplay | null = null;
  let unlock = async (): Promise<void> => undefined;
  if (dataDir === undefined) {
    treasury = await generateStoredKeyPair();
    marketMaker = await generateStoredKeyPair();
    blockhashSeed = randomBytes(32);
  } else {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
    try {
      treasury = await loadOrCreateKeyPairFile(join(dataDir, TREASURY_KEYPAIR_FILE));
      marketMaker = await loadOrCreateKeyPairFile(join(dataDir, MARKET_MAKER_KEYPAIR_FILE));
      blockhashSeed = await loadOrCreateBlockhashSeed(join(dataDir, CLUSTER_META_FILE));
      const opened = await Ledger.open(dataDir, {
        fsync: options.fsync ?? true,
        onError: (error) => options.log?.(`localnet: ledger write failed: ${String(error)}`),
      });
      ledger = opened.ledger;
      replay = opened.replay;
    } catch (error) {
      await unlock();
      throw error;
    }
  }
  const cluster = new LocalCluster(
    options,
    treasury.signer,
    marketMaker.signer,
    blockhashSeed,
    ledger,
    unlock,
  );
  SIGNER_SECRET_KEYS.set(cluster, { treasury: treasury.secretKey, marketMaker: marketMaker.secretKey });
  try {
    await cluster.initialise(replay);
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return cluster;
}

const SIGNER_SECRET_KEYS = new WeakMap<LocalCluster, { treasury: Uint8Array; marketMaker: Uint8Array }>();

/**
 * @internal The treasury's and the market maker's secret keys (solana-keygen layout), which the
 * worker thread hands once to the main thread: the venue and the faucet sign with them there.
 */
export function exportSignerSecretKeys(cluster: LocalCluster): {
  treasury: Uint8Array;
  marketMaker: Uint8Array;
} {
  const keys = SIGNER_SECRET_KEYS.get(cluster);
  if (keys === undefined) throw new Error('the cluster was not created by createLocalCluster');
  return keys;
}

async function loadOrCreateBlockhashSeed(path: string): Promise<Uint8Array> {
  try {
    const meta = JSON.parse(await readFile(path, 'utf8')) as { blockhashSeed?: unknown };
    if (typeof meta.blockhashSeed === 'string' && /^[0-9a-f]{64}$/.test(meta.blockhashSeed)) {
      return Buffer.from(meta.blockhashSeed, 'hex');
    }
    throw new Error(`${path} has no valid blockhashSeed`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const seed = randomBytes(32);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(
    temporary,
    `${JSON.stringify({ version: 1, blockhashSeed: seed.toString('hex') }, null, 2)}\n`,
  );
  await rename(temporary, path);
  return seed;
}

export class LocalCluster {
  /** The treasury: funded SOL, mint authority of every genesis mint, the faucet's source. */
  readonly treasury: KeyPairSigner;
  /** The market maker: SOL and an associated token account of every genesis token. */
  readonly marketMaker: KeyPairSigner;
  /** Milliseconds per slot. */
  readonly slotDurationMs: number;

  private readonly runtime = new SvmRuntime();
  private readonly blockhashes: BlockhashQueue;
  private readonly transactions = new Map<string, StoredTransaction>();
  private readonly signaturesByAddress = new Map<string, string[]>();
  private readonly history = new BlockHistory();
  /** The SlotHashes sysvar's entries, newest first. */
  private slotHashes: { slot: bigint; hash: string }[] = [];
  private readonly finalizationDepth: number;
  private readonly now: () => number;
  private genesisMints: readonly GenesisMint[] = [];
  private currentSlot = 0;
  private currentBlockTime = 0;
  /** Ledger sequence number of the current slot's first transaction (-1: none yet). */
  private currentSlotFirstSeq = -1;
  private processedCount = 0;
  private slotTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly listeners = new Set<ClusterListener>();
  /** getRecentPerformanceSamples: one sample per minute of wall time, newest last (12 hours kept). */
  private readonly samples: PerformanceSample[] = [];
  private sampleStart: { at: number; slot: number; transactions: number } | undefined;

  /** @internal use {@link createLocalCluster}. */
  constructor(
    private readonly options: LocalClusterOptions,
    treasury: KeyPairSigner,
    marketMaker: KeyPairSigner,
    blockhashSeed: Uint8Array,
    private readonly ledger: Ledger | null,
    private readonly unlock: () => Promise<void> = async () => undefined,
  ) {
    this.treasury = treasury;
    this.marketMaker = marketMaker;
    this.slotDurationMs = options.slotDurationMs ?? DEFAULT_SLOT_DURATION_MS;
    if (!(this.slotDurationMs > 0)) throw new RangeError('slotDurationMs must be positive');
    this.finalizationDepth = options.finalizationDepth ?? DEFAULT_FINALIZATION_DEPTH;
    this.now = options.now ?? Date.now;
    this.blockhashes = new BlockhashQueue(blockhashSeed);
  }

  /** @internal genesis, then the ledger's account states and signatures on top. */
  async initialise(replay: LedgerReplay | null): Promise<void> {
    const tokens =
      this.options.tokens ??
      LISTED_TOKENS.map((token) => ({
        symbol: token.symbol,
        name: token.name,
        mint: token.mint,
        decimals: token.decimals,
      }));
    const plan = await planGenesis({
      tokens,
      treasury: this.treasury.address,
      marketMaker: this.marketMaker.address,
      treasuryLamports: this.options.treasuryLamports ?? DEFAULT_TREASURY_LAMPORTS,
      inventory: this.options.marketMakerInventory ?? DEFAULT_MARKET_MAKER_INVENTORY,
      rentExemptMinimum: (size) => this.minimumBalanceForRentExemption(size),
    });
    for (const account of plan.accounts) {
      const { address: accountAddress, lamports, owner, data } = account;
      this.runtime.writeAccount([
        accountAddress,
        lamports.toString(),
        owner,
        0,
        toBase64(data),
        RENT_EXEMPT_EPOCH.toString(),
      ]);
    }
    this.genesisMints = plan.mints;
    for (const fixture of this.options.accounts ?? []) {
      this.runtime.writeAccount([
        fixture.address,
        fixture.lamports.toString(),
        fixture.owner,
        fixture.executable ? 1 : 0,
        toBase64(fixture.data),
        fixture.rentEpoch.toString(),
      ]);
    }
    let startSlot = 0;
    if (replay !== null) {
      for (const state of replay.accounts.values()) this.runtime.writeAccount(state);
      for (const record of replay.transactions) {
        this.indexTransaction(record, 0, this.accountKeysOf(record), undefined);
      }
      this.processedCount = replay.transactions.length;
      if (replay.lastSlot >= 0) {
        // Resume past any slot the previous run may have reached after its last marker.
        startSlot = Math.max(replay.lastMarkerSlot + SLOT_MARKER_INTERVAL, replay.lastSlot) + 1;
      }
    }
    this.setSlot(startSlot);
    this.ledger?.appendSlot(startSlot);
    if ((this.options.slotClock ?? 'auto') === 'auto') this.startSlotClock();
  }

  // ---------------------------------------------------------------------------------------------
  // Clock

  /** The current slot. Block height equals the slot: this cluster never skips a slot. */
  get slot(): number {
    return this.currentSlot;
  }

  get blockHeight(): number {
    return this.currentSlot;
  }

  /** Unix time (seconds) of the current slot. */
  get blockTime(): number {
    return this.currentBlockTime;
  }

  /** Transactions in the signature log. */
  get transactionCount(): number {
    return this.processedCount;
  }

  /** The blockhash of slot 0, this cluster's identity across restarts (getGenesisHash). */
  get genesisHash(): string {
    return this.blockhashes.hashForSlot(0).blockhash;
  }

  /** The genesis tokens with the market maker's token account for each. */
  get mints(): readonly GenesisMint[] {
    return this.genesisMints;
  }

  /** Advances the clock by `count` slots (tests drive the clock with this). */
  advanceSlots(count = 1): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
    if (count === 0) return;
    const previous = this.currentSlot;
    this.setSlot(previous + count);
    const crossedMarker =
      Math.floor(this.currentSlot / SLOT_MARKER_INTERVAL) > Math.floor(previous / SLOT_MARKER_INTERVAL);
    if (crossedMarker && !this.closed) this.ledger?.appendSlot(this.currentSlot);
    this.samplePerformance();
    if (this.listeners.size > 0) {
      // Listeners hear every slot, the last 64 of a long stall at most.
      for (let slot = Math.max(previous + 1, this.currentSlot - 63); slot <= this.currentSlot; slot += 1) {
        this.tellListeners((listener) => listener.slot?.(slot));
      }
    }
  }

  /** Performance samples, newest first (as getRecentPerformanceSamples answers). */
  recentPerformanceSamples(limit: number): PerformanceSample[] {
    return this.samples.slice(-limit).reverse();
  }

  private samplePerformance(): void {
    const at = this.now();
    this.sampleStart ??= { at, slot: this.currentSlot, transactions: this.processedCount };
    if (at - this.sampleStart.at < PERFORMANCE_SAMPLE_MS) return;
    const transactions = this.processedCount - this.sampleStart.transactions;
    this.samples.push({
      slot: this.currentSlot,
      numSlots: this.currentSlot - this.sampleStart.slot,
      numTransactions: transactions,
      numNonVoteTransactions: transactions,
      samplePeriodSecs: Math.round((at - this.sampleStart.at) / 1000),
    });
    if (this.samples.length > MAX_PERFORMANCE_SAMPLES) this.samples.shift();
    this.sampleStart = { at, slot: this.currentSlot, transactions: this.processedCount };
  }

  /** Registers a listener of slots and commits; answers its removal. */
  listen(listener: ClusterListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Calls every listener; one that throws is logged and cannot fail the commit or the clock (a
   * transaction that committed must not be answered as failed).
   */
  private tellListeners(call: (listener: ClusterListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (error) {
        this.options.log?.(
          `localnet: a cluster listener failed: ${error instanceof Error ? error.stack : String(error)}`,
        );
      }
    }
  }

  /** Slots after which a transaction counts as finalized. */
  get finalizationSlots(): number {
    return this.finalizationDepth;
  }

  /** Starts advancing one slot per `slotDurationMs` of wall time (catching up after stalls). */
  startSlotClock(): void {
    if (this.slotTimer !== undefined || this.closed) return;
    const startedAt = this.now();
    const startSlot = this.currentSlot;
    this.slotTimer = setInterval(() => {
      const target = startSlot + Math.floor((this.now() - startedAt) / this.slotDurationMs);
      if (target > this.currentSlot) this.advanceSlots(target - this.currentSlot);
    }, this.slotDurationMs);
    this.slotTimer.unref();
  }

  stopSlotClock(): void {
    if (this.slotTimer !== undefined) clearInterval(this.slotTimer);
    this.slotTimer = undefined;
  }

  private setSlot(slot: number): void {
    const first = this.history.firstRunSlot === -1;
    const from = first ? slot : this.currentSlot + 1;
    this.currentSlot = slot;
    this.currentSlotFirstSeq = -1;
    this.currentBlockTime = Math.floor(this.now() / 1000);
    this.blockhashes.advanceTo(slot);
    this.history.recordSlots(from, slot, this.currentBlockTime);
    // A (re)started cluster knows the hashes of the slots before its first one too, so a lookup
    // table can be created from any recent slot, finalized ones included, right after a restart.
    const hashesFrom = first ? 0 : from;
    const added: { slot: bigint; hash: string }[] = [];
    for (let next = slot; next >= Math.max(hashesFrom, slot - MAX_SLOT_HASHES + 1); next -= 1) {
      added.push({ slot: BigInt(next), hash: this.blockhashes.hashForSlot(next).blockhash });
    }
    this.slotHashes = [...added, ...this.slotHashes].slice(0, MAX_SLOT_HASHES);
    this.runtime.setSlotHashes(this.slotHashes);
    const epoch = Math.floor(slot / SLOTS_PER_EPOCH);
    const slotsIntoEpoch = slot - epoch * SLOTS_PER_EPOCH;
    const epochStart = this.currentBlockTime - Math.floor((slotsIntoEpoch * this.slotDurationMs) / 1000);
    this.runtime.setClock({
      slot,
      epoch,
      epochStartTimestamp: epochStart,
      unixTimestamp: this.currentBlockTime,
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Blockhashes and fees

  /**
   * The newest slot at a commitment: `processed` is the slot being produced; `confirmed` the last
   * complete one (its block will not change, and the ledger holds it: a slot lasts far longer than
   * a group commit); `finalized` lags by the finalization depth, as a root does.
   */
  slotAt(commitment: CommitmentLevel): number {
    if (commitment === 'processed') return this.currentSlot;
    if (commitment === 'confirmed' && this.currentSlotConfirmed()) return this.currentSlot;
    return Math.max(0, this.currentSlot - (commitment === 'finalized' ? this.finalizationDepth : 1));
  }

  /**
   * Whether a transaction of the current slot already reads as confirmed: then so does the slot,
   * as on a validator, where a transaction is confirmed only with its block (issue 29, item 2).
   */
  private currentSlotConfirmed(): boolean {
    if (this.currentSlotFirstSeq === -1) return false;
    return this.ledger === null || this.currentSlotFirstSeq <= this.ledger.durableSeq;
  }

  /** Whether a logged transaction is on disk (what makes it confirmed). */
  private isDurableRecord(stored: StoredTransaction): boolean {
    return this.ledger === null || stored.seq <= this.ledger.durableSeq;
  }

  /** The newest blockhash at a commitment and the last block height at which it is accepted. */
  getLatestBlockhash(commitment: CommitmentLevel = 'processed'): {
    blockhash: string;
    lastValidBlockHeight: bigint;
  } {
    const latest =
      commitment === 'processed'
        ? this.blockhashes.latest()
        : this.blockhashes.hashForSlot(this.slotAt(commitment));
    return { blockhash: latest.blockhash, lastValidBlockHeight: BigInt(latest.slot + MAX_PROCESSING_AGE) };
  }

  /** Whether a transaction with this recent blockhash would still be accepted. */
  isBlockhashValid(blockhash: string): boolean {
    return this.blockhashes.findByText(blockhash) !== undefined;
  }

  /** The fee for a message, or null when its blockhash has expired (as getFeeForMessage answers). */
  getFeeForMessage(message: WireTransaction): bigint | null {
    if (this.lifetimeOf(message) === null) return null;
    return calculateTransactionFee(message);
  }

  /**
   * What keeps a transaction valid: a recent blockhash, or a durable nonce its first instruction
   * advances (the nonce account's address); null when neither holds.
   */
  private lifetimeOf(
    transaction: WireTransaction,
  ): 'recent' | { nonceAccount: string; setThisSlot: boolean } | null {
    if (this.blockhashes.findByBytes(transaction.bytes, transaction.blockhashOffset) !== undefined)
      return 'recent';
    const nonceAccount = durableNonceAccountOf(
      transaction,
      (key) => this.runtime.addressOf(key),
      (accountAddress) => this.runtime.getAccount(accountAddress),
    );
    if (nonceAccount === null) return null;
    // A nonce set this slot would advance to the value it holds, which Agave refuses. A validator's
    // client cannot get there (confirming the nonce's transaction outlasts its slot); here it can,
    // so the sender ends the slot first (see sendTransaction).
    const next = durableNonceFromBlockhash(this.blockhashes.latest().bytes);
    const used = transaction.bytes.subarray(transaction.blockhashOffset, transaction.blockhashOffset + 32);
    return { nonceAccount, setThisSlot: Buffer.compare(Buffer.from(next), Buffer.from(used)) === 0 };
  }

  /** The blockhash a transaction stores as a nonce value: the bank's, the next slot's when it must. */
  private nonceBlockhash(nextSlot: boolean): Uint8Array {
    return nextSlot
      ? this.blockhashes.hashForSlot(this.currentSlot + 1).bytes
      : this.blockhashes.latest().bytes;
  }

  /**
   * The bytes to execute when they differ from the wire bytes: a transaction that stores a nonce
   * value runs with the bank's blockhash, as on a validator (see durable-nonce.ts); null when its
   * signatures do not verify.
   */
  private executedBytesOf(transaction: WireTransaction): Uint8Array | undefined | null {
    if (!setsNonceValue(transaction, (key) => this.runtime.addressOf(key))) return undefined;
    if (!signaturesVerify(transaction)) return null;
    return withBlockhash(transaction, this.nonceBlockhash(false));
  }

  /**
   * Advances a nonce whose transaction failed but is committed (its fee charged): a validator
   * advances it all the same, so the failed transaction's nonce value cannot be used again.
   */
  private advanceNonceOfFailed(nonceAccount: string): void {
    const account = this.runtime.getAccount(nonceAccount);
    if (account === null) return;
    const data = new Uint8Array(account.data);
    data.set(durableNonceFromBlockhash(this.nonceBlockhash(false)), 40);
    this.runtime.writeAccount([
      nonceAccount,
      account.lamports.toString(),
      account.owner,
      account.executable ? 1 : 0,
      toBase64(data),
      account.rentEpoch.toString(),
    ]);
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.runtime.minimumBalanceForRentExemption(dataLength);
  }

  // ---------------------------------------------------------------------------------------------
  // Accounts

  getAccount(address: string): AccountView | null {
    return this.runtime.getAccount(address);
  }

  getBalance(address: string): bigint {
    return this.runtime.getBalance(address);
  }

  /** Every account owned by `programId`. */
  getProgramAccounts(programId: string): AccountView[] {
    return this.runtime.getProgramAccounts(programId);
  }

  /** Decimals of a mint, or undefined when the account is not a mint. */
  getMintDecimals(mint: string): number | undefined {
    return this.runtime.getMintDecimals(mint);
  }

  /**
   * Writes an account outside any transaction (tests and tooling; real clusters cannot do this).
   * Persisted like a transaction's writes. Zero lamports deletes the account.
   */
  setAccount(account: {
    address: string;
    lamports: bigint;
    owner?: string;
    data?: Uint8Array;
    executable?: boolean;
  }): void {
    const state: AccountStateTuple = [
      account.address,
      account.lamports.toString(),
      account.owner ?? SYSTEM_PROGRAM_ID,
      account.executable === true ? 1 : 0,
      toBase64(account.data ?? new Uint8Array(0)),
      RENT_EXEMPT_EPOCH.toString(),
    ];
    this.runtime.writeAccount(state);
    this.ledger?.appendAccounts([state]);
  }

  // ---------------------------------------------------------------------------------------------
  // Transactions

  /**
   * Executes a wire transaction (bytes, or already parsed). Expected failures are values
   * ({@link SendOutcome}); malformed bytes throw `WireFormatError`.
   */
  sendTransaction(input: Uint8Array | WireTransaction, options: SendOptions = {}): SendOutcome {
    if (this.closed) throw new Error('the cluster is closed');
    const transaction = input instanceof Uint8Array ? parseWireTransaction(input) : input;
    const bytes = transaction.bytes;
    const signature = encodeBase58(transaction.signatures[0]!);
    let lifetime = this.lifetimeOf(transaction);
    if (lifetime === null) return rejected(signature, 'BlockhashNotFound');
    if (this.transactions.has(signature)) return rejected(signature, 'AlreadyProcessed');
    // Slot 0 is the genesis block, which holds no transaction on a validator: the first
    // transaction of a new cluster ends it (the clock waits for the wall to catch up).
    if (this.currentSlot === 0) this.advanceSlots(1);
    if (lifetime !== 'recent' && lifetime.setThisSlot) {
      // Its nonce was set this slot: end the slot (the clock waits for the wall to catch up).
      this.advanceSlots(1);
      lifetime = this.lifetimeOf(transaction);
      if (lifetime === null) return rejected(signature, 'BlockhashNotFound');
    }
    const resolved = this.runtime.resolveAccountKeys(transaction);
    if (!('keys' in resolved)) return rejected(signature, resolved.err);
    const executedBytes = this.executedBytesOf(transaction);
    if (executedBytes === null) return rejected(signature, 'SignatureFailure');
    const pre = this.runtime.readPreState(resolved, transaction);
    const { meta, err } = this.runtime.execute(transaction, executedBytes);
    // A failure is committed only when preflight is skipped and the runtime charged the fee;
    // otherwise nothing may change, so undo the fee LiteSVM may have taken.
    if (err !== null && (options.skipPreflight !== true || !this.runtime.wasFeeCharged(resolved, pre))) {
      this.runtime.rollback(resolved, pre);
      return { kind: 'rejected', signature, ...this.runtime.report(meta, err, resolved), err };
    }
    if (err !== null && lifetime !== 'recent') this.advanceNonceOfFailed(lifetime.nonceAccount);
    const post = this.runtime.readPostState(resolved, pre);
    const report = this.runtime.report(meta, err, resolved);
    const record: TransactionRecord = {
      signature,
      slot: this.currentSlot,
      blockTime: this.currentBlockTime,
      err,
      fee: post.fee.toString(),
      logs: report.logs,
      transaction: options.base64 ?? toBase64(bytes),
      loadedAddresses: resolved.loadedAddresses,
      preBalances: pre.lamports.map(String),
      postBalances: post.postBalances,
      preTokenBalances: pre.tokenBalances,
      postTokenBalances: post.postTokenBalances,
      computeUnitsConsumed: Number(report.unitsConsumed),
      innerInstructions: report.innerInstructions,
      returnData: report.returnData,
    };
    const seq = this.ledger?.appendTransaction(record, post.states) ?? 0;
    if (this.currentSlotFirstSeq === -1) this.currentSlotFirstSeq = seq;
    const writable = resolved.addresses.filter((_, index) => resolved.writable[index]);
    this.indexTransaction(record, seq, resolved.addresses, {
      unitPrice: computeUnitPrice(transaction, (index) => resolved.addresses[index]),
      writable,
    });
    this.processedCount += 1;
    this.tellListeners((listener) => listener.committed?.(record, resolved.addresses, writable));
    return { kind: 'committed', signature, record };
  }

  /** Simulates without committing anything, as simulateTransaction does. */
  simulateTransaction(input: Uint8Array | WireTransaction, options: SimulateOptions = {}): SimulationResult {
    const transaction = input instanceof Uint8Array ? parseWireTransaction(input) : input;
    const bytes = transaction.bytes;
    let executed = bytes;
    let replacement: RecentBlockhash | null = null;
    if (options.replaceRecentBlockhash === true) {
      replacement = this.blockhashes.latest();
      executed = new Uint8Array(bytes);
      executed.set(replacement.bytes, transaction.blockhashOffset);
    } else if (this.lifetimeOf(transaction) === null) {
      return { ...this.runtime.emptySimulation('BlockhashNotFound'), replacementBlockhash: null };
    }
    let sigVerify = options.sigVerify === true;
    if (replacement === null && setsNonceValue(transaction, (key) => this.runtime.addressOf(key))) {
      if (sigVerify && !signaturesVerify(transaction)) {
        return { ...this.runtime.emptySimulation('SignatureFailure'), replacementBlockhash: null };
      }
      const lifetime = this.lifetimeOf(transaction);
      const nextSlot = lifetime !== null && lifetime !== 'recent' && lifetime.setThisSlot;
      executed = withBlockhash(transaction, this.nonceBlockhash(nextSlot));
      sigVerify = false;
    }
    const simulation = this.runtime.simulate(transaction, executed, sigVerify);
    return {
      ...simulation,
      replacementBlockhash:
        replacement === null
          ? null
          : {
              blockhash: replacement.blockhash,
              lastValidBlockHeight: BigInt(replacement.slot + MAX_PROCESSING_AGE),
            },
    };
  }

  /**
   * Sends `lamports` from the treasury to `recipient` in a real, signed transfer (so it appears in
   * the signature log like any transaction) and returns its signature. As a validator's faucet
   * does: a legacy transaction holding one System transfer, sent without preflight, so a transfer
   * that fails on chain (below rent exemption for a new account) is committed with its error and
   * its signature returned. Identical requests get distinct transactions by taking the newest
   * blockhash that makes the signature new (ending the slot when none does).
   */
  async requestAirdrop(recipient: string, lamports: bigint): Promise<string> {
    if (lamports <= 0n) throw new AirdropError('airdrop amount must be positive');
    const instruction = getTransferSolInstruction({
      source: this.treasury,
      destination: address(recipient),
      amount: lamports,
    });
    const newest = this.currentSlot;
    const oldest = Math.max(this.history.firstRunSlot, newest - MAX_PROCESSING_AGE + 1);
    for (let slot = newest; ; slot -= 1) {
      if (slot < oldest) {
        // Every blockhash of this run carries the same transfer: end the slot for a new one.
        this.advanceSlots(1);
        slot = this.currentSlot;
      }
      const recent = this.blockhashes.hashForSlot(slot);
      const message = pipe(
        createTransactionMessage({ version: 'legacy' }),
        (draft) => setTransactionMessageFeePayerSigner(this.treasury, draft),
        (draft) =>
          setTransactionMessageLifetimeUsingBlockhash(
            {
              blockhash: toBlockhash(recent.blockhash),
              lastValidBlockHeight: BigInt(recent.slot + MAX_PROCESSING_AGE),
            },
            draft,
          ),
        (draft) => appendTransactionMessageInstructions([instruction], draft),
      );
      const signed = await signTransactionMessageWithSigners(message);
      if (this.transactions.has(getSignatureFromTransaction(signed))) continue;
      const bytes = new Uint8Array(getTransactionEncoder().encode(signed));
      const outcome = this.sendTransaction(bytes, { skipPreflight: true });
      if (outcome.kind === 'rejected') {
        throw new AirdropError(`airdrop transfer failed: ${JSON.stringify(outcome.err)}`);
      }
      return outcome.signature;
    }
  }

  /** The signature-log entry of a transaction, if the cluster processed it. */
  getTransactionRecord(signature: string): TransactionRecord | undefined {
    return this.transactions.get(signature)?.record;
  }

  /** getSignatureStatuses for one signature: null when the cluster never processed it. */
  getSignatureStatus(signature: string): SignatureStatus | null {
    const stored = this.transactions.get(signature);
    if (stored === undefined) return null;
    const { slot, err } = stored.record;
    const age = this.currentSlot - slot;
    if (!this.isDurableRecord(stored))
      return { slot, confirmations: age, err, confirmationStatus: 'processed' };
    if (age >= this.finalizationDepth)
      return { slot, confirmations: null, err, confirmationStatus: 'finalized' };
    return { slot, confirmations: age, err, confirmationStatus: 'confirmed' };
  }

  /** Newest-first signatures of transactions that referenced `address`. */
  getSignaturesForAddress(
    accountAddress: string,
    options: { limit?: number; before?: string; until?: string } = {},
  ): TransactionRecord[] {
    const signatures = this.signaturesByAddress.get(accountAddress) ?? [];
    const limit = options.limit ?? 1000;
    const out: TransactionRecord[] = [];
    let index = signatures.length - 1;
    if (options.before !== undefined) {
      const position = signatures.lastIndexOf(options.before);
      index = position === -1 ? -1 : position - 1;
    }
    for (; index >= 0 && out.length < limit; index -= 1) {
      const signature = signatures[index]!;
      if (signature === options.until) break;
      out.push(this.transactions.get(signature)!.record);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Blocks

  /**
   * A block with its transactions in execution order, or why there is none at that slot. With
   * `confirmedOnly`, the current slot's block holds only its transactions that read as confirmed.
   */
  getBlock(slot: number, options: { confirmedOnly?: boolean } = {}): BlockView | MissingBlock {
    const missing = this.missingBlock(slot);
    if (missing !== undefined) return missing;
    const stored = this.history.signaturesIn(slot).map((signature) => this.transactions.get(signature)!);
    const transactions = (
      options.confirmedOnly === true && slot === this.currentSlot
        ? stored.filter((entry) => this.isDurableRecord(entry))
        : stored
    ).map((entry) => entry.record);
    const parentSlot = this.history.parentOf(slot);
    return {
      slot,
      parentSlot,
      blockhash: this.blockhashes.hashForSlot(slot).blockhash,
      previousBlockhash: this.blockhashes.hashForSlot(parentSlot).blockhash,
      blockTime: this.blockTimeOf(slot)!,
      transactions,
    };
  }

  /** Why `slot` has no block to show, or undefined when it has one. */
  missingBlock(slot: number): MissingBlock | undefined {
    if (slot > this.currentSlot) return 'not-available';
    if (slot < this.history.firstAvailableBlock()) return 'cleaned-up';
    if (!this.history.isBlock(slot)) return 'skipped';
    return undefined;
  }

  /** Unix time of a block, or undefined when the slot is not one. */
  blockTimeOf(slot: number): number | undefined {
    return this.history.blockTime(slot, (signature) => this.transactions.get(signature)!.record.blockTime);
  }

  /** Blocks in `start..end` (inclusive), ascending, at most `limit`. */
  getBlocks(start: number, end: number, limit?: number): number[] {
    return this.history.blocksBetween(start, end, limit);
  }

  /** How many blocks `start..end` (inclusive) holds. */
  countBlocks(start: number, end: number): number {
    return this.history.countBetween(start, end);
  }

  /** The oldest block the cluster can still describe. */
  get firstAvailableBlock(): number {
    return this.history.firstAvailableBlock();
  }

  /** The lowest compute-unit price per recent slot (see {@link BlockHistory.prioritizationFees}). */
  getRecentPrioritizationFees(accounts: readonly string[]): { slot: number; prioritizationFee: bigint }[] {
    return this.history.prioritizationFees(this.currentSlot, accounts);
  }

  /** Whether the cluster can accept transactions (false once a ledger write failed). */
  isHealthy(): boolean {
    return !this.closed && this.ledger?.error === undefined;
  }

  /** Whether everything committed so far is on disk (confirmed, in RPC terms). */
  get isDurable(): boolean {
    return this.ledger === null || this.ledger.isDurable;
  }

  /** Resolves once everything committed so far is on disk. */
  async flush(): Promise<void> {
    await this.ledger?.flush();
  }

  /** Stops the clock, records the slot and flushes the ledger. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.stopSlotClock();
    this.ledger?.appendSlot(this.currentSlot);
    this.closed = true;
    try {
      await this.ledger?.close();
    } finally {
      await this.unlock();
    }
  }

  private indexTransaction(
    record: TransactionRecord,
    seq: number,
    accountKeys: readonly string[],
    fees: { unitPrice: bigint; writable: readonly string[] } | undefined,
  ): void {
    this.transactions.set(record.signature, { record, seq });
    this.history.addTransaction(record.slot, record.signature, fees?.unitPrice, fees?.writable);
    // Keys of a sanitized transaction are unique (a duplicate fails with AccountLoadedTwice).
    for (const key of accountKeys) {
      let list = this.signaturesByAddress.get(key);
      if (list === undefined) {
        list = [];
        this.signaturesByAddress.set(key, list);
      }
      list.push(record.signature);
    }
  }

  /** Every account key of a logged transaction: static keys then loaded ones. */
  private accountKeysOf(record: TransactionRecord): string[] {
    const transaction = parseWireTransaction(Buffer.from(record.transaction, 'base64'));
    return [
      ...transaction.staticAccountKeys.map((key) => this.runtime.addressOf(key)),
      ...record.loadedAddresses.writable,
      ...record.loadedAddresses.readonly,
    ];
  }
}

function rejected(signature: string, err: TransactionErrorJson): SendOutcome {
  return {
    kind: 'rejected',
    signature,
    err,
    logs: [],
    unitsConsumed: 0n,
    innerInstructions: [],
    returnData: null,
  };
}
