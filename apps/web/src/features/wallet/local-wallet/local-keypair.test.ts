import { ed25519 } from '@noble/curves/ed25519.js';
import { getAddressEncoder, getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import {
  exportLocalSecretKey,
  generateLocalKeypair,
  getSecretKeyBytes,
  importLocalSecretKey,
  LOCAL_WALLET_STORAGE_KEY,
  LocalKeyImportError,
  readStoredLocalWallet,
  writeStoredLocalWallet,
} from './local-keypair';

describe('local keypair', () => {
  it('generates a keypair whose address is the base58 public key', () => {
    const keypair = generateLocalKeypair();
    expect(keypair.seed).toHaveLength(32);
    expect(keypair.publicKey).toEqual(ed25519.getPublicKey(keypair.seed));
    expect(Uint8Array.from(getAddressEncoder().encode(keypair.address))).toEqual(keypair.publicKey);
  });

  it('round-trips export (base58 of 64 bytes, Phantom layout) and import', () => {
    const keypair = generateLocalKeypair();
    const exported = exportLocalSecretKey(keypair);
    const bytes = getBase58Encoder().encode(exported);
    expect(bytes).toHaveLength(64);
    expect(Uint8Array.from(bytes.slice(32))).toEqual(keypair.publicKey);

    const imported = importLocalSecretKey(`  ${exported}\n`);
    expect(imported.address).toBe(keypair.address);
    expect(imported.seed).toEqual(keypair.seed);
  });

  it('imports a solana-keygen JSON array of 64 numbers', () => {
    const keypair = generateLocalKeypair();
    const json = JSON.stringify(Array.from(getSecretKeyBytes(keypair)));
    expect(importLocalSecretKey(json).address).toBe(keypair.address);
  });

  it('refuses a secret whose public half does not match, wrong lengths and junk', () => {
    const bytes = getSecretKeyBytes(generateLocalKeypair());
    bytes[40] = (bytes[40]! + 1) % 256;
    expect(() => importLocalSecretKey(getBase58Decoder().decode(bytes))).toThrow(LocalKeyImportError);
    expect(() => importLocalSecretKey('[1,2,3]')).toThrow('A secret key has 64 bytes; this one has 3.');
    expect(() => importLocalSecretKey('[1,2,')).toThrow(LocalKeyImportError);
    expect(() => importLocalSecretKey('[300,2]')).toThrow(LocalKeyImportError);
    expect(() => importLocalSecretKey('not-base58-0OIl')).toThrow(LocalKeyImportError);
    expect(() => importLocalSecretKey('   ')).toThrow('Paste a secret key to import.');
  });

  it('stores under solterm_local_wallet and reads back; corrupt entries read as none', () => {
    const keypair = generateLocalKeypair();
    writeStoredLocalWallet(localStorage, keypair, true);
    expect(JSON.parse(localStorage.getItem(LOCAL_WALLET_STORAGE_KEY)!)).toEqual({
      secretKey: exportLocalSecretKey(keypair),
      authorized: true,
    });
    expect(readStoredLocalWallet(localStorage)?.keypair.address).toBe(keypair.address);
    expect(readStoredLocalWallet(localStorage)?.authorized).toBe(true);

    localStorage.setItem(LOCAL_WALLET_STORAGE_KEY, '{oops');
    expect(readStoredLocalWallet(localStorage)).toBeNull();
  });
});
