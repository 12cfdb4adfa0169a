/**
 * Zstandard compression for the `base64+zstd` account encoding: zstd's reference C library compiled
 * to WebAssembly (@bokuweb/zstd-wasm; Node 20's zlib has no zstd). The WebAssembly module compiles
 * asynchronously, so this module awaits it once at load (a top-level await): every importer, the
 * cluster worker thread included, gets a ready compressor and encodes synchronously.
 */
import { compress, init } from '@bokuweb/zstd-wasm';

/** zstd's default level; validators ask for level 0, which zstd maps to this one. */
const ZSTD_DEFAULT_LEVEL = 3;

await init();

/** One zstd frame of `data`; throws when the compressor fails. */
export function zstdCompress(data: Uint8Array): Uint8Array {
  return compress(data, ZSTD_DEFAULT_LEVEL);
}
