import { Dec } from '../money/decimal';
import { quotientDouble } from './decimal-double';

// An equity point cash + base × mid (cash units at one scale, base units times a mid's integer at
// another) rounded to its decimal (Dec.precision digits, half up) and that decimal's double, on
// doubles: the exact value is summed in limbs of 7 digits aligned at the decimal point, decimal.js's
// own words (its first word the digits down to a multiple of 7 places, the last padded with zeros).
// Every input is a whole number below 2^53 and split into limbs below 10^7 by a division that is
// exact there (x / 10^7 below 2^53 is a double within 2^-24 of its quotient, whose fraction is a
// multiple of 10^-7: its floor is the quotient's); a limb times a limb or a power of ten below 10^7
// is below 10^14, and a few of those summed stay far below 2^53, so every step is exact. The
// rounding then drops digits of an exact integer, as exact.roundHalfUp does on its text.

const LIMB = 10_000_000;
const LOG_BASE = 7;
/**
 * Limbs a value may take: a 16-digit cash or a 32-digit held value shifted by up to MAX_LIMB_SCALE
 * places (12 limbs), and one more a rounding may carry into.
 */
const LIMBS = 13;
/** The finest scale taken: the decimal point is at a multiple of 7 places, at most this. */
export const MAX_LIMB_SCALE = 35;
const PRECISION = Dec.precision;
/** 10^k as doubles, exact for k ≤ 22. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * Rounds cash / 10^cashScale + base × mid / 10^heldScale: the words, exponent and double of its
 * decimal. Inputs whole numbers from 0 to 2^53 − 1, scales from 0 to MAX_LIMB_SCALE.
 */
export class LimbRounding {
  /** The last value's double (a typed array: a double field is boxed anew on each store). */
  readonly value = new Float64Array(1);
  /** The last value's decimal.js exponent. */
  exponent = 0;
  /** value × 10^point in limbs of 7 digits, the lowest first. */
  private readonly limbs = new Float64Array(LIMBS);

  /** Writes the words to out[at…) and returns their count (the value is ≥ 0: its sign is +). */
  of(
    cash: number,
    cashScale: number,
    base: number,
    mid: number,
    heldScale: number,
    out: Int32Array,
    at: number,
  ): number {
    const { limbs } = this;
    const held = base !== 0 && mid !== 0;
    const finest = held ? Math.max(cashScale, heldScale) : cashScale;
    const point = Math.ceil(finest / LOG_BASE) * LOG_BASE;
    // The limbs written: the cash's three, the product's six, one for their carry (to `end`), and
    // one for the rounding's.
    const cashAt = Math.floor((point - cashScale) / LOG_BASE);
    const end =
      (held ? Math.max(cashAt + 3, Math.floor((point - heldScale) / LOG_BASE) + 6) : cashAt + 3) + 1;
    for (let k = 0; k <= end; k += 1) limbs[k] = 0;
    addShifted(limbs, cash, point - cashScale);
    if (held) addProduct(limbs, base, mid, point - heldScale);
    let top = carry(limbs, end);
    if (top < 0) {
      // new Dec(0)'s fields.
      this.value[0] = 0;
      this.exponent = 0;
      out[at] = 0;
      return 1;
    }
    let digits = digitCount(limbs[top]!);
    const length = top * LOG_BASE + digits;
    // The lowest digit kept: those below it are dropped, the first of them deciding a half-up rounding.
    const cut = length > PRECISION ? length - PRECISION : 0;
    let low = Math.floor(cut / LOG_BASE);
    if (cut > 0) {
      const below = cut - 1;
      const first = mod(
        Math.floor(limbs[Math.floor(below / LOG_BASE)]! / POWERS_OF_TEN[below % LOG_BASE]!),
        10,
      );
      for (let k = 0; k < low; k += 1) limbs[k] = 0;
      const place = POWERS_OF_TEN[cut - low * LOG_BASE]!;
      limbs[low] = limbs[low]! - mod(limbs[low]!, place);
      if (first >= 5) {
        limbs[low] = limbs[low]! + place;
        for (let k = low; limbs[k]! >= LIMB; k += 1) {
          limbs[k] = limbs[k]! - LIMB;
          limbs[k + 1] = limbs[k + 1]! + 1;
          if (k + 1 > top) top = k + 1;
        }
        digits = digitCount(limbs[top]!);
      }
    }
    while (limbs[low] === 0) low += 1;
    let count = 0;
    for (let k = top; k >= low; k -= 1) out[at + count++] = limbs[k]!;
    this.exponent = top * LOG_BASE + digits - 1 - point;
    this.value[0] = this.double(top * LOG_BASE + digits, low, point);
    return count;
  }

