/**
 * Account fixtures as `solana-test-validator --account-dir DIR` loads them: every `*.json` file of
 * the directory holds one account in the shape `solana account --output json` writes —
 * `{ "pubkey", "account": { "lamports", "data": [text, "base64" | "base58"], "owner",
 * "executable", "rentEpoch", "space" } }` — and is placed at genesis with its rent epoch.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeBase58, decodeBase58Exact } from './base58';

export interface AccountFixture {
  readonly address: string;
  readonly lamports: bigint;
  readonly owner: string;
  readonly executable: boolean;
  readonly rentEpoch: bigint;
  readonly data: Uint8Array;
}

const U64_MAX = 2n ** 64n - 1n;

function readU64Field(value: unknown, what: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'bigint' && value >= 0n && value <= U64_MAX) return value;
  throw new Error(`${what} must be a u64`);
}

function readAddressField(value: unknown, what: string): string {
  if (typeof value !== 'string' || decodeBase58Exact(value, 32) === undefined) {
    throw new Error(`${what} must be a base58 address`);
  }
  return value;
}

function readData(value: unknown, what: string): Uint8Array {
  if (!Array.isArray(value) || typeof value[0] !== 'string') {
    throw new Error(`${what} must be [text, "base64" | "base58"]`);
  }
  const [text, encoding] = value as [string, unknown];
  if (encoding === 'base64') return new Uint8Array(Buffer.from(text, 'base64'));
  if (encoding === 'base58') {
    const bytes = decodeBase58(text);
    if (bytes !== undefined) return bytes;
  }
  throw new Error(`${what} must be [text, "base64" | "base58"]`);
}

/**
 * Parses one fixture file's text. The rent epoch of 2^64 − 1 that validators write exceeds a
 * double, so integer literals are read exactly.
 */
export function parseAccountFixture(text: string, source: string): AccountFixture {
  // Quote long integer literals so JSON.parse keeps them exact (rentEpoch: 18446744073709551615).
  const quoted = text.replace(/("(?:lamports|rentEpoch)"\s*:\s*)(\d{16,})/g, '$1"$2"');
  const parsed = JSON.parse(quoted) as { pubkey?: unknown; account?: Record<string, unknown> };
  const account = parsed.account;
  if (typeof account !== 'object' || account === null) throw new Error(`${source}: no "account" object`);
  const big = (value: unknown): unknown =>
    typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : value;
  return {
    address: readAddressField(parsed.pubkey, `${source}: pubkey`),
    lamports: readU64Field(big(account.lamports), `${source}: account.lamports`),
    owner: readAddressField(account.owner, `${source}: account.owner`),
    executable: account.executable === true,
    rentEpoch: readU64Field(big(account.rentEpoch ?? 0), `${source}: account.rentEpoch`),
    data: readData(account.data, `${source}: account.data`),
  };
}

/** Every fixture of a directory (its `*.json` files, in name order). */
export async function loadAccountDir(dir: string): Promise<AccountFixture[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (name) => parseAccountFixture(await readFile(join(dir, name), 'utf8'), join(dir, name))),
  );
}
