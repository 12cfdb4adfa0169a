import { Dec } from '../money/decimal';
import type { Exact } from '../money/exact';
import { emptyDoubleArray } from '../strategy/array-kinds';
import { quotientDouble } from './decimal-double';
import { LimbRounding, MAX_LIMB_SCALE } from './equity-limbs';

/** One point of an equity curve. */
export interface EquityPoint {
  /** Unix seconds at the end of the period. */
  readonly time: number;
  /** Cash plus open lots at the period's last close, whole quote tokens. */
  readonly equity: Dec;
}

/**
 * An equity curve made from exact values: each point's decimal (toDec: 18 digits, half up) and the
 * same value as a double (the decimal's toNumber) for the metrics, both from its rounded digits
 * rather than through decimal.js arithmetic or parsing. While the run pushes points, a point is kept
 * as numbers in typed arrays (its time, and its decimal's sign, exponent and words) and its double
 * in `values`; its decimal is made when read (`decimalAt`, `points`), so a run keeps no object a
 * point for the young generation to copy. A point whose value is the previous flat one (cash only,
 * unchanged) has that point's decimal.
 */
export class EquityCurve {
  /** Each point's equity as a double (its decimal's toNumber). */
  readonly values: number[] = emptyDoubleArray();
  private count = 0;
  private capacity: number;
  private times: Float64Array;
  /** Each point's decimal: the point whose sign, exponent and words it has (itself, or the flat one it repeats). */
  private sources: Int32Array;
  /** Per point: its decimal's exponent, and its sign times its count of words (decimal.js's). */
  private exponents: Int32Array;
  private signedCounts: Int8Array;
  /** decimal.js's words (7 digits each, from the decimal point): point i's from words[i × WORDS]. */
  private words: Int32Array;
  /** pushDec's decimals, by point. */
  private readonly given = new Map<number, Dec>();
  private readonly built: EquityPoint[] = [];
  private readonly rounding = new RoundedDecimal();
  private readonly limbs = new LimbRounding();
  private flatUnits = -1n;
  private flatSource = -1;

  /** `capacity`: the points expected (more may be pushed). */
  constructor(capacity = 16) {
    this.capacity = Math.max(1, capacity);
    this.times = new Float64Array(this.capacity);
    this.sources = new Int32Array(this.capacity);
    this.exponents = new Int32Array(this.capacity);
    this.signedCounts = new Int8Array(this.capacity);
    this.words = new Int32Array(this.capacity * WORDS);
  }

  get length(): number {
    return this.count;
  }

  timeAt(i: number): number {
    return this.times[i]!;
  }

  /** A point of a known decimal (the initial cash). */
  pushDec(time: number, equity: Dec): void {
    const i = this.next(time);
    this.values.push(equity.toNumber());
    this.sources[i] = i;
    this.given.set(i, equity);
  }

  push(time: number, equity: Exact): void {
    this.pushExact(time, equity.n, equity.scale);
  }

  /** A point of `n / 10^scale` (push without the Exact). */
  pushExact(time: number, n: bigint, scale: number): void {
    this.pushRounded(this.next(time), n, scale);
  }

  /**
   * A point of `cash` units at `cashScale` plus `base` units times a mid of integer `mid` (a double)
   * at `heldScale` (base decimals plus the mid's scale): on doubles in limbs when all are whole
   * numbers from 0 to 2^53 − 1 and the scales at most MAX_LIMB_SCALE, with bigints otherwise.
   */
  pushHeld(
    time: number,
    cash: bigint,
    cashScale: number,
    base: bigint,
    mid: number,
    heldScale: number,
  ): void {
    const i = this.next(time);
    // A bigint's Number is ≥ 2^53 when the bigint is (it rounds to a neighbouring double, 2^53 at least).
    const cashNumber = Number(cash);
    const baseNumber = Number(base);
    if (
      cashNumber >= 0 &&
      cashNumber <= SAFE &&
      baseNumber >= 0 &&
      baseNumber <= SAFE &&
      mid >= 0 &&
      mid <= SAFE &&
      Number.isInteger(mid) &&
      cashScale <= MAX_LIMB_SCALE &&
      heldScale <= MAX_LIMB_SCALE
    ) {
      this.pushLimbs(i, cashNumber, cashScale, baseNumber, mid, heldScale);
      return;
    }
    const scale = Math.max(cashScale, heldScale);
    const held = base * BigInt(mid) * 10n ** BigInt(scale - heldScale);
    this.pushRounded(i, cash * 10n ** BigInt(scale - cashScale) + held, scale);
  }

