import { ed25519 } from '@noble/curves/ed25519.js';
import { getBase58Decoder } from '@solana/kit';

// A Solana wallet for tests and benchmarks: an ed25519 key that signs messages and transactions as
// a browser wallet does. No app or test-runner imports, so benchmarks can use it too.

export type SignatureEncoding = 'base58' | 'base64' | 'hex';

/** Bytes to base58 text (kit names it a decoder: it decodes bytes into a string). */
export function toBase58(bytes: Uint8Array): string {
  return getBase58Decoder().decode(bytes);
}

export interface SolanaTestWallet {
  address: string;
  /** ed25519 signature of the UTF-8 message, as a wallet would return it. */
  sign(message: string, encoding?: SignatureEncoding): string;
}

/** A test wallet that also signs transactions (the Local wallet's signTransaction). */
export interface SolanaSigningWallet extends SolanaTestWallet {
  /**
   * Signs a base64 wire transaction as a wallet's signTransaction does: the message is signed and
   * the signature placed in this wallet's slot; the other signatures are kept.
   */
  signTransaction(wireBase64: string): string;
}

/** The signer slot of `signer` in a wire transaction, and where the message starts. */
function signatureSlots(wire: Uint8Array): { count: number; messageOffset: number } {
  // Compact-u16 signature count: one byte below 128 (always, for a transaction of ≤ 1232 bytes).
  const count = wire[0]!;
  return { count, messageOffset: 1 + count * 64 };
}

export function createSolanaWallet(): SolanaSigningWallet {
  const secretKey = ed25519.utils.randomSecretKey();
  const address = toBase58(ed25519.getPublicKey(secretKey));
  return {
    address,
    sign(message, encoding = 'base58') {
      const signature = ed25519.sign(new TextEncoder().encode(message), secretKey);
      if (encoding === 'base58') return toBase58(signature);
      return Buffer.from(signature).toString(encoding);
    },
    signTransaction(wireBase64) {
      const wire = new Uint8Array(Buffer.from(wireBase64, 'base64'));
      const { count, messageOffset } = signatureSlots(wire);
      const message = wire.subarray(messageOffset);
      // Static account keys follow the header (and, for v0, the version byte): find ours among the signers.
      const versioned = (message[0]! & 0x80) !== 0;
      const keysOffset = (versioned ? 1 : 0) + 3 + 1;
      const publicKey = ed25519.getPublicKey(secretKey);
      for (let index = 0; index < count; index++) {
        const key = message.subarray(keysOffset + index * 32, keysOffset + (index + 1) * 32);
        if (Buffer.from(key).equals(Buffer.from(publicKey))) {
          wire.set(ed25519.sign(message, secretKey), 1 + index * 64);
          return Buffer.from(wire).toString('base64');
        }
      }
      throw new Error('this wallet is not a signer of the transaction');
    },
  };
}
