import { createCipheriv, createDecipheriv, generateKeyPairSync, randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';

// Keys the server holds for its users (custodial wallets, bot keys): made from the operating
// system's random source and stored only encrypted under WALLET_ENCRYPTION_KEY.

export interface CustodialKeypair {
  /** base58 Solana address (the ed25519 public key). */
  address: string;
  /** The 32-byte ed25519 seed. */
  seed: Uint8Array;
}

/** Generates a fresh ed25519 keypair with the operating system's random source. */
export function generateCustodialKeypair(): CustodialKeypair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicJwk = publicKey.export({ format: 'jwk' });
  const privateJwk = privateKey.export({ format: 'jwk' });
  const publicBytes = Buffer.from(publicJwk.x as string, 'base64url');
  return {
    address: getBase58Decoder().decode(publicBytes),
    seed: new Uint8Array(Buffer.from(privateJwk.d as string, 'base64url')),
  };
}

/**
 * AES-256-GCM with a random 96-bit IV, bound to the owner's address as associated data so a ciphertext
 * cannot be moved to another row. Output: base64(iv | tag | ciphertext).
 */
export function encryptSecret(key: Uint8Array, secret: Uint8Array, associatedData: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

export function decryptSecret(key: Uint8Array, encoded: string, associatedData: string): Uint8Array {
  const raw = Buffer.from(encoded, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  return new Uint8Array(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]));
}