  /** A point of cash alone: `units` quote base units (≥ 0), `decimals` their decimals. */
  pushCash(time: number, units: bigint, decimals: number): void {
    const i = this.next(time);
    if (units !== this.flatUnits || this.flatSource < 0) {
      this.flatUnits = units;
      this.flatSource = i;
      const number = Number(units);
      if (number >= 0 && number <= SAFE && decimals <= MAX_LIMB_SCALE) {
        this.pushLimbs(i, number, decimals, 0, 0, 0);
      } else this.pushRounded(i, units, decimals);
      return;
    }
    this.values.push(this.values[this.flatSource]!);
    this.sources[i] = this.flatSource;
  }

  /** Point `i`'s decimal (made anew on each call: what reads it once keeps nothing). */
  decimalAt(i: number): Dec {
    const source = this.sources[i]!;
    const signedCount = this.signedCounts[source]!;
    if (signedCount === 0) return this.given.get(source)!;
    return this.rounding.decimal(this.words, source * WORDS, signedCount, this.exponents[source]!);
  }

  /** Every point, made on the first read (and extended to the points pushed since on the next). */
  get points(): readonly EquityPoint[] {
    const { built, times, sources } = this;
    for (let i = built.length; i < this.count; i += 1) {
      // A point repeating the one before has its decimal.
      const equity = i > 0 && sources[i] === sources[i - 1] ? built[i - 1]!.equity : this.decimalAt(i);
      built.push({ time: times[i]!, equity });
    }
    return built;
  }

  get last(): EquityPoint | undefined {
    const i = this.count - 1;
    if (i < 0) return undefined;
    return i < this.built.length ? this.built[i] : { time: this.times[i]!, equity: this.decimalAt(i) };
  }

  /** The index of a new point at `time`. */
  private next(time: number): number {
    const i = this.count;
    if (i === this.capacity) this.grow();
    this.times[i] = time;
    this.count = i + 1;
    return i;
  }

  /** Point `i` as its own source: its rounded words, exponent, sign and double. */
  private pushRounded(i: number, n: bigint, scale: number): void {
    const { rounding } = this;
    this.signedCounts[i] = rounding.of(n, scale, this.words, i * WORDS);
    this.exponents[i] = rounding.exponent;
    this.values.push(rounding.value[0]!);
    this.sources[i] = i;
  }

  /** Point `i` as its own source, from LimbRounding. */
  private pushLimbs(
    i: number,
    cash: number,
    cashScale: number,
    base: number,
    mid: number,
    heldScale: number,
  ): void {
    const { limbs } = this;
    this.signedCounts[i] = limbs.of(cash, cashScale, base, mid, heldScale, this.words, i * WORDS);
    this.exponents[i] = limbs.exponent;
    this.values.push(limbs.value[0]!);
    this.sources[i] = i;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const times = new Float64Array(capacity);
    times.set(this.times);
    this.times = times;
    const sources = new Int32Array(capacity);
    sources.set(this.sources);
    this.sources = sources;
    const exponents = new Int32Array(capacity);
    exponents.set(this.exponents);
    this.exponents = exponents;
    const signedCounts = new Int8Array(capacity);
    signedCounts.set(this.signedCounts);
    this.signedCounts = signedCounts;
    const words = new Int32Array(capacity * WORDS);
    words.set(this.words);
    this.words = words;
    this.capacity = capacity;
  }
}

const LOG_BASE = 7;
/** Words a point's decimal may have: Dec.precision digits from any place in a word of 7. */
const WORDS = 1 + Math.ceil((Dec.precision - 1) / LOG_BASE);
const SAFE = Number.MAX_SAFE_INTEGER;
const SAFE_BIG = BigInt(SAFE);
/** 10^k as doubles, exact for k ≤ 22. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * toDec of exact values (exact.roundHalfUp, then decOfRounded and Number(textOfRounded)), on the
 * digits of one toString: the rounded digits are read in place (no substrings), decimal.js's words
 * are written to the curve's words (`of`) and copied into a decimal when it is read (`decimal`),
 * and the double is the rounded integer times or over a power of ten when both are exact (one
 * correctly rounded operation, as the text's parse), parsed from the text otherwise.
 */
