/**
 * Which slots are blocks, when each was produced and which transactions it holds — what getBlock,
 * getBlocks, getBlockTime and getRecentPrioritizationFees answer from.
 *
 * This cluster produces a block in every slot while it runs (so block height equals the slot). Of
 * earlier runs the ledger keeps only the slots that held transactions: the empty slots of a
 * previous run, and the slots between two runs, are reported as skipped, as a validator reports
 * slots missing from its ledger. Times of empty blocks are kept for the last {@link TIME_WINDOW}
 * slots (~58 hours at 400 ms); blocks with transactions keep theirs as long as the ledger does.
 */

/** Slots whose time an empty block remembers (a power of two: the ring is indexed by slot). */
export const TIME_WINDOW = 1 << 19;
/** Slots whose prioritization fees are kept (getRecentPrioritizationFees answers this many). */
export const PRIORITIZATION_FEE_SLOTS = 150;

/** The compute-unit prices of one slot's transactions: the lowest, and the lowest per writable account. */
interface SlotFees {
  min: bigint;
  readonly byWritable: Map<string, bigint>;
}

export class BlockHistory {
  private readonly times = new Uint32Array(TIME_WINDOW);
  /** Slots that hold transactions, ascending. */
  private readonly transactionSlots: number[] = [];
  private readonly signaturesBySlot = new Map<number, string[]>();
  private readonly fees = new Map<number, SlotFees>();
  private runStart = -1;
  private newest = -1;

  /** First slot of this run: every slot from here to the newest is a block. */
  get firstRunSlot(): number {
    return this.runStart;
  }

  /** Records that the clock moved through `from..to` (inclusive) at `unixTime`. */
  recordSlots(from: number, to: number, unixTime: number): void {
    if (this.runStart === -1) this.runStart = from;
    for (let slot = Math.max(from, to - TIME_WINDOW + 1); slot <= to; slot += 1) {
      this.times[slot & (TIME_WINDOW - 1)] = unixTime;
    }
    this.newest = Math.max(this.newest, to);
    for (const slot of this.fees.keys()) {
      if (slot > to - PRIORITIZATION_FEE_SLOTS) break;
      this.fees.delete(slot);
    }
  }

  /**
   * Records a committed transaction in its slot's block (slots arrive in ascending order), with
   * its compute-unit price (micro-lamports) and the accounts it write-locked.
   */
  addTransaction(slot: number, signature: string, unitPrice?: bigint, writable?: readonly string[]): void {
    let signatures = this.signaturesBySlot.get(slot);
    if (signatures === undefined) {
      signatures = [];
      this.signaturesBySlot.set(slot, signatures);
      this.transactionSlots.push(slot);
    }
    signatures.push(signature);
    if (unitPrice === undefined || slot <= this.newest - PRIORITIZATION_FEE_SLOTS) return;
    let fees = this.fees.get(slot);
    if (fees === undefined) {
      fees = { min: unitPrice, byWritable: new Map() };
      this.fees.set(slot, fees);
    } else if (unitPrice < fees.min) fees.min = unitPrice;
    for (const key of writable ?? []) {
      const current = fees.byWritable.get(key);
      if (current === undefined || unitPrice < current) fees.byWritable.set(key, unitPrice);
    }
  }

  /** Whether `slot` (at most the newest) is a block this cluster can still describe. */
  isBlock(slot: number): boolean {
    if (slot < 0 || slot > this.newest) return false;
    return this.signaturesBySlot.has(slot) || this.remembersEmpty(slot);
  }

  /** Signatures of a block's transactions in execution order. */
  signaturesIn(slot: number): readonly string[] {
    return this.signaturesBySlot.get(slot) ?? [];
  }

  /** Unix time of a block (undefined when `slot` is not one). */
  blockTime(slot: number, transactionTime: (signature: string) => number): number | undefined {
    if (this.remembersEmpty(slot)) return this.times[slot & (TIME_WINDOW - 1)];
    const signatures = this.signaturesBySlot.get(slot);
    return signatures === undefined ? undefined : transactionTime(signatures[0]!);
  }

  /** The block before `slot`: the previous slot, or across a gap the last slot with transactions. */
  parentOf(slot: number): number {
    if (slot <= 0) return 0;
    if (this.isBlock(slot - 1)) return slot - 1;
    const index = lastIndexBelow(this.transactionSlots, slot);
    return index === -1 ? Math.max(0, slot - 1) : this.transactionSlots[index]!;
  }

  /** The oldest block this cluster can describe. */
  firstAvailableBlock(): number {
    const firstEmpty = Math.max(this.runStart, this.newest - TIME_WINDOW + 1, 0);
    const firstWithTransactions = this.transactionSlots[0];
    return firstWithTransactions === undefined ? firstEmpty : Math.min(firstEmpty, firstWithTransactions);
  }

  /** Blocks in `start..end` (inclusive), ascending, at most `limit` of them. */
  blocksBetween(start: number, end: number, limit = Number.POSITIVE_INFINITY): number[] {
    const out: number[] = [];
    const last = Math.min(end, this.newest);
    const emptyFrom = Math.max(this.runStart, this.newest - TIME_WINDOW + 1, start);
    let index = lastIndexBelow(this.transactionSlots, start) + 1;
    // Slots with transactions before the remembered window, then every slot of the window.
    while (out.length < limit && index < this.transactionSlots.length) {
      const slot = this.transactionSlots[index]!;
      if (slot >= emptyFrom || slot > last) break;
      out.push(slot);
      index += 1;
    }
    for (let slot = emptyFrom; slot <= last && out.length < limit; slot += 1) out.push(slot);
    return out;
  }

  /** How many blocks `start..end` holds, without listing them. */
  countBetween(start: number, end: number): number {
    const last = Math.min(end, this.newest);
    if (last < start) return 0;
    const emptyFrom = Math.max(this.runStart, this.newest - TIME_WINDOW + 1, start);
    const before = Math.min(emptyFrom, last + 1);
    const withTransactions =
      lastIndexBelow(this.transactionSlots, before) - lastIndexBelow(this.transactionSlots, start);
    return withTransactions + Math.max(0, last - emptyFrom + 1);
  }

  /**
   * getRecentPrioritizationFees: for each of the last {@link PRIORITIZATION_FEE_SLOTS} slots up to
   * `newest`, the lowest compute-unit price that landed — with `accounts`, the highest of the
   * lowest prices paid by transactions write-locking each of them (0 where none did), as Agave's
   * prioritization-fee cache answers.
   */
  prioritizationFees(
    newest: number,
    accounts: readonly string[],
  ): { slot: number; prioritizationFee: bigint }[] {
    const out: { slot: number; prioritizationFee: bigint }[] = [];
    for (let slot = Math.max(0, newest - PRIORITIZATION_FEE_SLOTS + 1); slot <= newest; slot += 1) {
      if (!this.isBlock(slot)) continue;
      const fees = this.fees.get(slot);
      let fee = fees?.min ?? 0n;
      for (const account of accounts) {
        const accountFee = fees?.byWritable.get(account) ?? 0n;
        if (accountFee > fee) fee = accountFee;
      }
      out.push({ slot, prioritizationFee: fee });
    }
    return out;
  }

  private remembersEmpty(slot: number): boolean {
    return (
      this.runStart !== -1 && slot >= this.runStart && slot > this.newest - TIME_WINDOW && slot <= this.newest
    );
  }
}

/** Index of the last element of an ascending array below `value` (-1 when there is none). */
function lastIndexBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}
