/**
 * Account answers in the encodings of the Solana RPC: legacy `binary` (a bare base58 string),
 * `base58`, `base64` and `base64+zstd` (`[data, encoding]`), and `jsonParsed` for SPL mints and token
 * accounts (other accounts fall back to base64, as validators do).
 */
import { parseNonTokenAccount } from './account-parsers';
import { encodeBase58 } from '../base58';
import type { AccountView, LocalCluster } from '../local-cluster';
import { isMintData, isTokenAccountData, toParsedMint, toParsedTokenAccount } from '../token-layout';
import type { Config } from './params';
import { invalidParams, JSON_RPC_INVALID_REQUEST, RpcError } from './rpc-error';
import { zstdCompress } from './zstd';

export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'jsonParsed' | 'base64+zstd';

/** The encodings a request may name, in the order validators list them. */
const ACCOUNT_ENCODINGS: readonly AccountEncoding[] = [
  'binary',
  'base58',
  'base64',
  'jsonParsed',
  'base64+zstd',
];

/** Account data longer than this is refused in base58 (validators: "please use Base64 encoding"). */
export const MAX_BASE58_BYTES = 128;

export interface DataSlice {
  readonly offset: number;
  readonly length: number;
}

export function readAccountEncoding(config: Config, fallback: AccountEncoding = 'binary'): AccountEncoding {
  const value = config.encoding;
  if (value === undefined || value === null) return fallback;
  if ((ACCOUNT_ENCODINGS as readonly unknown[]).includes(value)) return value as AccountEncoding;
  throw invalidParams(
    `unknown variant \`${String(value)}\`, expected one of ${ACCOUNT_ENCODINGS.map((name) => `\`${name}\``).join(', ')}`,
  );
}

export function readDataSlice(config: Config): DataSlice | undefined {
  const value = config.dataSlice;
  if (value === undefined || value === null) return undefined;
  const slice = value as { offset?: unknown; length?: unknown };
  if (
    typeof slice.offset !== 'number' ||
    typeof slice.length !== 'number' ||
    !Number.isSafeInteger(slice.offset) ||
    !Number.isSafeInteger(slice.length) ||
    slice.offset < 0 ||
    slice.length < 0
  ) {
    throw invalidParams('invalid dataSlice: expected { offset, length } non-negative integers');
  }
  return { offset: slice.offset, length: slice.length };
}

function encodeData(
  account: AccountView,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
  cluster: LocalCluster,
): unknown {
  if (encoding === 'jsonParsed' && slice === undefined) {
    const parsed = parseAccountData(account, cluster);
    if (parsed !== undefined) return parsed;
    encoding = 'base64';
  }
  const data =
    slice === undefined ? account.data : account.data.subarray(slice.offset, slice.offset + slice.length);
  if (encoding === 'base64+zstd') {
    // Validators compress the sliced data and answer plain base64 if compression fails.
    const compressed = compressOrUndefined(data);
    if (compressed !== undefined) return [toBase64(compressed), 'base64+zstd'];
    encoding = 'base64';
  }
  if (encoding === 'base64' || encoding === 'jsonParsed') return [toBase64(data), 'base64'];
  if (data.length > MAX_BASE58_BYTES) {
    throw new RpcError(
      JSON_RPC_INVALID_REQUEST,
      `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
    );
  }
  const text = encodeBase58(data);
  return encoding === 'binary' ? text : [text, 'base58'];
}

function toBase64(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

function compressOrUndefined(data: Uint8Array): Uint8Array | undefined {
  try {
    return zstdCompress(data);
  } catch {
    return undefined;
  }
}

function parseAccountData(account: AccountView, cluster: LocalCluster): object | undefined {
  if (isMintData(account.owner, account.data)) return toParsedMint(account.owner, account.data);
  if (isTokenAccountData(account.owner, account.data)) {
    const mint = encodeBase58(account.data.subarray(0, 32));
    const decimals = cluster.getMintDecimals(mint);
    if (decimals !== undefined) return toParsedTokenAccount(account.owner, account.data, decimals);
  }
  return parseNonTokenAccount(account.address, account.owner, account.data);
}

/** The RPC `AccountInfo` object of an account. */
export function encodeAccount(
  account: AccountView,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
  cluster: LocalCluster,
): object {
  return {
    data: encodeData(account, encoding, slice, cluster),
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner,
    rentEpoch: account.rentEpoch,
    space: BigInt(account.data.length),
  };
}
