import { Dec } from '../money/decimal';
import { quotientDouble, quotientOfSum } from './decimal-double';

// An equity point cash + base × mid (cash units at one scale, base units times a mid's integer at
// another) rounded to its decimal (Dec.precision digits, half up) and that decimal's double, on
// doubles: the exact value is summed in limbs of 7 digits aligned at the decimal point, decimal.js's
// own words (its first word the digits down to a multiple of 7 places, the last padded with zeros).
// Every input is a whole number below 2^53 and split into limbs below 10^7 by a product with 10^-7
// whose floor is at most one off the quotient's, which the exact remainder corrects (limbsIn); a
// limb times a limb or a power of ten below 10^7 is below 10^14, and a few of those summed stay far
// below 2^53, so every step is exact. The rounding then drops digits of an exact integer, as
// exact.roundHalfUp does on its text.

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
const SAFE = Number.MAX_SAFE_INTEGER;
/** 10^k as doubles, exact for k ≤ 22, and the doubles nearest 10^-k. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** 2^53 − 1 over 5^k, down: a whole x up to it times 10^k is exact (x × 5^k × 2^k, below 2^53 × 2^k). */
const SAFE_OVER_FIVES = Array.from({ length: 2 * LOG_BASE + 1 }, (_, k) => Math.floor(SAFE / 5 ** k));
const INVERSE_POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 1 / 10 ** k);
/** Per count of places (up to the limbs' digits): its whole limbs, and the places left over. */
const LIMB_OF = Int32Array.from({ length: LIMBS * LOG_BASE + 1 }, (_, s) => Math.floor(s / LOG_BASE));
const DIGIT_OF = Int32Array.from({ length: LIMBS * LOG_BASE + 1 }, (_, s) => s % LOG_BASE);
/** Per scale up to MAX_LIMB_SCALE: the decimal point's place, the next multiple of LOG_BASE. */
const POINT_OF = Int32Array.from(
  { length: MAX_LIMB_SCALE + 1 },
  (_, s) => Math.ceil(s / LOG_BASE) * LOG_BASE,
);

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
    const point = POINT_OF[finest]!;
    // The limbs written: the cash's three, the product's six, one for their carry (to `end`), and
    // one for the rounding's.
    const cashAt = LIMB_OF[point - cashScale]!;
    const end = (held ? Math.max(cashAt + 3, LIMB_OF[point - heldScale]! + 6) : cashAt + 3) + 1;
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
    let low = LIMB_OF[cut]!;
    if (cut > 0) {
      const below = cut - 1;
      const first = modPower(floorOver(limbs[LIMB_OF[below]!]!, DIGIT_OF[below]!), 1);
      for (let k = 0; k < low; k += 1) limbs[k] = 0;
      const place = POWERS_OF_TEN[DIGIT_OF[cut]!]!;
      limbs[low] = limbs[low]! - modPower(limbs[low]!, DIGIT_OF[cut]!);
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
    this.value[0] = this.double(top * LOG_BASE + digits, low, top, point);
    return count;
  }

  /**
   * Number(text) of the rounded value (its digits [low limb's lowest non-zero digit, length) of
   * value × 10^point, in limbs low to top): the integer of its digits times or over a power of ten
   * when both are exact (one correctly rounded operation), quotientOfSum for 16 to 18 digits, the
   * text's parse otherwise. Each is the value's nearest double.
   */
  private double(length: number, low: number, top: number, point: number): number {
    const { limbs } = this;
    // First the integer of its digits from the limbs when it is below 2^53, the low limb's trailing
    // zeros taken off by exact products: one correctly rounded operation too, on the same value.
    let word = limbs[low]!;
    let zeros = 0;
    for (let tenth = floorOver(word, 1); tenth * 10 === word; tenth = floorOver(word, 1)) {
      word = tenth;
      zeros += 1;
    }
    // The limbs above the low two (`upper`), the next one and the low one's digits (`lower`): the
    // digits' integer is upper × 10^(7 + theirs) + lower.
    const lowDigits = LOG_BASE - zeros;
    let whole = word;
    let upper = 0;
    let lower = word;
    if (low < top) {
      lower = limbs[low + 1]! * POWERS_OF_TEN[lowDigits]! + word;
      if (low + 1 < top) {
        upper = limbs[top]!;
        for (let k = top - 1; k > low + 1; k -= 1) upper = upper * LIMB + limbs[k]!;
      }
      whole = upper * POWERS_OF_TEN[LOG_BASE + lowDigits]! + lower;
    }
    const shift = low * LOG_BASE + zeros - point;
    if (whole <= SAFE && shift >= -22 && shift <= 22) {
      return shift >= 0 ? whole * POWERS_OF_TEN[shift]! : whole / POWERS_OF_TEN[-shift]!;
    }
    // 16 to 18 digits: upper × 10^(7 + the low one's digits) is exact (below 2^53 / 5^those, as 18
    // digits keep it), to quotientOfSum with lower (below 10^14).
    if (upper <= SAFE_OVER_FIVES[LOG_BASE + lowDigits]! && shift >= -22 && shift <= 0) {
      const x = quotientOfSum(upper * POWERS_OF_TEN[LOG_BASE + lowDigits]!, lower, -shift);
      if (x === x) return x;
    }
    const from = low * LOG_BASE + zeros;
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
  const whole = LIMB_OF[shift]!;
  const place = POWERS_OF_TEN[DIGIT_OF[shift]!]!;
  const x1 = limbsIn(x);
  const x2 = limbsIn(x1);
  limbs[whole] = limbs[whole]! + (x - x1 * LIMB) * place;
  limbs[whole + 1] = limbs[whole + 1]! + (x1 - x2 * LIMB) * place;
  limbs[whole + 2] = limbs[whole + 2]! + x2 * place;
}

