import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { getBase58Encoder } from '@solana/kit';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** Decodes a base58 string, or undefined when it is not base58. */
export function decodeBase58(value: string): Uint8Array | undefined {
  if (!BASE58.test(value)) return undefined;
  try {
    return new Uint8Array(getBase58Encoder().encode(value));
  } catch {
    return undefined;
  }
}

/** True when the text is a Solana public key: base58 of exactly 32 bytes. */
export function isSolanaPublicKey(address: string): boolean {
  return decodeBase58(address)?.length === 32;
}

export function isEvmAddress(address: string): boolean {
  return EVM_ADDRESS.test(address);
}

/** Wallets hand signatures back as base58 (Phantom, Solflare), base64 or hex; all are 64 bytes. */
function decodeEd25519Signature(signature: string): Uint8Array | undefined {
  const base58 = decodeBase58(signature);
  if (base58?.length === 64) return base58;
  if (/^[0-9a-fA-F]{128}$/.test(signature)) return new Uint8Array(Buffer.from(signature, 'hex'));
  if (/^[A-Za-z0-9+/]{86}(==)?$/.test(signature)) {
    const bytes = Buffer.from(signature, 'base64');
    if (bytes.length === 64) return new Uint8Array(bytes);
  }
  return undefined;
}

/** Verifies an ed25519 signature of the UTF-8 message by a Solana address. Never throws. */
export function verifySolanaSignature(address: string, message: string, signature: string): boolean {
  const publicKey = decodeBase58(address);
  const signatureBytes = decodeEd25519Signature(signature);
  if (publicKey?.length !== 32 || !signatureBytes) return false;
  try {
    // Strict RFC 8032 (not ZIP-215): refuses small-order public keys, for which a fixed signature
    // verifies against every message, so anyone could sign in as such an address.
    return ed25519.verify(signatureBytes, new TextEncoder().encode(message), publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** The EIP-191 `personal_sign` digest: keccak256("\x19Ethereum Signed Message:\n" + byte length + message). */
export function personalSignDigest(message: string): Uint8Array {
  const body = new TextEncoder().encode(message);
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${body.length}`);
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix);
  bytes.set(body, prefix.length);
  return keccak_256(bytes);
}

/** The Ethereum address of an uncompressed or compressed secp256k1 public key, lower-case hex. */
export function evmAddressOf(publicKey: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return `0x${Buffer.from(keccak_256(uncompressed.subarray(1)).subarray(-20)).toString('hex')}`;
}

/** Verifies an EIP-191 `personal_sign` signature (r ‖ s ‖ v, v 27/28 or 0/1) by an Ethereum address. Never throws. */
export async function verifyEvmSignature(
  address: string,
  message: string,
  signature: string,
): Promise<boolean> {
  if (!EVM_ADDRESS.test(address) || !EVM_SIGNATURE.test(signature)) return false;
  const bytes = Buffer.from(signature.slice(2), 'hex');
  const v = bytes[64]!;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return false;
  try {
    // noble's "recovered" layout puts the recovery bit first; wallets put v last.
    const recoverable = new Uint8Array(65);
    recoverable[0] = recovery;
    recoverable.set(bytes.subarray(0, 64), 1);
    const publicKey = secp256k1.recoverPublicKey(recoverable, personalSignDigest(message), {
      prehash: false,
    });
    return evmAddressOf(publicKey) === address.toLowerCase();
  } catch {
    return false;
  }
}
