// Exact integer arithmetic on plain numbers for the venue's hot path (issue #28): a bigint
// operation allocates, a number operation does not. Every value stays a whole number within
// ±(2^53 − 1), where a double is exact; an operation whose result would leave that range answers
// NaN instead, NaN carries through the rest, and the caller redoes that computation in bigint (the
// venue's reference arithmetic, perp-math.ts). So no result is ever rounded: it is exact or it is
// recomputed.

/** The largest whole number a double holds exactly (2^53 − 1). */
export const MAX_UNITS = Number.MAX_SAFE_INTEGER;
/** {@link MAX_UNITS} as a bigint: prices and lots are bounded by it where the venue takes them in. */
export const MAX_UNITS_BIG = BigInt(MAX_UNITS);
/**
 * Dividends are kept within 2^52 (divisors are far smaller): then |a| + b < 2^53 and the double
 * quotient a / b, rounded to nearest, never rounds across a whole number, so truncating or ceiling
 * it gives the exact integer quotient.
 */
const MAX_DIVIDEND = 2 ** 52;

/** One int64 and its two 32-bit halves (low first on a little-endian machine). */
const WORD = new BigInt64Array(1);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HIGH = new Int32Array(WORD.buffer);
const LOW = new Uint32Array(WORD.buffer);
const HIGH_HALF = LITTLE_ENDIAN ? 1 : 0;
const LOW_HALF = LITTLE_ENDIAN ? 0 : 1;

/**
 * A bigint the caller knows lies within ±{@link MAX_UNITS}, as a number. `Number(value)` is a call
 * into the runtime (~25 ns); an int64 store and two 32-bit reads are not, and hi × 2^32 + lo is
 * exact below 2^53. Outside ±2^63 the store would wrap: callers check the range first.
 */
export function smallUnits(value: bigint): number {
  WORD[0] = value;
  const high = HIGH[HIGH_HALF]!;
  // Below 2^32 the low half alone: code V8 has not optimized yet then answers a small integer, not
  // a heap number — the first values a field holds set how V8 stores it (a book order's lots and
  // price, as a box of their own per order once one was a heap number).
  return high === 0 ? LOW[LOW_HALF]! : high * 4_294_967_296 + LOW[LOW_HALF]!;
}

/** A bigint as a number when it is exact, else NaN. */
export function unitsOf(value: bigint): number {
  const n = Number(value);
  return n <= MAX_UNITS && n >= -MAX_UNITS ? n : NaN;
}

export function mul(a: number, b: number): number {
  const p = a * b;
  return p <= MAX_UNITS && p >= -MAX_UNITS ? p : NaN;
}

export function add(a: number, b: number): number {
  const s = a + b;
  return s <= MAX_UNITS && s >= -MAX_UNITS ? s : NaN;
}

export function sub(a: number, b: number): number {
  const s = a - b;
  return s <= MAX_UNITS && s >= -MAX_UNITS ? s : NaN;
}

/** a / b truncated toward zero, as bigint division does (0 < b < 2^52). */
export function quot(a: number, b: number): number {
  return a <= MAX_DIVIDEND && a >= -MAX_DIVIDEND ? Math.trunc(a / b) : NaN;
}

/**
 * a mod b for 0 ≤ a ≤ 2^53 − 1, 0 < b (whole numbers): `%` on doubles is a call into C (fmod);
 * below 2^52 the truncated quotient is exact, so a − q × b is.
 */
export function rem(a: number, b: number): number {
  return a <= MAX_DIVIDEND ? a - Math.trunc(a / b) * b : a % b;
}

/** ⌈a / b⌉ for 0 ≤ a, 0 < b < 2^52 (perp-math's `ceilDiv`). */
export function ceilQuot(a: number, b: number): number {
  return a <= MAX_DIVIDEND ? Math.ceil(a / b) : NaN;
}

/** |lots| × price / scale, floored (perp-math's `notionalOf`). */
export function notionalUnits(lots: number, price: number, scale: number): number {
  return quot(mul(lots < 0 ? -lots : lots, price), scale);
}

/** A fee rounded up (perp-math's `feeOf`): ⌈notional × bps / 10,000⌉. */
export function feeUnits(notional: number, bps: number): number {
  return ceilQuot(mul(notional, bps), 10_000);
}
