/**
 * Zstandard compression for the `base64+zstd` account encoding: zstd's reference C library compiled
 * to WebAssembly (@bokuweb/zstd-wasm; Node 20's zlib has no zstd). The WebAssembly module compiles
 * asynchronously, so this module awaits it once at load (a top-level await): every importer, the
 * cluster worker thread included, gets a ready compressor and encodes synchronously.
 */
import { compress, init } from '@bokuweb/zstd-wasm';

/** zstd's default level; validators ask for level 0, which zstd maps to this one. */
const ZSTD_DEFAULT_LEVEL = 3;
const FRAME_HEADER_DESCRIPTOR = 4;
/** The descriptor's Content_Checksum_flag: the one field kept (no dictionary, no content size). */
const CHECKSUM_FLAG = 0b0000_0100;
/**
 * The window descriptor of zstd's level 3 when the content size is not known: a 2 MiB window
 * (window log 21, exponent 21 − 10, no mantissa).
 */
const UNKNOWN_SIZE_WINDOW_DESCRIPTOR = (21 - 10) << 3;

await init();

/**
 * One zstd frame of `data`, with the frame header a validator writes. Agave streams the account
 * through zstd's encoder without telling it the size, so its frame names no content size and
 * carries a window descriptor (`KLUv/QBY…`); zstd's one-shot API, the only one this build
 * exports, names the size instead. The blocks are the one-shot compressor's: the same bytes for
 * raw and run-length blocks (small or incompressible data), decompressing to the same data always.
 * Throws when the compressor fails.
 */
export function zstdCompress(data: Uint8Array): Uint8Array {
  return withUnknownContentSize(compress(data, ZSTD_DEFAULT_LEVEL));
}

/** The same frame with a streaming encoder's header: no content size, a 2 MiB window. */
function withUnknownContentSize(frame: Uint8Array): Uint8Array {
  const descriptor = frame[FRAME_HEADER_DESCRIPTOR]!;
  const singleSegment = (descriptor >> 5) & 1;
  const contentSizeBytes = [singleSegment, 2, 4, 8][descriptor >> 6]!;
  const dictionaryIdBytes = [0, 1, 2, 4][descriptor & 0b11]!;
  const headerEnd =
    FRAME_HEADER_DESCRIPTOR + 1 + (singleSegment === 1 ? 0 : 1) + dictionaryIdBytes + contentSizeBytes;
  const out = new Uint8Array(FRAME_HEADER_DESCRIPTOR + 2 + frame.length - headerEnd);
  out.set(frame.subarray(0, FRAME_HEADER_DESCRIPTOR));
  out[FRAME_HEADER_DESCRIPTOR] = descriptor & CHECKSUM_FLAG;
  out[FRAME_HEADER_DESCRIPTOR + 1] = UNKNOWN_SIZE_WINDOW_DESCRIPTOR;
  out.set(frame.subarray(headerEnd), FRAME_HEADER_DESCRIPTOR + 2);
  return out;
}