class RoundedDecimal {
  /** The last value's double (in a typed array: a double field is boxed anew on each store). */
  readonly value = new Float64Array(1);
  /** The last value's decimal.js exponent. */
  exponent = 0;

  /**
   * Rounds `n / 10^scale`: its words written to out[at, at + WORDS), its exponent and double in the
   * fields; returns its sign times its count of words.
   */
  of(n: bigint, scale: number, out: Int32Array, at: number): number {
    if (n === 0n) {
      // new Dec(0)'s fields.
      this.value[0] = 0;
      this.exponent = 0;
      out[at] = 0;
      return 1;
    }
    if (n >= -SAFE_BIG && n <= SAFE_BIG) return this.ofSafe(Number(n), scale, out, at);
    const negative = n < 0n;
    const text = (negative ? -n : n).toString();
    const precision = Dec.precision;
    let length = text.length;
    let exponent = -scale;
    let bump = false;
    if (length > precision) {
      // Only the first dropped digit decides a half-up rounding.
      bump = text.charCodeAt(precision) >= 53; // '5'
      exponent += length - precision;
      length = precision;
    }
    // The kept digits are text[0, last]; with a bump the last one is one more (9s carried away).
    let last = length - 1;
    if (bump) {
      while (last >= 0 && text.charCodeAt(last) === 57) last -= 1; // '9's carry
      if (last < 0) return this.words(negative, '1', 1, exponent + length, false, out, at);
    } else {
      while (text.charCodeAt(last) === 48) last -= 1; // trailing '0's
    }
    exponent += length - 1 - last;
    return this.words(negative, text, last + 1, exponent, bump, out, at);
  }

  /**
   * The words and exponent of text[0, count) (its last digit plus one with `bump`) × 10^exponent,
   * and its double; returns the sign times the count of words.
   */
  private words(
    negative: boolean,
    text: string,
    count: number,
    exponent: number,
    bump: boolean,
    out: Int32Array,
    at: number,
  ): number {
    // decOfRounded's words: 7 digits each from the decimal point, the first down to it, the last
    // padded with zeros. The bumped digit is the last kept one, below 9: one more at its place.
    const e = count - 1 + exponent;
    let i = (e + 1) % LOG_BASE;
    if (e < 0) i += LOG_BASE;
    let k = at;
    let place: number;
    if (i < count) {
      if (i) out[k++] = wordOf(text, 0, i);
      for (; i < count - LOG_BASE; i += LOG_BASE) out[k++] = wordOf(text, i, i + LOG_BASE);
      place = POWERS_OF_TEN[LOG_BASE - (count - i)]!;
      out[k++] = wordOf(text, i, count) * place;
    } else {
      place = POWERS_OF_TEN[i - count]!;
      out[k++] = wordOf(text, 0, count) * place;
    }
    if (bump) out[k - 1] = out[k - 1]! + place;
    // Up to 15 digits the integer is below 2^53; past 16 it is not (16 may be either).
    let integer = Infinity;
    if (count <= 16) integer = wordOf(text, 0, count) + (bump ? 1 : 0);
    this.exponent = e;
    this.value[0] = doubleOf(negative, text, count, bump, integer, exponent);
    return negative ? at - k : k - at;
  }

