import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from './wire-transaction';

describe('wire transaction base64', () => {
  it('round-trips every byte value', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
  });

  it('matches standard padded base64', () => {
    expect(encodeBase64(new Uint8Array([1, 2, 3, 4]))).toBe('AQIDBA==');
    expect(decodeBase64('AQIDBA==')).toEqual(new Uint8Array([1, 2, 3, 4]));
  });

  it('encodes inputs larger than one conversion chunk', () => {
    const bytes = Uint8Array.from({ length: 40_000 }, (_, index) => index % 251);
    expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
  });

  it('refuses text that is not base64', () => {
    expect(() => decodeBase64('not base64!')).toThrow();
  });
});
