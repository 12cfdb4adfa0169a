import { describe, expect, it } from 'vitest';
import { BlockhashQueue, MAX_PROCESSING_AGE } from './blockhash-queue';

describe('BlockhashQueue', () => {
  it('keeps a blockhash valid for MAX_PROCESSING_AGE slots and then forgets it', () => {
    // Given a queue at slot 10
    const queue = new BlockhashQueue(new Uint8Array(32).fill(7));
    queue.advanceTo(10);
    const issued = queue.latest();
    expect(issued.slot).toBe(10);

    // When the cluster advances exactly MAX_PROCESSING_AGE slots, it is still valid
    queue.advanceTo(10 + MAX_PROCESSING_AGE);
    expect(queue.findByText(issued.blockhash)?.slot).toBe(10);
    expect(queue.findByBytes(issued.bytes, 0)?.slot).toBe(10);

    // Then one more slot expires it
    queue.advanceTo(11 + MAX_PROCESSING_AGE);
    expect(queue.findByText(issued.blockhash)).toBeUndefined();
    expect(queue.findByBytes(issued.bytes, 0)).toBeUndefined();
  });

  it('derives the same hashes from the same seed (restart) and different ones from another seed', () => {
    const seed = new Uint8Array(32).fill(1);
    expect(new BlockhashQueue(seed).hashForSlot(5).blockhash).toBe(
      new BlockhashQueue(seed).hashForSlot(5).blockhash,
    );
    expect(new BlockhashQueue(new Uint8Array(32)).hashForSlot(5).blockhash).not.toBe(
      new BlockhashQueue(seed).hashForSlot(5).blockhash,
    );
  });

  it('jumps far ahead without computing every skipped hash', () => {
    const queue = new BlockhashQueue(new Uint8Array(32));
    queue.advanceTo(0);
    queue.advanceTo(1_000_000);
    expect(queue.latest().slot).toBe(1_000_000);
    expect(queue.findByText(queue.hashForSlot(1_000_000 - MAX_PROCESSING_AGE).blockhash)).toBeDefined();
    expect(queue.findByText(queue.hashForSlot(0).blockhash)).toBeUndefined();
  });
});
