/**
 * Block production of the local cluster: the slot clock (one slot per `slotDurationMs` of wall
 * time), the queue of recent blockhashes that expire after 150 slots, the Clock and SlotHashes
 * sysvars, the listeners that hear each slot, performance samples, and what keeps a transaction
 * valid (a recent blockhash or a durable nonce). `LocalCluster` builds on this.
 */
import { BlockHistory } from './block-history';
import { BlockhashQueue, MAX_PROCESSING_AGE } from './blockhash-queue';
import {
  AHEAD_SLOT_STRETCH,
  DEFAULT_FINALIZATION_DEPTH,
  DEFAULT_SLOT_DURATION_MS,
  MAX_SEALED_SLOT_LEAD,
  SLOTS_PER_EPOCH,
  type ClusterListener,
  type CommitmentLevel,
  type LocalClusterOptions,
  type PerformanceSample,
} from './cluster-types';
import {
  durableNonceAccountOf,
  durableNonceFromBlockhash,
  setsNonceValue,
  signaturesVerify,
  withBlockhash,
} from './durable-nonce';
import { calculateTransactionFee, LAMPORTS_PER_SIGNATURE } from './fees';
import type { Ledger } from './ledger';
import { MAX_RECENT_BLOCKHASHES } from './svm-accounts';
import { SvmRuntime, toBase64 } from './svm-runtime';
import type { WireTransaction } from './wire-transaction';

/** A slot marker is logged every this many slots; a restart resumes past the last marker. */
export const SLOT_MARKER_INTERVAL = 25;
/** Entries of the SlotHashes sysvar, as on mainnet. */
const MAX_SLOT_HASHES = 512;
const PERFORMANCE_SAMPLE_MS = 60_000;
const MAX_PERFORMANCE_SAMPLES = 720;
/** Node's longest timer; a longer delay would fire at once. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** What keeps a transaction valid: a recent blockhash, or a durable nonce (null: neither). */
export type TransactionLifetime = 'recent' | { nonceAccount: string; setThisSlot: boolean } | null;

/** @internal the slots and blockhashes of a {@link LocalCluster}. */
export abstract class ClusterClock {
  /** Milliseconds per slot. */
  readonly slotDurationMs: number;

  protected readonly runtime = new SvmRuntime();
  protected readonly blockhashes: BlockhashQueue;
  protected readonly history = new BlockHistory();
  /** The SlotHashes sysvar's entries, newest first. */
  private slotHashes: { slot: bigint; hash: string }[] = [];
  protected readonly finalizationDepth: number;
  protected readonly now: () => number;
  protected currentSlot = 0;
  protected currentBlockTime = 0;
  /** Wall time (ms) at which the current slot began. */
  private currentSlotStartedAt = 0;
  /** Ledger sequence number of the current slot's first transaction (-1: none yet). */
  protected currentSlotFirstSeq = -1;
  protected processedCount = 0;
  private slotTimer: NodeJS.Timeout | undefined;
  /** The slot whose end waits for its transactions to be durable (-1: none). */
  private sealScheduledFor = -1;
  /** Where the auto clock started: the wall's slot is counted from here. */
  private wallOrigin: { at: number; slot: number } | undefined;
  protected closed = false;
  private readonly listeners = new Set<ClusterListener>();
  /** getRecentPerformanceSamples: one sample per minute of wall time, newest last (12 hours kept). */
  private readonly samples: PerformanceSample[] = [];
  private sampleStart: { at: number; slot: number; transactions: number } | undefined;

  constructor(
    protected readonly options: LocalClusterOptions,
    blockhashSeed: Uint8Array,
    protected readonly ledger: Ledger | null,
  ) {
    this.slotDurationMs = options.slotDurationMs ?? DEFAULT_SLOT_DURATION_MS;
    if (!(this.slotDurationMs > 0)) throw new RangeError('slotDurationMs must be positive');
    this.finalizationDepth = options.finalizationDepth ?? DEFAULT_FINALIZATION_DEPTH;
    this.now = options.now ?? Date.now;
    this.blockhashes = new BlockhashQueue(blockhashSeed);
  }

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

  /** Advances the clock by `count` slots (tests drive the clock with this). */
  advanceSlots(count = 1): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
    if (count === 0) return;
    this.endingSlot();
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

  /** Called as the current slot ends, before the clock moves: the last commits of the slot go here. */
  protected endingSlot(): void {}

