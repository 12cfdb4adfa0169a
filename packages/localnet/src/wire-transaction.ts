/**
 * A minimal reader of the Solana wire format (legacy and v0), enough for the cluster's own checks
 * before LiteSVM executes the bytes: the first signature, the recent blockhash, which accounts a
 * transaction may write, which are programs, and the address-table lookups. It reads without
 * copying: every field is a view into the original bytes.
 */

/**
 * The wire transaction is malformed. `deserialize`: the bytes are not a transaction; `sanitize`:
 * they are, but the message is inconsistent (validators word the two differently).
 */
export class WireFormatError extends Error {
  override readonly name = 'WireFormatError';
  constructor(
    message: string,
    readonly kind: 'deserialize' | 'sanitize' = 'deserialize',
  ) {
    super(message);
  }
}

/** bincode reading past the end (Agave deserializes from an io::Read). */
const UNEXPECTED_EOF = 'io error: failed to fill whole buffer';

/** Packet data size: the largest serialised transaction a validator accepts. */
export const MAX_TRANSACTION_BYTES = 1232;

export interface CompiledInstructionView {
  readonly programIdIndex: number;
  readonly accountIndexes: Uint8Array;
  readonly data: Uint8Array;
}

export interface AddressTableLookupView {
  readonly tableAddress: Uint8Array;
  readonly writableIndexes: Uint8Array;
  readonly readonlyIndexes: Uint8Array;
}

export interface MessageHeader {
  readonly numRequiredSignatures: number;
  readonly numReadonlySignedAccounts: number;
  readonly numReadonlyUnsignedAccounts: number;
}

export interface WireTransaction {
  readonly bytes: Uint8Array;
  readonly signatures: readonly Uint8Array[];
  /** Offset of the message (what the signatures sign). */
  readonly messageOffset: number;
  readonly version: 'legacy' | 0;
  readonly header: MessageHeader;
  readonly staticAccountKeys: readonly Uint8Array[];
  /** Offset of the 32-byte recent blockhash in `bytes`. */
  readonly blockhashOffset: number;
  readonly instructions: readonly CompiledInstructionView[];
  readonly addressTableLookups: readonly AddressTableLookupView[];
}

class Cursor {
  offset: number;
  constructor(
    readonly bytes: Uint8Array,
    offset: number,
  ) {
    this.offset = offset;
  }

  u8(): number {
    if (this.offset >= this.bytes.length) throw new WireFormatError(UNEXPECTED_EOF);
    return this.bytes[this.offset++]!;
  }

  /** compact-u16 ("short vec") length prefix. */
  shortVec(): number {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const byte = this.u8();
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new WireFormatError('invalid compact-u16 length');
  }

  take(length: number): Uint8Array {
    const end = this.offset + length;
    if (end > this.bytes.length) throw new WireFormatError(UNEXPECTED_EOF);
    const view = this.bytes.subarray(this.offset, end);
    this.offset = end;
    return view;
  }
}

