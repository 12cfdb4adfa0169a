/**
 * Counter-based hashing for deterministic simulations: a random number is a pure function of
 * (seed, stream, index), so any one of them can be recomputed without state or order.
 */

const SQRT3 = Math.sqrt(3);

/** Murmur3's 32-bit finaliser. */
export function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of four integers. `d` (a time index) may exceed 32 bits. */
export function hash4(a: number, b: number, c: number, d: number): number {
  let h = mix32(a ^ 0x9e3779b9);
  h = mix32(h ^ b);
  h = mix32(h ^ c);
  h = mix32(h ^ (d | 0) ^ Math.floor(d / 4294967296));
  return h;
}

/** A 32-bit hash of a string (FNV-1a, then mixed). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    h ^= text.charCodeAt(index);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** A uniform number in [0, 1) from a 32-bit hash. */
export function uniform(h: number): number {
  return h / 4294967296;
}

/** An approximately standard normal number (Irwin–Hall of four 16-bit uniforms; bounded by ±3.46). */
export function normal(a: number, b: number, c: number, d: number): number {
  const h1 = hash4(a, b, c, d);
  const h2 = mix32(h1 ^ 0x5bd1e995);
  const sum = (h1 & 0xffff) + (h1 >>> 16) + (h2 & 0xffff) + (h2 >>> 16);
  return (sum / 65536 - 2) * SQRT3;
}
