import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, generateCustodialKeypair } from './server-keys';

const key = new Uint8Array(randomBytes(32));
const address = 'So11111111111111111111111111111111111111112';

describe('generateCustodialKeypair', () => {
  it('returns a 32-byte seed whose ed25519 public key is the base58 address', () => {
    const keypair = generateCustodialKeypair();

    expect(keypair.seed).toHaveLength(32);
    expect(getBase58Encoder().encode(keypair.address)).toHaveLength(32);
    expect(getBase58Decoder().decode(ed25519.getPublicKey(keypair.seed))).toBe(keypair.address);
  });

  it('never repeats a keypair', () => {
    const addresses = new Set(Array.from({ length: 20 }, () => generateCustodialKeypair().address));

    expect(addresses.size).toBe(20);
  });
});

describe('encryptSecret / decryptSecret', () => {
  it('round-trips any secret', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 128 }), fc.string(), (secret, associatedData) => {
        expect(decryptSecret(key, encryptSecret(key, secret, associatedData), associatedData)).toEqual(
          secret,
        );
      }),
      { numRuns: 50 },
    );
  });

  it('uses a fresh IV: the same secret encrypts differently each time, and never in the clear', () => {
    const seed = generateCustodialKeypair().seed;

    const first = encryptSecret(key, seed, address);
    const second = encryptSecret(key, seed, address);

    expect(first).not.toBe(second);
    expect(Buffer.from(first, 'base64').includes(Buffer.from(seed))).toBe(false);
    // iv (12) | tag (16) | ciphertext (same length as the secret)
    expect(Buffer.from(first, 'base64')).toHaveLength(12 + 16 + 32);
  });

  it.each([
    ['the IV', 0],
    ['the tag', 12],
    ['the ciphertext', 28],
    ['the last byte', 59],
  ])('throws when a byte of %s was changed', (_name, offset) => {
    const raw = Buffer.from(encryptSecret(key, generateCustodialKeypair().seed, address), 'base64');
    raw[offset]! ^= 0x01;

    expect(() => decryptSecret(key, raw.toString('base64'), address)).toThrow();
  });

  it('throws for other associated data (a ciphertext moved to another wallet row)', () => {
    const encrypted = encryptSecret(key, generateCustodialKeypair().seed, address);

    expect(() => decryptSecret(key, encrypted, generateCustodialKeypair().address)).toThrow();
  });

  it('throws for another key', () => {
    const encrypted = encryptSecret(key, generateCustodialKeypair().seed, address);

    expect(() => decryptSecret(new Uint8Array(randomBytes(32)), encrypted, address)).toThrow();
  });

  it('throws for a truncated value', () => {
    const encrypted = encryptSecret(key, generateCustodialKeypair().seed, address);

    expect(() => decryptSecret(key, encrypted.slice(0, 20), address)).toThrow();
  });
});
