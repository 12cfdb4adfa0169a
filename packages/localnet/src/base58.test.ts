import fc from 'fast-check';
import { getBase58Codec } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { decodeBase58, decodeBase58Exact, encodeBase58 } from './base58';

const kitCodec = getBase58Codec();

describe('base58', () => {
  it('matches kit for arbitrary bytes, including leading zeros', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = encodeBase58(bytes);
        expect(text).toBe(kitCodec.decode(bytes));
        expect(Array.from(decodeBase58(text)!)).toEqual(Array.from(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('encodes known addresses', () => {
    expect(encodeBase58(new Uint8Array(32))).toBe('11111111111111111111111111111111');
    const mint = 'So11111111111111111111111111111111111111112';
    expect(encodeBase58(decodeBase58Exact(mint, 32)!)).toBe(mint);
  });

  it('rejects characters outside the alphabet and wrong lengths', () => {
    expect(decodeBase58('0OIl')).toBeUndefined();
    expect(decodeBase58Exact('abc', 32)).toBeUndefined();
    expect(decodeBase58Exact('', 32)).toBeUndefined();
  });
});
