import { ed25519 } from '@noble/curves/ed25519.js';
import { getAddressDecoder, getBase58Decoder, getBase58Encoder, type Address } from '@solana/kit';

/** localStorage key holding the Local wallet (spec: browser-only wallet for non-mainnet networks). */
export const LOCAL_WALLET_STORAGE_KEY = 'solterm_local_wallet';

/** A Solana keypair in the 64-byte layout Phantom and solana-keygen use: 32-byte seed then 32-byte public key. */
export interface LocalKeypair {
  readonly address: Address;
  readonly publicKey: Uint8Array;
  /** 32-byte ed25519 seed (noble's "secret key"). */
  readonly seed: Uint8Array;
}

/** What the Local wallet keeps in localStorage. `authorized` is the app's trust, cleared on disconnect. */
export interface StoredLocalWallet {
  readonly secretKey: string;
  readonly authorized: boolean;
}

export class LocalKeyImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalKeyImportError';
  }
}

function keypairFromSeed(seed: Uint8Array): LocalKeypair {
  const publicKey = ed25519.getPublicKey(seed);
  return { seed, publicKey, address: getAddressDecoder().decode(publicKey) };
}

/** Creates a fresh keypair from the browser's CSPRNG. */
export function generateLocalKeypair(): LocalKeypair {
  return keypairFromSeed(ed25519.utils.randomSecretKey());
}

/** The 64-byte secret (seed ‖ public key) used by Phantom's export and solana-keygen files. */
export function getSecretKeyBytes(keypair: LocalKeypair): Uint8Array {
  const bytes = new Uint8Array(64);
  bytes.set(keypair.seed, 0);
  bytes.set(keypair.publicKey, 32);
  return bytes;
}

/** Base58 of the 64-byte secret, as Phantom exports a private key. */
export function exportLocalSecretKey(keypair: LocalKeypair): string {
  return getBase58Decoder().decode(getSecretKeyBytes(keypair));
}

function keypairFromSecretBytes(bytes: Uint8Array): LocalKeypair {
  if (bytes.length !== 64) {
    throw new LocalKeyImportError(`A secret key has 64 bytes; this one has ${bytes.length}.`);
  }
  const keypair = keypairFromSeed(bytes.slice(0, 32));
  const storedPublicKey = bytes.slice(32);
  if (!keypair.publicKey.every((byte, index) => byte === storedPublicKey[index])) {
    throw new LocalKeyImportError('This secret key does not match its public key.');
  }
  return keypair;
}

function parseKeygenJson(text: string): Uint8Array {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LocalKeyImportError('This is not a valid JSON array of 64 numbers.');
  }
  if (
    !Array.isArray(parsed) ||
    !parsed.every(
      (value) => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255,
    )
  ) {
    throw new LocalKeyImportError('A keypair file is a JSON array of 64 numbers from 0 to 255.');
  }
  return Uint8Array.from(parsed as number[]);
}

/**
 * Reads a secret key as Phantom exports it (base58 of 64 bytes) or as solana-keygen writes it
 * (a JSON array of 64 numbers).
 *
 * @example importLocalSecretKey('[12,250,…]') // → keypair whose address matches the file's public key
 */
export function importLocalSecretKey(input: string): LocalKeypair {
  const text = input.trim();
  if (text === '') throw new LocalKeyImportError('Paste a secret key to import.');
  if (text.startsWith('[')) return keypairFromSecretBytes(parseKeygenJson(text));
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(getBase58Encoder().encode(text));
  } catch {
    throw new LocalKeyImportError('A secret key is base58 text or a JSON array of 64 numbers.');
  }
  return keypairFromSecretBytes(bytes);
}

/** Reads the stored Local wallet; a corrupt entry reads as none (and is left for the user to replace). */
export function readStoredLocalWallet(
  storage: Storage,
): { keypair: LocalKeypair; authorized: boolean } | null {
  const raw = storage.getItem(LOCAL_WALLET_STORAGE_KEY);
  if (!raw) return null;
  try {
    const stored = JSON.parse(raw) as Partial<StoredLocalWallet>;
    if (typeof stored.secretKey !== 'string') return null;
    return { keypair: importLocalSecretKey(stored.secretKey), authorized: stored.authorized === true };
  } catch {
    return null;
  }
}

export function writeStoredLocalWallet(storage: Storage, keypair: LocalKeypair, authorized: boolean): void {
  const stored: StoredLocalWallet = { secretKey: exportLocalSecretKey(keypair), authorized };
  storage.setItem(LOCAL_WALLET_STORAGE_KEY, JSON.stringify(stored));
}

export function signWithLocalKeypair(keypair: LocalKeypair, message: Uint8Array): Uint8Array {
  return ed25519.sign(message, keypair.seed);
}