  /** Whether the auto clock is running (the slot ends by itself; tests' manual clocks never do). */
  protected get slotClockRunning(): boolean {
    return this.slotTimer !== undefined;
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
  protected tellListeners(call: (listener: ClusterListener) => void): void {
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

  /**
   * Starts advancing one slot per `slotDurationMs` of wall time (catching up after stalls). Ahead of
   * the wall (slots ended early, see {@link scheduleSeal}) a slot lasts {@link AHEAD_SLOT_STRETCH}
   * slot durations rather than none until the wall catches up: a validator's slots never pause.
   */
  startSlotClock(): void {
    if (this.slotTimer !== undefined || this.closed) return;
    this.wallOrigin = { at: this.now(), slot: this.currentSlot };
    this.currentSlotStartedAt = this.wallOrigin.at;
    this.armSlotTimer();
  }

  private armSlotTimer(): void {
    const delay = Math.min(MAX_TIMER_DELAY_MS, Math.max(1, this.nextSlotDue() - this.now()));
    this.slotTimer = setTimeout(() => this.slotTick(), delay);
    this.slotTimer.unref();
  }

  /** When the auto clock ends the current slot: at the wall's next slot, or stretched when ahead. */
  private nextSlotDue(): number {
    const origin = this.wallOrigin!;
    const wallNext = origin.at + (this.currentSlot + 1 - origin.slot) * this.slotDurationMs;
    return Math.min(wallNext, this.currentSlotStartedAt + AHEAD_SLOT_STRETCH * this.slotDurationMs);
  }

  private slotTick(): void {
    if (this.closed || this.slotTimer === undefined) return;
    const target = this.wallSlot();
    if (target > this.currentSlot) this.advanceSlots(target - this.currentSlot);
    else if (this.now() >= this.nextSlotDue()) this.advanceSlots(1);
    else if (this.currentSlotConfirmed()) this.sealConfirmedSlot(this.currentSlot);
    this.armSlotTimer();
  }

  /** The slot the wall clock has reached (the auto clock's target; the current slot when manual). */
  private wallSlot(): number {
    const origin = this.wallOrigin;
    if (origin === undefined) return this.currentSlot;
    return origin.slot + Math.floor((this.now() - origin.at) / this.slotDurationMs);
  }

  /** Whether this clock ends a slot once one of its transactions is confirmed. */
  protected get sealsConfirmedSlots(): boolean {
    return this.options.sealConfirmedSlots ?? (this.options.slotClock ?? 'auto') === 'auto';
  }

  /**
   * Ends the current slot once its transactions so far are confirmed (durable), if it is still the slot being
   * produced: on a validator a transaction reads `confirmed` only when its block is complete, so
   * `getSlot('confirmed')` has reached it, its block is readable and final at `confirmed`, and the
   * next `getLatestBlockhash` is a new one (issue 29, item 2). The clock then lets the wall catch
   * up with stretched slots (see {@link startSlotClock}); past {@link MAX_SEALED_SLOT_LEAD} slots
   * ahead it stops ending slots early (the open slot then reads as confirmed, see {@link slotAt}),
   * so a burst of transactions cannot shorten a blockhash's life by more than that.
   */
  protected scheduleSeal(): void {
    if (!this.sealsConfirmedSlots || this.sealScheduledFor === this.currentSlot) return;
    const slot = this.currentSlot;
    this.sealScheduledFor = slot;
    this.ledgerFlushed().then(
      () => {
        // Not ended (too far ahead of the wall): the slot's next commit, or the timer, tries again.
        if (this.sealScheduledFor === slot) this.sealScheduledFor = -1;
        this.sealConfirmedSlot(slot);
      },
      () => undefined,
    );
  }

  /** Resolves once everything committed so far is durable (at once without a ledger). */
  private async ledgerFlushed(): Promise<void> {
    await this.ledger?.flush();
  }

  private sealConfirmedSlot(slot: number): void {
    if (this.closed || slot !== this.currentSlot || !this.sealsConfirmedSlots) return;
    if (this.currentSlot - this.wallSlot() >= MAX_SEALED_SLOT_LEAD) return;
    this.advanceSlots(1);
  }

  stopSlotClock(): void {
    if (this.slotTimer !== undefined) clearTimeout(this.slotTimer);
    this.slotTimer = undefined;
  }

  protected setSlot(slot: number): void {
    const first = this.history.firstRunSlot === -1;
    const from = first ? slot : this.currentSlot + 1;
    this.currentSlot = slot;
    this.currentSlotFirstSeq = -1;
    this.currentSlotStartedAt = this.now();
    // The wall's second, never earlier than the previous slot's (should the wall step back).
    this.currentBlockTime = Math.max(this.currentBlockTime, Math.floor(this.currentSlotStartedAt / 1000));
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
    this.runtime.setRecentBlockhashes(
      this.blockhashes.newest(MAX_RECENT_BLOCKHASHES).map((entry) => entry.bytes),
      LAMPORTS_PER_SIGNATURE,
    );
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
    const complete = this.currentSlotConfirmed() ? this.currentSlot : this.currentSlot - 1;
    // Never past a slot whose transactions are not all durable (a disk write slower than a slot):
    // a confirmed slot's transactions are all reported (see getReportedSignatureStatus).
    const confirmed = Math.max(0, Math.min(complete, this.oldestUnconfirmedSlot() - 1));
    if (commitment === 'confirmed') return confirmed;
    return Math.max(0, Math.min(this.currentSlot - this.finalizationDepth, confirmed));
  }

  /** The slot of the oldest transaction not yet durable (Infinity when all are). */
  protected abstract oldestUnconfirmedSlot(): number;

  /**
   * Whether a transaction of the current slot already reads as confirmed: then so does the slot,
   * as on a validator, where a transaction is confirmed only with its block (issue 29, item 2).
   */
  private currentSlotConfirmed(): boolean {
    if (this.currentSlotFirstSeq === -1) return false;
    return this.ledger === null || this.currentSlotFirstSeq <= this.ledger.durableSeq;
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
  protected lifetimeOf(transaction: WireTransaction): TransactionLifetime {
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
  protected nonceBlockhash(nextSlot: boolean): Uint8Array {
    return nextSlot
      ? this.blockhashes.hashForSlot(this.currentSlot + 1).bytes
      : this.blockhashes.latest().bytes;
  }

  /**
   * The bytes to execute when they differ from the wire bytes: a transaction that stores a nonce
   * value runs with the bank's blockhash, as on a validator (see durable-nonce.ts); null when its
   * signatures do not verify.
   */
  protected executedBytesOf(transaction: WireTransaction): Uint8Array | undefined | null {
    if (!setsNonceValue(transaction, (key) => this.runtime.addressOf(key))) return undefined;
    if (!signaturesVerify(transaction)) return null;
    return withBlockhash(transaction, this.nonceBlockhash(false));
  }

  /**
   * Advances a nonce whose transaction failed but is committed (its fee charged): a validator
   * advances it all the same, so the failed transaction's nonce value cannot be used again.
   */
  protected advanceNonceOfFailed(nonceAccount: string): void {
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
}
