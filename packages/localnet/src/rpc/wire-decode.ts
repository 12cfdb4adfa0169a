/**
 * Decoding a base64 / base58 wire payload (a transaction or a message) at the RPC boundary, with
 * the errors Agave 2.3's `decode_and_deserialize` answers: the base64 crate's (0.22) error in
 * Debug form, then bincode's, prefixed with the Rust type being read.
 */
import { decodeBase58 } from '../base58';
import { MAX_TRANSACTION_BYTES } from '../wire-transaction';
import { agaveInvalidParams } from './rpc-error';

export const TRANSACTION_TYPE = 'solana_transaction::versioned::VersionedTransaction';
export const MESSAGE_TYPE = 'solana_message::versioned::VersionedMessage';
/** Agave's MAX_BASE58_SIZE / MAX_BASE64_SIZE: the encodings of a full packet. */
const MAX_BASE58_SIZE = 1683;
const MAX_BASE64_SIZE = 1644;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD = 61; // '='

/**
 * What the base64 crate's STANDARD engine (canonical padding) reports for `text`, in Debug form,
 * or undefined when it decodes: an invalid symbol (a '=' before the last quad included), a symbol
 * count no quad ends with, padding that is missing or not canonical, or a last symbol with bits
 * set past the data.
 */
export function base64DecodeError(text: string): string | undefined {
  let symbols = 0;
  let firstPad = -1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === PAD) {
      if (firstPad === -1) firstPad = index;
      continue;
    }
    if (code > 0x7f || !ALPHABET.includes(text[index]!)) return `InvalidByte(${index}, ${code})`;
    if (firstPad !== -1) return `InvalidByte(${firstPad}, ${PAD})`;
    symbols += 1;
  }
  if (symbols % 4 === 1) return `InvalidLength(${symbols})`;
  const padding = firstPad === -1 ? 0 : text.length - firstPad;
  const expectedPadding = symbols % 4 === 0 ? 0 : 4 - (symbols % 4);
  if (padding !== expectedPadding) return 'InvalidPadding';
  if (symbols % 4 !== 0) {
    // The last symbol's bits beyond the final byte must be zero.
    const lastIndex = symbols - 1;
    const value = ALPHABET.indexOf(text[lastIndex]!);
    const unusedBits = symbols % 4 === 2 ? 4 : 2;
    if ((value & ((1 << unusedBits) - 1)) !== 0) {
      return `InvalidLastSymbol(${lastIndex}, ${text.charCodeAt(lastIndex)})`;
    }
  }
  return undefined;
}

/** The bytes of a base64 or base58 payload of type `typeName`, or Agave's -32602. */
export function decodeWirePayload(
  encoded: string,
  encoding: 'base58' | 'base64',
  typeName: string,
): Uint8Array {
  let bytes: Uint8Array;
  if (encoding === 'base64') {
    if (encoded.length > MAX_BASE64_SIZE) {
      throw agaveInvalidParams(
        `base64 encoded ${typeName} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE64_SIZE}/${MAX_TRANSACTION_BYTES})`,
      );
    }
    const error = base64DecodeError(encoded);
    if (error !== undefined) throw agaveInvalidParams(`invalid base64 encoding: ${error}`);
    bytes = Buffer.from(encoded, 'base64');
  } else {
    if (encoded.length > MAX_BASE58_SIZE) {
      throw agaveInvalidParams(
        `base58 encoded ${typeName} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE58_SIZE}/${MAX_TRANSACTION_BYTES})`,
      );
    }
    const decoded = decodeBase58(encoded);
    if (decoded === undefined) throw agaveInvalidParams('invalid base58 encoding: InvalidCharacter');
    bytes = decoded;
  }
  if (bytes.length > MAX_TRANSACTION_BYTES) {
    throw agaveInvalidParams(
      `decoded ${typeName} too large: ${bytes.length} bytes (max: ${MAX_TRANSACTION_BYTES} bytes)`,
    );
  }
  return bytes;
}