/** Parses a serialised transaction; throws {@link WireFormatError} when the bytes are malformed. */
export function parseWireTransaction(input: Uint8Array): WireTransaction {
  // Views of a Buffer are Buffers, whose construction is several times dearer than a plain
  // Uint8Array's; a transaction yields about ten of them.
  const bytes = Buffer.isBuffer(input)
    ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
    : input;
  const cursor = new Cursor(bytes, 0);
  const signatureCount = cursor.shortVec();
  const signatures: Uint8Array[] = [];
  for (let index = 0; index < signatureCount; index += 1) signatures.push(cursor.take(64));
  const messageOffset = cursor.offset;
  let version: 'legacy' | 0 = 'legacy';
  const prefix = bytes[cursor.offset];
  if (prefix !== undefined && (prefix & 0x80) !== 0) {
    const number = prefix & 0x7f;
    if (number === 127) throw new WireFormatError('off-chain messages are not accepted');
    if (number !== 0) {
      throw new WireFormatError(
        `invalid value: integer \`${number}\`, expected a valid transaction message version`,
      );
    }
    version = 0;
    cursor.offset += 1;
  }
  const header: MessageHeader = {
    numRequiredSignatures: cursor.u8(),
    numReadonlySignedAccounts: cursor.u8(),
    numReadonlyUnsignedAccounts: cursor.u8(),
  };
  const keyCount = cursor.shortVec();
  const staticAccountKeys: Uint8Array[] = [];
  for (let index = 0; index < keyCount; index += 1) staticAccountKeys.push(cursor.take(32));
  const blockhashOffset = cursor.offset;
  cursor.take(32);
  const instructionCount = cursor.shortVec();
  const instructions: CompiledInstructionView[] = [];
  for (let index = 0; index < instructionCount; index += 1) {
    const programIdIndex = cursor.u8();
    const accountIndexes = cursor.take(cursor.shortVec());
    const data = cursor.take(cursor.shortVec());
    instructions.push({ programIdIndex, accountIndexes, data });
  }
  const addressTableLookups: AddressTableLookupView[] = [];
  if (version === 0) {
    const lookupCount = cursor.shortVec();
    for (let index = 0; index < lookupCount; index += 1) {
      const tableAddress = cursor.take(32);
      const writableIndexes = cursor.take(cursor.shortVec());
      const readonlyIndexes = cursor.take(cursor.shortVec());
      addressTableLookups.push({ tableAddress, writableIndexes, readonlyIndexes });
    }
  }
  if (cursor.offset !== bytes.length) throw new WireFormatError('trailing bytes after the message');
  const transaction: WireTransaction = {
    bytes,
    signatures,
    messageOffset,
    version,
    header,
    staticAccountKeys,
    blockhashOffset,
    instructions,
    addressTableLookups,
  };
  sanitize(transaction);
  return transaction;
}

function sanitize(transaction: WireTransaction): void {
  const { header, staticAccountKeys, signatures, instructions, addressTableLookups } = transaction;
  const loadedCount = addressTableLookups.reduce(
    (sum, lookup) => sum + lookup.writableIndexes.length + lookup.readonlyIndexes.length,
    0,
  );
  const totalKeys = staticAccountKeys.length + loadedCount;
  const failed =
    header.numRequiredSignatures === 0 ||
    signatures.length !== header.numRequiredSignatures ||
    header.numRequiredSignatures > staticAccountKeys.length ||
    header.numReadonlySignedAccounts >= header.numRequiredSignatures ||
    header.numReadonlyUnsignedAccounts > staticAccountKeys.length - header.numRequiredSignatures ||
    totalKeys > 256 ||
    instructions.some(
      (instruction) =>
        instruction.programIdIndex === 0 ||
        instruction.programIdIndex >= staticAccountKeys.length ||
        instruction.accountIndexes.some((index) => index >= totalKeys),
    );
  if (failed)
    throw new WireFormatError('Transaction failed to sanitize accounts offsets correctly', 'sanitize');
}

/** Whether the static key at `index` is writable according to the message header. */
export function isStaticKeyWritable(transaction: WireTransaction, index: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } =
    transaction.header;
  if (index < numRequiredSignatures) return index < numRequiredSignatures - numReadonlySignedAccounts;
  return index < transaction.staticAccountKeys.length - numReadonlyUnsignedAccounts;
}

/** The message bytes the signatures sign. */
export function getMessageBytes(transaction: WireTransaction): Uint8Array {
  return transaction.bytes.subarray(transaction.messageOffset);
}

/**
 * Parses bare message bytes (as getFeeForMessage receives them) by prefixing an empty signature
 * section sized from the header.
 */
export function parseWireMessage(messageBytes: Uint8Array): WireTransaction {
  const headerOffset = messageBytes.length > 0 && (messageBytes[0]! & 0x80) !== 0 ? 1 : 0;
  const signatureCount = messageBytes[headerOffset];
  if (signatureCount === undefined || signatureCount > 127) throw new WireFormatError('invalid message');
  const bytes = new Uint8Array(1 + signatureCount * 64 + messageBytes.length);
  bytes[0] = signatureCount;
  bytes.set(messageBytes, 1 + signatureCount * 64);
  return parseWireTransaction(bytes);
}
