import { ed25519 } from '@noble/curves/ed25519.js';
import { getBase58Decoder } from '@solana/kit';

/** The API's answer envelope. */
export interface Envelope<T> {
  success: boolean;
  data: T;
  error?: string;
  code?: string;
}

/** A Solana wallet as a browser wallet would act: signs messages and transactions with ed25519. */
export function createWallet() {
  const secretKey = ed25519.utils.randomSecretKey();
  const publicKey = ed25519.getPublicKey(secretKey);
  const address = getBase58Decoder().decode(publicKey);
  return {
    address,
    signMessage: (message: string) =>
      getBase58Decoder().decode(ed25519.sign(new TextEncoder().encode(message), secretKey)),
    /** Signs a base64 wire transaction in this wallet's signer slot, keeping the other signatures. */
    signTransaction(wireBase64: string): string {
      const wire = Buffer.from(wireBase64, 'base64');
      // Compact-u16 signature count: one byte (a transaction of ≤ 1232 bytes has fewer than 128).
      const count = wire[0]!;
      const message = wire.subarray(1 + count * 64);
      // Static account keys follow the version byte (v0) and the 3-byte header and 1-byte key count.
      const keysOffset = ((message[0]! & 0x80) !== 0 ? 1 : 0) + 3 + 1;
      for (let index = 0; index < count; index += 1) {
        const key = message.subarray(keysOffset + index * 32, keysOffset + (index + 1) * 32);
        if (key.equals(publicKey)) {
          wire.set(ed25519.sign(message, secretKey), 1 + index * 64);
          return wire.toString('base64');
        }
      }
      throw new Error('the wallet is not a signer of the transaction');
    },
  };
}
