/**
 * What the local cluster remembers of its past: the signature log (with replay protection and
 * each signature's commitment) and the blocks it produced. `LocalCluster` builds on this.
 */
import { ClusterClock } from './cluster-clock';
import type { BlockView, MissingBlock, SignatureStatus } from './cluster-types';
import type { TransactionRecord } from './ledger';
import { parseWireTransaction } from './wire-transaction';

export interface StoredTransaction {
  readonly record: TransactionRecord;
  /** Ledger sequence number; durable once the ledger's durableSeq reaches it. */
  readonly seq: number;
}

/** @internal the signatures and blocks of a {@link LocalCluster}. */
export abstract class ClusterHistory extends ClusterClock {
  protected readonly transactions = new Map<string, StoredTransaction>();
  /** Committed transactions not yet known durable, oldest first (trimmed as the ledger catches up). */
  private unconfirmed: { seq: number; slot: number }[] = [];
  private readonly signaturesByAddress = new Map<string, string[]>();

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

  /**
   * getSignatureStatuses for one signature as a validator's RPC reports it: once its block is
   * confirmed (durable here), never while it is only `processed`. A validator's `processed` bank
   * is the last complete block it voted on, so a transaction's status appears a block after it was
   * sent; here execution answers `sendTransaction`, and a status readable before the ledger holds
   * the transaction reached web3.js's check right after it subscribed (and `confirmTransaction`
   * threw a failed transaction's error instead of answering it). Null until then.
   */
  getReportedSignatureStatus(signature: string): SignatureStatus | null {
    const status = this.getSignatureStatus(signature);
    return status === null || status.confirmationStatus === 'processed' ? null : status;
  }

  /**
   * Resolves once a committed transaction's status is reported ({@link getReportedSignatureStatus}),
   * in the turn that makes it durable; at once when it already is or was never committed. Rejects
   * when the ledger failed (then nothing becomes confirmed).
   */
  async whenReported(signature: string): Promise<void> {
    const stored = this.transactions.get(signature);
    if (stored === undefined || this.isDurableRecord(stored)) return;
    await this.ledger!.whenDurable(stored.seq);
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

  protected oldestUnconfirmedSlot(): number {
    const durable = this.ledger?.durableSeq ?? Infinity;
    let drop = 0;
    while (drop < this.unconfirmed.length && this.unconfirmed[drop]!.seq <= durable) drop += 1;
    if (drop > 0) this.unconfirmed = this.unconfirmed.slice(drop);
    return this.unconfirmed[0]?.slot ?? Infinity;
  }

  /** Whether a logged transaction is on disk (what makes it confirmed). */
  protected isDurableRecord(stored: StoredTransaction): boolean {
    return this.ledger === null || stored.seq <= this.ledger.durableSeq;
  }

  protected indexTransaction(
    record: TransactionRecord,
    seq: number,
    accountKeys: readonly string[],
    fees: { unitPrice: bigint; writable: readonly string[] } | undefined,
  ): void {
    this.transactions.set(record.signature, { record, seq });
    if (this.ledger !== null && seq > this.ledger.durableSeq)
      this.unconfirmed.push({ seq, slot: record.slot });
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
  protected accountKeysOf(record: TransactionRecord): string[] {
    const transaction = parseWireTransaction(Buffer.from(record.transaction, 'base64'));
    return [
      ...transaction.staticAccountKeys.map((key) => this.runtime.addressOf(key)),
      ...record.loadedAddresses.writable,
      ...record.loadedAddresses.readonly,
    ];
  }
}
