/**
 * The cluster's recent blockhashes: one per slot, derived as sha256(seed ‖ slot), valid for
 * {@link MAX_PROCESSING_AGE} slots as on mainnet. LiteSVM only knows one blockhash at a time
 * (STACK-NOTES gotcha 10), so the cluster runs it with the blockhash check off and checks here.
 * Deriving hashes from (seed, slot) lets a restarted cluster recognise the hashes it handed out.
 */
import { createHash } from 'node:crypto';
import { encodeBase58 } from './base58';

/** A blockhash stays usable for this many slots after the slot that produced it. */
export const MAX_PROCESSING_AGE = 150;

export interface RecentBlockhash {
  readonly slot: number;
  readonly blockhash: string;
  readonly bytes: Uint8Array;
}

function toKey(bytes: Uint8Array, offset: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + offset, 32).toString('latin1');
}

export class BlockhashQueue {
  private readonly byKey = new Map<string, RecentBlockhash>();
  private readonly byText = new Map<string, RecentBlockhash>();
  private readonly ordered: RecentBlockhash[] = [];
  private newestSlot = -1;

  constructor(private readonly seed: Uint8Array) {}

  /** The blockhash the cluster produces at `slot` (deterministic for a given seed). */
  hashForSlot(slot: number): RecentBlockhash {
    const slotBytes = Buffer.alloc(8);
    slotBytes.writeBigUInt64LE(BigInt(slot));
    const bytes = new Uint8Array(createHash('sha256').update(this.seed).update(slotBytes).digest());
    return { slot, blockhash: encodeBase58(bytes), bytes };
  }

  /** Records the blockhashes of every slot up to `slot` and forgets those too old to use. */
  advanceTo(slot: number): void {
    const first = Math.max(this.newestSlot + 1, slot - MAX_PROCESSING_AGE);
    for (let next = first; next <= slot; next += 1) {
      const entry = this.hashForSlot(next);
      this.ordered.push(entry);
      this.byKey.set(toKey(entry.bytes, 0), entry);
      this.byText.set(entry.blockhash, entry);
    }
    this.newestSlot = Math.max(this.newestSlot, slot);
    while (this.ordered.length > 0 && this.ordered[0]!.slot < this.newestSlot - MAX_PROCESSING_AGE) {
      const expired = this.ordered.shift()!;
      this.byKey.delete(toKey(expired.bytes, 0));
      this.byText.delete(expired.blockhash);
    }
  }

  /** The newest blockhash. */
  latest(): RecentBlockhash {
    const newest = this.ordered[this.ordered.length - 1];
    if (newest === undefined) throw new Error('the blockhash queue is empty');
    return newest;
  }

  /** The newest `count` blockhashes, newest first (what the RecentBlockhashes sysvar lists). */
  newest(count: number): RecentBlockhash[] {
    return this.ordered.slice(-count).reverse();
  }

  /** The still-valid entry for the 32 bytes at `offset`, if any (the hot path: no base58). */
  findByBytes(bytes: Uint8Array, offset: number): RecentBlockhash | undefined {
    return this.byKey.get(toKey(bytes, offset));
  }

  /** The still-valid entry for a base58 blockhash, if any. */
  findByText(blockhash: string): RecentBlockhash | undefined {
    return this.byText.get(blockhash);
  }
}