/** limbs += base × mid × 10^shift (base and mid whole numbers below 2^53). */
function addProduct(limbs: Float64Array, base: number, mid: number, shift: number): void {
  const whole = LIMB_OF[shift]!;
  const place = POWERS_OF_TEN[DIGIT_OF[shift]!]!;
  const scaled = mid * place;
  if (scaled <= SAFE) {
    // The place taken into the mid (exactly: it stays below 2^53, the product rounds up past it
    // otherwise): the product's limbs are sums of at most three products below 10^14, added as
    // they are for carry() to carry with the cash's (its chain, not one of their own first).
    const b1 = limbsIn(base);
    const b0 = base - b1 * LIMB;
    const b2 = limbsIn(b1);
    const c1 = b1 - b2 * LIMB;
    const m1 = limbsIn(scaled);
    const m0 = scaled - m1 * LIMB;
    const m2 = limbsIn(m1);
    const n1 = m1 - m2 * LIMB;
    limbs[whole] = limbs[whole]! + b0 * m0;
    limbs[whole + 1] = limbs[whole + 1]! + (b0 * n1 + c1 * m0);
    limbs[whole + 2] = limbs[whole + 2]! + (b0 * m2 + c1 * n1 + b2 * m0);
    limbs[whole + 3] = limbs[whole + 3]! + (c1 * m2 + b2 * n1);
    limbs[whole + 4] = limbs[whole + 4]! + b2 * m2;
    return;
  }
  const b1 = limbsIn(base);
  const b0 = base - b1 * LIMB;
  const b2 = limbsIn(b1);
  const c1 = b1 - b2 * LIMB;
  const m1 = limbsIn(mid);
  const m0 = mid - m1 * LIMB;
  const m2 = limbsIn(m1);
  const n1 = m1 - m2 * LIMB;
  // The product's limbs, each a sum of at most three products below 10^14, carried into limbs
  // below 10^7 before they are scaled by the place (below 10^7 too).
  let sum = b0 * m0;
  let over = limbsIn(sum);
  const p0 = sum - over * LIMB;
  sum = b0 * n1 + c1 * m0 + over;
  over = limbsIn(sum);
  const p1 = sum - over * LIMB;
  sum = b0 * m2 + c1 * n1 + b2 * m0 + over;
  over = limbsIn(sum);
  const p2 = sum - over * LIMB;
  sum = c1 * m2 + b2 * n1 + over;
  over = limbsIn(sum);
  const p3 = sum - over * LIMB;
  sum = b2 * m2 + over;
  over = limbsIn(sum);
  const p4 = sum - over * LIMB;
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
    over = limbsIn(sum);
    const limb = sum - over * LIMB;
    limbs[k] = limb;
    if (limb !== 0) top = k;
  }
  return top;
}

/**
 * floor(x / 10^7) for a whole x from 0 to 2^53 − 1, by a product rather than a division (several
 * times its latency, on the carries' chain): x × 10^-7 is within 2^-22 of x / 10^7, so its floor is
 * the quotient or one off it, which the remainder (exact: every term is whole and below 2^53) shows.
 */
function limbsIn(x: number): number {
  const q = Math.floor(x * INVERSE_LIMB);
  const r = x - q * LIMB;
  return r < 0 ? q - 1 : r >= LIMB ? q + 1 : q;
}

const INVERSE_LIMB = 1e-7;

/**
 * floor(x / 10^j) for a whole x below 2^50 and j from 0 to 7, by a product (see limbsIn): x × 10^-j
 * is within 2^-2 of x / 10^j, one off its floor at most, which the remainder (exact: its terms are
 * whole and below 2^53) shows.
 */
function floorOver(x: number, j: number): number {
  const p = POWERS_OF_TEN[j]!;
  const q = Math.floor(x * INVERSE_POWERS_OF_TEN[j]!);
  const r = x - q * p;
  return r < 0 ? q - 1 : r >= p ? q + 1 : q;
}

/** x mod 10^j for a whole x below 2^50 and j from 0 to 7 (floorOver's). */
function modPower(x: number, j: number): number {
  return x - floorOver(x, j) * POWERS_OF_TEN[j]!;
}

/** Digits of a limb from 1 to 10^7 − 1 (by halves: a loop's exit is a branch mispredicted). */
function digitCount(limb: number): number {
  if (limb < 1e3) return limb < 10 ? 1 : limb < 100 ? 2 : 3;
  if (limb < 1e5) return limb < 1e4 ? 4 : 5;
  return limb < 1e6 ? 6 : 7;
}

/** The integer of digits [from, to) of the limbs' number (at most 15 of them). */
function digitsOf(limbs: Float64Array, from: number, to: number): number {
  let integer = 0;
  for (let k = LIMB_OF[to - 1]!; k >= LIMB_OF[from]!; k -= 1) {
    const lo = Math.max(from - k * LOG_BASE, 0);
    const hi = Math.min(to - k * LOG_BASE, LOG_BASE);
    const part = modPower(floorOver(limbs[k]!, lo), hi - lo);
    integer = integer * POWERS_OF_TEN[hi - lo]! + part;
  }
  return integer;
}
