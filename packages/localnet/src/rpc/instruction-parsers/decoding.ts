/**
 * Shared pieces of the `jsonParsed` instruction parsers: a bounds-checked little-endian reader for
 * instruction data, the account-count check Agave applies before naming accounts, and the
 * alphabetical key order of the JSON Agave's RPC writes.
 */
import { encodeBase58 } from '../../base58';

/** The `{ info, type }` object Agave's `ParsedInstructionEnum` serialises to. */
export interface ParsedInstructionEnum {
  readonly info: Record<string, unknown>;
  readonly type: string;
}

/** Thrown when instruction data or accounts do not fit; `parseInstruction` then decodes partially. */
export class NotParsableError extends Error {
  constructor(reason: string) {
    super(`instruction not parsable: ${reason}`);
    this.name = 'NotParsableError';
  }
}

/** Throws {@link NotParsableError}. */
export function notParsable(reason: string): never {
  throw new NotParsableError(reason);
}

const PUBKEY_BYTES = 32;
// Rust's `str::from_utf8`: invalid UTF-8 is an error, and a leading BOM stays in the text.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strict UTF-8 decoding as Rust's `str::from_utf8`: undefined when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Reads instruction (and account) data front to back; every read past the end throws
 * {@link NotParsableError}.
 */
export class ByteReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  u8(): number {
    return this.view.getUint8(this.advance(1));
  }

  u16(): number {
    return this.view.getUint16(this.advance(2), true);
  }

  u32(): number {
    return this.view.getUint32(this.advance(4), true);
  }

  u64(): bigint {
    return this.view.getBigUint64(this.advance(8), true);
  }

  i64(): bigint {
    return this.view.getBigInt64(this.advance(8), true);
  }

  f64(): number {
    return this.view.getFloat64(this.advance(8), true);
  }

  /** A 32-byte public key, as base58. */
  pubkey(): string {
    return encodeBase58(this.bytes.subarray(this.advance(PUBKEY_BYTES), this.offset));
  }

  /** The next `length` bytes. */
  take(length: number): Uint8Array {
    return this.bytes.subarray(this.advance(length), this.offset);
  }

  /** Everything not read yet. */
  rest(): Uint8Array {
    return this.take(this.remaining);
  }

  /** A bincode `String`: u64 LE byte length, then UTF-8 bytes. */
  bincodeString(): string {
    const text = decodeUtf8(this.take(this.bincodeLength(1)));
    return text ?? notParsable('string is not UTF-8');
  }

  /** A bincode sequence length (u64 LE), checked against the bytes left for `itemBytes`-byte items. */
  bincodeLength(itemBytes: number): number {
    const length = this.u64();
    if (length > BigInt(Math.floor(this.remaining / itemBytes))) notParsable('sequence past the end');
    return Number(length);
  }

  private advance(length: number): number {
    if (length > this.remaining) notParsable('data too short');
    const start = this.offset;
    this.offset += length;
    return start;
  }
}

/** Agave's `check_num_accounts`: an instruction naming fewer accounts than its layout is not parsed. */
export function requireAccounts(accounts: readonly string[], count: number): void {
  if (accounts.length < count) notParsable(`needs ${count} accounts, has ${accounts.length}`);
}

/** The account at `position`, which {@link requireAccounts} has checked. */
function account(accounts: readonly string[], position: number): string {
  return accounts[position] ?? notParsable(`no account ${position}`);
}

/** The first accounts by name, after checking the instruction has at least `minimum` accounts. */
export function namedAccounts(
  accounts: readonly string[],
  names: readonly string[],
  minimum = names.length,
): Record<string, string> {
  requireAccounts(accounts, minimum);
  const info: Record<string, string> = {};
  names.forEach((name, position) => {
    info[name] = account(accounts, position);
  });
  return info;
}

/**
 * The object with its keys in byte order: Agave builds `info` with `serde_json` (no
 * `preserve_order`) and its RPC serialises through `serde_json::Value`, so keys come out sorted.
 */
export function sortKeys(object: Record<string, unknown>): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) sorted[key] = object[key];
  return sorted;
}

/** A parsed instruction of the given type, its info keys sorted as Agave writes them. */
export function parsedAs(type: string, info: Record<string, unknown>): ParsedInstructionEnum {
  return { info: sortKeys(info), type };
}
