/*
 * base64 ↔ bytes for wire-format transactions. The browser has no Buffer; atob/btoa work on
 * "binary strings" (one char per byte), so bytes are converted in chunks to stay clear of the
 * argument limit of String.fromCharCode.
 */

const CHUNK_SIZE = 0x8000;

/**
 * Decodes standard base64 (as the server sends `unsigned_transaction`) into bytes.
 *
 * @example decodeBase64('AQID'); // Uint8Array [1, 2, 3]
 */
export function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64.trim());
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * Encodes bytes as standard base64 (padded), as POST /trading/execute-signed-transaction expects.
 *
 * @example encodeBase64(new Uint8Array([1, 2, 3])); // 'AQID'
 */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK_SIZE) {
    binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK_SIZE));
  }
  return btoa(binary);
}
