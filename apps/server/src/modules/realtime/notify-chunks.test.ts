import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNotifyReassembler, NOTIFY_MAX_BYTES, splitForNotify } from './notify-chunks';

const clock = (start = 0) => {
  let at = start;
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
};

describe('NOTIFY payload pieces', () => {
  it('sends a text that fits as it is', () => {
    expect(splitForNotify('{"kind":"message"}')).toEqual(['{"kind":"message"}']);
  });

  it('splits any text into pieces under the limit that reassemble to it, in any order', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 0, maxLength: 1500 }),
        fc.integer({ min: 80, max: 400 }),
        (text, max) => {
          const pieces = splitForNotify(text, max);
          for (const piece of pieces) expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(max);
          const reassembler = createNotifyReassembler(clock());
          const results = [...pieces].reverse().map((piece) => reassembler.accept(piece));
          expect(results.filter((result) => result !== undefined)).toEqual([text]);
          expect(reassembler.pendingCount()).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps a 20 kB message of multi-byte characters under 8000 bytes a piece', () => {
    const text = JSON.stringify({ data: 'é€😀'.repeat(2000) });
    const pieces = splitForNotify(text);
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(NOTIFY_MAX_BYTES);
    const reassembler = createNotifyReassembler(clock());
    expect(pieces.map((piece) => reassembler.accept(piece)).at(-1)).toBe(text);
  });

  it('forgets a text whose pieces stop coming, and ignores duplicates and forged headers', () => {
    const time = clock();
    const reassembler = createNotifyReassembler({ now: time.now, ttlMs: 1000 });
    const [first, second] = splitForNotify('x'.repeat(500), 200);

    expect(reassembler.accept(first!)).toBeUndefined();
    expect(reassembler.accept(first!)).toBeUndefined();
    expect(reassembler.pendingCount()).toBe(1);
    time.advance(1001);
    expect(reassembler.accept('~not-a-header')).toBeUndefined();
    expect(reassembler.accept(splitForNotify('y'.repeat(500), 200)[0]!)).toBeUndefined();
    expect(reassembler.pendingCount()).toBe(1); // the stale one is gone, the new one waits
    expect(reassembler.accept(second!)).toBeUndefined(); // its first piece was forgotten
  });
});
