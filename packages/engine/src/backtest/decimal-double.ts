// The double of a decimal of 16 to 18 digits whose integer is past 2^53 (an equity point's,
// `<digits>e-<k>`; fewer digits are an exact integer over an exact power of ten) without parsing its
// text: the quotient on doubles, kept when a bound on its residual shows it is the nearest double.

/** 10^k as doubles, exact for k ≤ 22. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Dekker's splitter, 2^27 + 1. */
const SPLIT = 134_217_729;
const BITS = new Float64Array(2);
const WORDS = new Uint32Array(BITS.buffer);
/** The word order of a double in memory (the high word second on little-endian machines). */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
/** The residual must be this much inside the half gap (the sum of its three parts is rounded twice). */
const INSIDE = 1 - 2 ** -40;

/**
 * Number(`${hi × 10^9 + lo}e-${k}`) for 0 ≤ hi < 10^9, 0 ≤ lo ≤ 10^9, 0 ≤ k ≤ 22 and a positive
 * integer: the nearest double, or NaN when the doubles cannot be sure of it (the quotient lies
 * within 2^-40 of a half gap from the candidate; the caller parses the text then).
 */
export function quotientDouble(hi: number, lo: number, k: number): number {
  // hi × 10^9 = hi × 5^9 × 2^9 is exact (hi × 5^9 < 2^53).
  return quotientOfSum(hi * 1e9, lo, k);
}

/**
 * quotientDouble of the integer t + lo, for whole doubles t and lo ≥ 0 (t exact: the caller's
 * product) whose sum is below 10^18.
 */
export function quotientOfSum(t: number, lo: number, k: number): number {
  // s + err = the integer exactly (TwoSum), s its nearest double.
  const s = t + lo;
  const back = s - t;
  const err = t - (s - back) + (lo - back);
  if (k === 0) return s;
  if (!LITTLE_ENDIAN || !(s > 0)) return Number.NaN;
  const p = POWERS_OF_TEN[k]!;
  // s / p rounds twice (s is already rounded): the candidate may be a double off, then corrected
  // by its residual once.
  const x = s / p;
  const residual = residualBound(s, err, p, x);
  if (Math.abs(residual) < halfGap(x) * p * INSIDE) return x;
  const y = x + residual / p;
  return Math.abs(residualBound(s, err, p, y)) < halfGap(y) * p * INSIDE ? y : Number.NaN;
}

/**
 * A bound on the residual (s + err) − x × p, for a candidate x within a factor 2 of (s + err) / p:
 * the sum of the magnitudes of the three parts whose sum is the residual exactly (so at least its
 * magnitude), signed as r (the rounded sum of the two leading parts). The caller compares its
 * magnitude with the half gap, and when that fails corrects x by it, a correction it checks again.
 */
function residualBound(s: number, err: number, p: number, x: number): number {
  // x × p = ph + pl exactly (Dekker's product; no overflow below 10^40).
  const ph = x * p;
  let c = SPLIT * x;
  const xh = c - (c - x);
  const xl = x - xh;
  c = SPLIT * p;
  const pHigh = c - (c - p);
  const pLow = p - pHigh;
  const pl = xh * pHigh - ph + xh * pLow + xl * pHigh + xl * pLow;
  // (s + err) − x × p = (s − ph) + (err − pl): s − ph is exact (ph is within a factor 2 of s),
  // err − pl = b + e1 and (s − ph) + b = r + e2 exactly (TwoSum both).
  const a = s - ph;
  const minusPl = -pl;
  const b = err + minusPl;
  const bBack = b - err;
  const e1 = err - (b - bBack) + (minusPl - bBack);
  const r = a + b;
  const rBack = r - a;
  const e2 = a - (r - rBack) + (b - rBack);
  // The parts' magnitudes bound the exact residual; its sign is r's (|e1| + |e2| ≪ |r| or all tiny).
  const bound = Math.abs(r) + Math.abs(e2) + Math.abs(e1);
  return r < 0 ? -bound : bound;
}

/**
 * Half the smaller gap between a positive normal double and its neighbours: half its ulp, a quarter
 * for a power of two (the gap below is half the one above); NaN for a subnormal.
 */
function halfGap(x: number): number {
  BITS[0] = x;
  const high = WORDS[1]!;
  const exponent = (high >>> 20) & 0x7ff;
  const powerOfTwo = (high & 0xfffff) === 0 && WORDS[0] === 0;
  // ulp(x) / 2 = 2^(exponent − 1075 − 1), a quarter = 2^(exponent − 1075 − 2): made from their bits.
  const biased = exponent - 52 - (powerOfTwo ? 2 : 1);
  if (exponent === 0 || biased < 1) return Number.NaN;
  WORDS[3] = biased << 20;
  WORDS[2] = 0;
  return BITS[1]!;
}
