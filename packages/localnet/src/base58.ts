/**
 * Base58 (Bitcoin alphabet) for the RPC hot path: signatures, addresses and blockhashes are encoded
 * per transaction, and kit's generic codec is several times slower for these short inputs.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DECODE_TABLE = new Int8Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index += 1) DECODE_TABLE[ALPHABET.charCodeAt(index)] = index;

/** 58^5: limbs in this base keep limb × 2^16 + carry below 2^53, so doubles stay exact. */
const LIMB_BASE = 656_356_768;
const DIGITS_PER_LIMB = 5;
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (char) => char.charCodeAt(0));
// Scratch space reused across calls (JavaScript is single-threaded; grown on demand).
let limbScratch = new Float64Array(32);
let charScratch = Buffer.alloc(160);

/** limbs := limbs × multiplier + chunk; returns the new number of limbs in use. */
function feedLimbs(limbs: Float64Array, used: number, chunk: number, multiplier: number): number {
  let carry = chunk;
  for (let limb = 0; limb < used; limb += 1) {
    const value = limbs[limb]! * multiplier + carry;
    carry = Math.floor(value / LIMB_BASE);
    limbs[limb] = value - carry * LIMB_BASE;
  }
  while (carry > 0) {
    const next = Math.floor(carry / LIMB_BASE);
    limbs[used] = carry - next * LIMB_BASE;
    used += 1;
    carry = next;
  }
  return used;
}

/** Encodes bytes as base58; leading zero bytes become leading '1's. */
export function encodeBase58(bytes: Uint8Array): string {
  const length = bytes.length;
  let zeros = 0;
  while (zeros < length && bytes[zeros] === 0) zeros += 1;
  const maxLimbs = Math.ceil(((length - zeros) * 1.3658) / DIGITS_PER_LIMB) + 2;
  if (limbScratch.length < maxLimbs) limbScratch = new Float64Array(maxLimbs * 2);
  const limbs = limbScratch;
  // The value, little-endian in base 58^5, fed two bytes at a time: a quarter of the steps of the
  // byte-by-digit method, which matters for the 64-byte signature of every transaction.
  let used = 0;
  let index = zeros;
  if ((length - zeros) % 2 === 1) {
    used = feedLimbs(limbs, used, bytes[index]!, 256);
    index += 1;
  }
  for (; index < length; index += 2)
    used = feedLimbs(limbs, used, bytes[index]! * 256 + bytes[index + 1]!, 65_536);
  const maxChars = zeros + used * DIGITS_PER_LIMB;
  if (charScratch.length < maxChars) charScratch = Buffer.alloc(maxChars * 2);
  const chars = charScratch;
  // Write digits from the least significant end, then trim the top limb's leading zeros.
  let cursor = maxChars;
  for (let limb = 0; limb < used; limb += 1) {
    let value = limbs[limb]!;
    for (let digit = 0; digit < DIGITS_PER_LIMB; digit += 1) {
      const next = Math.floor(value / 58);
      cursor -= 1;
      chars[cursor] = ALPHABET_CODES[value - next * 58]!;
      value = next;
    }
  }
  while (cursor < maxChars && chars[cursor] === 49 /* '1' */) cursor += 1;
  for (let zero = 0; zero < zeros; zero += 1) {
    cursor -= 1;
    chars[cursor] = 49;
  }
  return chars.toString('latin1', cursor, maxChars);
}

/** Decodes base58 text, or returns undefined when it holds a character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array | undefined {
  const length = text.length;
  let zeros = 0;
  while (zeros < length && text.charCodeAt(zeros) === 49) zeros += 1;
  // log(58) / log(256) ≈ 0.733: upper bound of the output bytes.
  const size = (((length - zeros) * 733) / 1000 + 1) >>> 0;
  const bytes = new Uint8Array(size);
  let used = 0;
  for (let index = zeros; index < length; index += 1) {
    const code = text.charCodeAt(index);
    const value = code < 128 ? DECODE_TABLE[code]! : -1;
    if (value < 0) return undefined;
    let carry = value;
    let written = 0;
    for (let cursor = size - 1; (carry !== 0 || written < used) && cursor >= 0; cursor -= 1, written += 1) {
      carry += 58 * bytes[cursor]!;
      bytes[cursor] = carry & 0xff;
      carry >>>= 8;
    }
    used = written;
  }
  let start = size - used;
  while (start < size && bytes[start] === 0) start += 1;
  const out = new Uint8Array(zeros + (size - start));
  out.set(bytes.subarray(start), zeros);
  return out;
}

/** Decodes a base58 string that must be exactly `byteLength` bytes (an address, a signature). */
export function decodeBase58Exact(text: string, byteLength: number): Uint8Array | undefined {
  if (text.length === 0 || text.length > Math.ceil(byteLength * 1.37) + 1) return undefined;
  const bytes = decodeBase58(text);
  return bytes !== undefined && bytes.length === byteLength ? bytes : undefined;
}