  /**
   * Number(text) of the rounded value (its digits [low limb's lowest non-zero digit, length) of
   * value × 10^point): the integer of its digits times or over a power of ten when both are exact
   * (one correctly rounded operation), quotientDouble for 16 to 18 digits, the text's parse otherwise.
   */
  private double(length: number, low: number, point: number): number {
    const { limbs } = this;
    let from = low * LOG_BASE;
    for (let word = limbs[low]!; mod(word, 10) === 0; word /= 10) from += 1;
    const exponent = from - point;
    const count = length - from;
    if (count <= 15) {
      const integer = digitsOf(limbs, from, length);
      if (exponent >= -22 && exponent <= 22) {
        return exponent >= 0 ? integer * POWERS_OF_TEN[exponent]! : integer / POWERS_OF_TEN[-exponent]!;
      }
      return Number(`${integer}e${exponent}`);
    }
    const lo = digitsOf(limbs, from, from + 9);
    const hi = digitsOf(limbs, from + 9, length);
    if (exponent >= -22 && exponent <= 0) {
      const x = quotientDouble(hi, lo, -exponent);
      if (x === x) return x;
    }
    return Number(`${hi}${String(lo).padStart(9, '0')}e${exponent}`);
  }
}

/** limbs += x × 10^shift (x a whole number below 2^53). */
function addShifted(limbs: Float64Array, x: number, shift: number): void {
  const whole = Math.floor(shift / LOG_BASE);
  const place = POWERS_OF_TEN[shift - whole * LOG_BASE]!;
  const x1 = Math.floor(x / LIMB);
  const x2 = Math.floor(x1 / LIMB);
  limbs[whole] = limbs[whole]! + (x - x1 * LIMB) * place;
  limbs[whole + 1] = limbs[whole + 1]! + (x1 - x2 * LIMB) * place;
  limbs[whole + 2] = limbs[whole + 2]! + x2 * place;
}

/** limbs += base × mid × 10^shift (base and mid whole numbers below 2^53). */
function addProduct(limbs: Float64Array, base: number, mid: number, shift: number): void {
  const b1 = Math.floor(base / LIMB);
  const b0 = base - b1 * LIMB;
  const b2 = Math.floor(b1 / LIMB);
  const c1 = b1 - b2 * LIMB;
  const m1 = Math.floor(mid / LIMB);
  const m0 = mid - m1 * LIMB;
  const m2 = Math.floor(m1 / LIMB);
  const n1 = m1 - m2 * LIMB;
  // The product's limbs, each a sum of at most three products below 10^14, carried into limbs
  // below 10^7 before they are scaled by the place (below 10^7 too).
  let sum = b0 * m0;
  let over = Math.floor(sum / LIMB);
  const p0 = sum - over * LIMB;
  sum = b0 * n1 + c1 * m0 + over;
  over = Math.floor(sum / LIMB);
  const p1 = sum - over * LIMB;
  sum = b0 * m2 + c1 * n1 + b2 * m0 + over;
  over = Math.floor(sum / LIMB);
  const p2 = sum - over * LIMB;
  sum = c1 * m2 + b2 * n1 + over;
  over = Math.floor(sum / LIMB);
  const p3 = sum - over * LIMB;
  sum = b2 * m2 + over;
  over = Math.floor(sum / LIMB);
  const p4 = sum - over * LIMB;
  const whole = Math.floor(shift / LOG_BASE);
  const place = POWERS_OF_TEN[shift - whole * LOG_BASE]!;
  limbs[whole] = limbs[whole]! + p0 * place;
  limbs[whole + 1] = limbs[whole + 1]! + p1 * place;
  limbs[whole + 2] = limbs[whole + 2]! + p2 * place;
  limbs[whole + 3] = limbs[whole + 3]! + p3 * place;
  limbs[whole + 4] = limbs[whole + 4]! + p4 * place;
  limbs[whole + 5] = limbs[whole + 5]! + over * place;
}

/**
 * Carries each of limbs[0, end)'s excess over 10^7 into the next (all below 2^53; limbs past `end`
 * are zero and stay so); returns the top non-zero limb, or −1.
 */
function carry(limbs: Float64Array, end: number): number {
  let top = -1;
  let over = 0;
  for (let k = 0; k < end; k += 1) {
    const sum = limbs[k]! + over;
    over = Math.floor(sum / LIMB);
    const limb = sum - over * LIMB;
    limbs[k] = limb;
    if (limb !== 0) top = k;
  }
  return top;
}

/**
 * x mod p for a whole x below 2^53 and p up to 10^7 (x / p is exact enough for its floor, see
 * above): a double's % is a call to fmod, several times slower.
 */
function mod(x: number, p: number): number {
  return x - Math.floor(x / p) * p;
}

/** Digits of a limb from 1 to 10^7 − 1. */
function digitCount(limb: number): number {
  let digits = 1;
  while (digits < LOG_BASE && limb >= POWERS_OF_TEN[digits]!) digits += 1;
  return digits;
}

/** The integer of digits [from, to) of the limbs' number (at most 15 of them). */
function digitsOf(limbs: Float64Array, from: number, to: number): number {
  let integer = 0;
  for (let k = Math.floor((to - 1) / LOG_BASE); k >= Math.floor(from / LOG_BASE); k -= 1) {
    const lo = Math.max(from - k * LOG_BASE, 0);
    const hi = Math.min(to - k * LOG_BASE, LOG_BASE);
    const part = mod(Math.floor(limbs[k]! / POWERS_OF_TEN[lo]!), POWERS_OF_TEN[hi - lo]!);
    integer = integer * POWERS_OF_TEN[hi - lo]! + part;
  }
  return integer;
}
