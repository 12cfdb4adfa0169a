/**
 * SPL Token account layouts (the 165-byte token account and the 82-byte mint, also at the start of
 * Token-2022 accounts) and the RPC shapes built from them: token amounts with `uiAmount` and
 * `uiAmountString`, and the `jsonParsed` encoding of mints and token accounts.
 */
import { encodeBase58 } from './base58';
import { JsonFloat } from './rpc/json';
import { parseTokenExtensions } from './token-extensions';

export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;

/** The account-type byte Token-2022 writes after the base layout of extended accounts. */
const ACCOUNT_TYPE_OFFSET = 165;
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;

export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM_ID || owner === TOKEN_2022_PROGRAM_ID;
}

/** Whether an account of a token program holds a token account (not a mint or multisig). */
export function isTokenAccountData(owner: string, data: Uint8Array): boolean {
  if (data.length === TOKEN_ACCOUNT_SIZE)
    return owner === TOKEN_PROGRAM_ID || owner === TOKEN_2022_PROGRAM_ID;
  return (
    owner === TOKEN_2022_PROGRAM_ID &&
    data.length > ACCOUNT_TYPE_OFFSET &&
    data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_ACCOUNT
  );
}

/** Whether an account of a token program holds a mint. */
export function isMintData(owner: string, data: Uint8Array): boolean {
  if (data.length === MINT_SIZE) return owner === TOKEN_PROGRAM_ID || owner === TOKEN_2022_PROGRAM_ID;
  return (
    owner === TOKEN_2022_PROGRAM_ID &&
    data.length > ACCOUNT_TYPE_OFFSET &&
    data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_MINT
  );
}

function readU64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

function readU32(data: Uint8Array, offset: number): number {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true);
}

function readOptionalAddress(data: Uint8Array, tagOffset: number): string | null {
  return readU32(data, tagOffset) === 1 ? encodeBase58(data.subarray(tagOffset + 4, tagOffset + 36)) : null;
}

export interface TokenAccountFields {
  readonly mint: string;
  readonly owner: string;
  readonly amount: bigint;
  readonly delegate: string | null;
  readonly state: 'uninitialized' | 'initialized' | 'frozen';
  /** Rent-exempt reserve of a wrapped-SOL account, null for other mints. */
  readonly nativeReserve: bigint | null;
  readonly delegatedAmount: bigint;
  readonly closeAuthority: string | null;
}

export interface MintFields {
  readonly mintAuthority: string | null;
  readonly supply: bigint;
  readonly decimals: number;
  readonly isInitialized: boolean;
  readonly freezeAuthority: string | null;
}

const STATES = ['uninitialized', 'initialized', 'frozen'] as const;

/** Decodes the base layout of a token account. */
export function decodeTokenAccount(data: Uint8Array): TokenAccountFields {
  return {
    mint: encodeBase58(data.subarray(0, 32)),
    owner: encodeBase58(data.subarray(32, 64)),
    amount: readU64(data, 64),
    delegate: readOptionalAddress(data, 72),
    state: STATES[data[108]!] ?? 'uninitialized',
    nativeReserve: readU32(data, 109) === 1 ? readU64(data, 113) : null,
    delegatedAmount: readU64(data, 121),
    closeAuthority: readOptionalAddress(data, 129),
  };
}

/** Decodes the base layout of a mint. */
export function decodeMint(data: Uint8Array): MintFields {
  return {
    mintAuthority: readOptionalAddress(data, 0),
    supply: readU64(data, 36),
    decimals: data[44]!,
    isInitialized: data[45] === 1,
    freezeAuthority: readOptionalAddress(data, 46),
  };
}

/** The amount field of token account data, without decoding the rest. */
export function readTokenAmount(data: Uint8Array): bigint {
  return readU64(data, 64);
}

/** The decimals byte of mint data. */
export function readMintDecimals(data: Uint8Array): number {
  return data[44]!;
}

/**
 * The exact decimal text of a base-unit amount, without trailing zeros.
 *
 * @example
 * formatUiAmountString(1_500_000n, 6); // '1.5'
 * formatUiAmountString(0n, 6); // '0'
 */
export function formatUiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction.length > 0 ? `${whole}.${fraction}` : whole;
}

export interface UiTokenAmount {
  readonly amount: string;
  readonly decimals: number;
  readonly uiAmount: JsonFloat;
  readonly uiAmountString: string;
}

/** The RPC `UiTokenAmount` of a base-unit amount. */
export function toUiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  return {
    amount: amount.toString(),
    decimals,
    uiAmount: new JsonFloat(Number(amount) / 10 ** decimals),
    uiAmountString: formatUiAmountString(amount, decimals),
  };
}

/** The `jsonParsed` data object of a token account (`getTokenAccountsByOwner`, `getAccountInfo`). */
export function toParsedTokenAccount(owner: string, data: Uint8Array, decimals: number): object {
  const fields = decodeTokenAccount(data);
  const info: Record<string, unknown> = {
    isNative: fields.nativeReserve !== null,
    mint: fields.mint,
    owner: fields.owner,
    state: fields.state,
    tokenAmount: toUiTokenAmount(fields.amount, decimals),
  };
  if (fields.delegate !== null) {
    info.delegate = fields.delegate;
    info.delegatedAmount = toUiTokenAmount(fields.delegatedAmount, decimals);
  }
  if (fields.closeAuthority !== null) info.closeAuthority = fields.closeAuthority;
  if (fields.nativeReserve !== null) info.rentExemptReserve = toUiTokenAmount(fields.nativeReserve, decimals);
  addExtensions(info, data);
  return {
    program: owner === TOKEN_2022_PROGRAM_ID ? 'spl-token-2022' : 'spl-token',
    parsed: { type: 'account', info },
    space: BigInt(data.length),
  };
}

/** The `jsonParsed` data object of a mint. */
export function toParsedMint(owner: string, data: Uint8Array): object {
  const fields = decodeMint(data);
  const info: Record<string, unknown> = {
    decimals: fields.decimals,
    freezeAuthority: fields.freezeAuthority,
    isInitialized: fields.isInitialized,
    mintAuthority: fields.mintAuthority,
    supply: fields.supply.toString(),
  };
  addExtensions(info, data);
  return {
    program: owner === TOKEN_2022_PROGRAM_ID ? 'spl-token-2022' : 'spl-token',
    parsed: { type: 'mint', info },
    space: BigInt(data.length),
  };
}

/** Token-2022's `extensions` array, present (as in Agave) only when the account has some. */
function addExtensions(info: Record<string, unknown>, data: Uint8Array): void {
  if (data.length <= ACCOUNT_TYPE_OFFSET + 1) return;
  const extensions = parseTokenExtensions(data);
  if (extensions.length > 0) info.extensions = extensions;
}
