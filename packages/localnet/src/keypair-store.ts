/**
 * Keypairs the cluster keeps under its data directory, in the solana-keygen file format (a JSON
 * array of the 64 secret-key bytes: 32-byte seed then public key), readable by the Solana CLI.
 * Generated once on first start; written with mode 0600 and never committed.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressEncoder,
  type KeyPairSigner,
} from '@solana/kit';

/** A signer together with its secret bytes (so it can be persisted or handed to another process). */
export interface StoredKeyPair {
  readonly signer: KeyPairSigner;
  /** solana-keygen layout: 32-byte seed followed by the 32-byte public key. */
  readonly secretKey: Uint8Array;
}

/** Generates a fresh keypair whose secret can be exported. */
export async function generateStoredKeyPair(): Promise<StoredKeyPair> {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const signer = await createKeyPairSignerFromPrivateKeyBytes(seed);
  const secretKey = new Uint8Array(64);
  secretKey.set(seed, 0);
  secretKey.set(getAddressEncoder().encode(signer.address), 32);
  return { signer, secretKey };
}

/** Reads a solana-keygen keypair file. */
export async function readKeyPairFile(path: string): Promise<StoredKeyPair> {
  const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 64 ||
    !parsed.every((byte) => Number.isInteger(byte) && byte >= 0 && byte < 256)
  ) {
    throw new Error(`${path} is not a solana-keygen keypair file (a JSON array of 64 bytes)`);
  }
  const secretKey = Uint8Array.from(parsed as number[]);
  return { signer: await createKeyPairSignerFromBytes(secretKey), secretKey };
}

/** Reads the keypair at `path`, or generates and writes one if the file does not exist. */
export async function loadOrCreateKeyPairFile(path: string): Promise<StoredKeyPair> {
  try {
    return await readKeyPairFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const created = await generateStoredKeyPair();
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(Array.from(created.secretKey)), { mode: 0o600 });
  await rename(temporary, path);
  return created;
}