  /**
   * of() for a numerator below 2^53 (`value`, not zero): at most 16 digits, none rounded away, read
   * by divisions (exact below 2^53) rather than from its text.
   */
  private ofSafe(value: number, scale: number, out: Int32Array, at: number): number {
    const negative = value < 0;
    let digits = negative ? -value : value;
    let exponent = -scale;
    while (digits % 10 === 0) {
      digits /= 10;
      exponent += 1;
    }
    let count = 1;
    while (count < 16 && POWERS_OF_TEN[count]! <= digits) count += 1;
    // words()' words, digits [from, to) of `digits` (of `count`) by division.
    const e = count - 1 + exponent;
    let i = (e + 1) % LOG_BASE;
    if (e < 0) i += LOG_BASE;
    let k = at;
    if (i < count) {
      if (i) out[k++] = digitsOf(digits, count, 0, i);
      for (; i < count - LOG_BASE; i += LOG_BASE) out[k++] = digitsOf(digits, count, i, i + LOG_BASE);
      out[k++] = digitsOf(digits, count, i, count) * POWERS_OF_TEN[LOG_BASE - (count - i)]!;
    } else {
      out[k++] = digits * POWERS_OF_TEN[i - count]!;
    }
    this.exponent = e;
    this.value[0] =
      exponent >= -22 && exponent <= 22
        ? doubleOf(negative, '', count, false, digits, exponent)
        : doubleOf(negative, String(digits), count, false, Infinity, exponent);
    return negative ? at - k : k - at;
  }

  /** The decimal of `signedCount` words from words[at] and exponent `e`. */
  decimal(words: Int32Array, at: number, signedCount: number, e: number): Dec {
    const s = signedCount < 0 ? -1 : 1;
    const count = signedCount < 0 ? -signedCount : signedCount;
    // Words in an array of their count (a push would grow it past them, to 17).
    const w = words[at]!;
    if (count === 1) return new DecimalOf(s, e, [w]);
    if (count === 2) return new DecimalOf(s, e, [w, words[at + 1]!]);
    if (count === 3) return new DecimalOf(s, e, [w, words[at + 1]!, words[at + 2]!]);
    if (count === 4) return new DecimalOf(s, e, [w, words[at + 1]!, words[at + 2]!, words[at + 3]!]);
    return new DecimalOf(s, e, Array.from(words.subarray(at, at + count)));
  }
}

/**
 * The decimal of sign `s`, exponent `e` and words `d` (finite, normalised: no leading or trailing
 * zero word, each below 10^7), as decimal.js's constructor makes it from another decimal (its own
 * fields in the same order, on its prototype) without the copy and the checks: those words are the
 * value's already. A constructor of its own, so the object is made with room for its four fields.
 */
const DecimalOf = function (this: DecimalFields, s: number, e: number, d: number[]) {
  this.constructor = Dec;
  this.s = s;
  this.e = e;
  this.d = d;
} as unknown as new (s: number, e: number, d: number[]) => Dec;
(DecimalOf as unknown as { prototype: object }).prototype = Dec.prototype;

interface DecimalFields {
  constructor: unknown;
  s: number;
  e: number;
  d: number[];
}

/** The integer of the digits [from, to) of text (exact: at most 16 of them, below 2^53 or rounded). */
function wordOf(text: string, from: number, to: number): number {
  let word = 0;
  for (let p = from; p < to; p += 1) word = word * 10 + (text.charCodeAt(p) - 48);
  return word;
}

/** The integer of digits [from, to) of `digits`, an integer of `count` digits below 2^53. */
function digitsOf(digits: number, count: number, from: number, to: number): number {
  return Math.floor(digits / POWERS_OF_TEN[count - to]!) % POWERS_OF_TEN[to - from]!;
}

/** Number(`<digits>e<exponent>`) of the rounded digits (text[0, count), the last bumped). */
function doubleOf(
  negative: boolean,
  text: string,
  count: number,
  bump: boolean,
  integer: number,
  exponent: number,
): number {
  if (integer <= SAFE && exponent >= -22 && exponent <= 22) {
    const magnitude =
      exponent >= 0 ? integer * POWERS_OF_TEN[exponent]! : integer / POWERS_OF_TEN[-exponent]!;
    return negative ? -magnitude : magnitude;
  }
  if (count <= 18 && exponent >= -22 && exponent <= 0) {
    // 16 to 18 digits: the quotient on doubles where it is surely the nearest.
    const split = count - 9;
    const low = wordOf(text, split, count) + (bump ? 1 : 0);
    const magnitude = quotientDouble(wordOf(text, 0, split), low, -exponent);
    if (magnitude === magnitude) return negative ? -magnitude : magnitude;
  }
  const digits = bump
    ? text.slice(0, count - 1) + String.fromCharCode(text.charCodeAt(count - 1) + 1)
    : count === text.length
      ? text
      : text.slice(0, count);
  return Number(`${negative ? '-' : ''}${digits}e${exponent}`);
}
