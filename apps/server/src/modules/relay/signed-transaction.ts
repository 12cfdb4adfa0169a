import { createHash } from 'node:crypto';
import {
  address,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  verifySignature,
  type ReadonlyUint8Array,
  type Transaction,
} from '@solana/kit';
import { RelayError } from './relay-errors';

/** SHA-256 of a transaction message, hex: how a signed transaction finds the ticket it was built as. */
export function messageHashOf(bytes: Uint8Array | ReadonlyUint8Array): string {
  return createHash('sha256')
    .update(bytes as Uint8Array)
    .digest('hex');
}

/** A wire transaction from the client's base64 (canonical encoding only). */
export function decodeSigned(signedBase64: string): Transaction {
  const bytes = Buffer.from(signedBase64, 'base64');
  if (bytes.length === 0 || bytes.toString('base64') !== signedBase64.replace(/\s/g, '')) {
    throw new RelayError('RELAY__TRANSACTION_INVALID');
  }
  try {
    return getTransactionDecoder().decode(bytes);
  } catch {
    throw new RelayError('RELAY__TRANSACTION_INVALID');
  }
}

/** Every signature is present and valid, except those of `serverSigners` (the server adds them later). */
export async function verifySignatures(
  transaction: Transaction,
  serverSigners: readonly string[] = [],
): Promise<void> {
  for (const [signer, signature] of Object.entries(transaction.signatures)) {
    if (serverSigners.includes(signer)) continue;
    if (!signature || signature.every((byte) => byte === 0)) throw new RelayError('RELAY__SIGNATURE_MISSING');
    const key = await getPublicKeyFromAddress(address(signer));
    if (!(await verifySignature(key, signature, transaction.messageBytes))) {
      throw new RelayError('RELAY__SIGNATURE_INVALID');
    }
  }
}
