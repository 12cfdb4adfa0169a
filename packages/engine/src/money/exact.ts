import { Decimal } from 'decimal.js';
import { Dec } from './decimal';

// Exact decimal arithmetic on bigints for the value-conserving paths of the spot kernel. `Dec`
// rounds every operation to 18 significant digits, which is not enough for a u64 of base units
// times an 18-digit price; here a value is `n / 10^scale` and nothing is rounded until the caller
// asks for it, in the direction it chooses. Public: futures, backtests and bots compute on it too.

/** An exact decimal `n / 10^scale` (`scale` ≥ 0). */
export interface Exact {
  readonly n: bigint;
  readonly scale: number;
}

const powers: bigint[] = [];
function pow10(k: number): bigint {
  return (powers[k] ??= 10n ** BigInt(k));
}

export const ZERO: Exact = { n: 0n, scale: 0 };

/** The exact value of a finite decimal (any decimal.js configuration). */
export function exactOf(value: Decimal | number): Exact {
  const decimal = new Dec(value);
  if (!decimal.isFinite()) throw new RangeError(`expected a finite number, got ${decimal.toString()}`);
  // toFixed() without arguments is plain notation with every digit and no rounding.
  const fixed = decimal.toFixed();
  const negative = fixed.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? fixed.slice(1) : fixed).split('.');
  const n = BigInt(whole + fraction);
  return { n: negative ? -n : n, scale: fraction.length };
}

/**
 * The exact decimal a double prints as (its shortest round-trip text: the wire's decimal), without
 * going through decimal.js: the backtest parses one per fill and per equity point.
 *
 * @example exactOfNumber(0.1); // { n: 1n, scale: 1 }
 * @example exactOfNumber(1.5e-7); // { n: 15n, scale: 8 }
 */
export function exactOfNumber(value: number): Exact {
  const parts = numberParts;
  if (decimalOfNumber(value, parts)) return { n: BigInt(parts[0]!), scale: parts[1]! };
  return exactOfNumberText(value);
}

const numberParts = new Float64Array(2);

/**
 * exactOfNumber(value) as doubles when its numerator is a safe integer: out[0] = n, out[1] = scale;
 * false for the doubles exactOfNumber reads through their text (16 and 17 significant digits, the
 * huge and the tiny), whose numerator may not fit.
 */
export function decimalOfNumber(value: number, out: Float64Array): boolean {
  if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) {
    out[0] = value;
    out[1] = 0;
    return true;
  }
  // A decimal of at most 15 significant digits is the only one of its length to round to its double
  // (15 digits always survive the round trip), so the fewest fractional digits k whose integer
  // round(value × 10^k) divides back to the value exactly are the digits String(value) prints.
  // value × 10^k is off the integer by < 0.25 below 10^15: Math.round finds it when it exists.
  // The test then passes at every k from the fewest on while value × 10^k stays below 10^15 (ten
  // times the integer is again within 0.25 of it, and divides back to the same decimal's double):
  // the search starts at the scale last found (a market's prices mostly keep theirs) and walks down
  // while the test passes, or up until it does.
  let k = lastScale;
  let test = scaleTest(value, k, out);
  if (test === PASSES) {
    while (k > 1 && scaleTest(value, k - 1, out) === PASSES) k -= 1;
  } else {
    // Past 10^15 at the last scale: the fewest digits are below it, searched from the first.
    if (test === PAST) k = 0;
    do {
      k += 1;
      test = k <= 22 ? scaleTest(value, k, out) : PAST;
    } while (test === FAILS);
    if (test === PAST) return false;
  }
  lastScale = k;
  return true;
}

/** The scale decimalOfNumber last found. */
let lastScale = 1;
const PASSES = 1;
const FAILS = 0;
const PAST = -1;

/**
 * decimalOfNumber's test at k digits: PAST when value × 10^k is not below 10^15, else whether
 * round(value × 10^k) divides back to the value (PASSES: it is in out[0], and k in out[1]).
 */
function scaleTest(value: number, k: number, out: Float64Array): number {
  const scaled = value * POWERS_OF_TEN[k]!;
  if (!(Math.abs(scaled) < 1e15)) return PAST;
  const r = Math.round(scaled);
  if (r / POWERS_OF_TEN[k]! !== value) return FAILS;
  out[0] = r;
  out[1] = k;
  return PASSES;
}

/** 10^k as doubles, exact for k ≤ 22. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** exactOfNumber through the number's text (the 16- and 17-digit doubles, the huge and the tiny). */
function exactOfNumberText(value: number): Exact {
  if (!Number.isFinite(value)) throw new RangeError(`expected a finite number, got ${value}`);
  const text = String(value);
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const scale = (dot < 0 ? 0 : mantissa.length - dot - 1) - exponent;
  const n = BigInt(digits);
  return scale >= 0 ? { n, scale } : { n: n * pow10(-scale), scale: 0 };
}

/** `units / 10^decimals`: a base-unit amount in whole tokens. */
export function exactUnits(units: bigint, decimals: number): Exact {
  return { n: units, scale: decimals };
}

/** `n × 10^k` (k ≥ 0). */
function up(n: bigint, k: number): bigint {
  return k === 0 ? n : n * pow10(k);
}

export function add(a: Exact, b: Exact): Exact {
  if (a.scale >= b.scale) return { n: a.n + up(b.n, a.scale - b.scale), scale: a.scale };
  return { n: up(a.n, b.scale - a.scale) + b.n, scale: b.scale };
}

export function sub(a: Exact, b: Exact): Exact {
  if (a.scale >= b.scale) return { n: a.n - up(b.n, a.scale - b.scale), scale: a.scale };
  return { n: up(a.n, b.scale - a.scale) - b.n, scale: b.scale };
}

/**
 * A running exact sum: the n and scale of add(add(ZERO, x1), x2)… without an Exact per step (one
 * bigint addition when the scales agree).
 */
export class ExactSum {
  private n = 0n;
  private scale = 0;

  add(x: Exact): void {
    if (x.scale === this.scale) this.n += x.n;
    else if (x.scale < this.scale) this.n += up(x.n, this.scale - x.scale);
    else {
      this.n = up(this.n, x.scale - this.scale) + x.n;
      this.scale = x.scale;
    }
  }

  get value(): Exact {
    return { n: this.n, scale: this.scale };
  }
}

export function mul(a: Exact, b: Exact): Exact {
  return { n: a.n * b.n, scale: a.scale + b.scale };
}

/** `a × 10^k` (k may be negative). */
export function shift(a: Exact, k: number): Exact {
  const scale = a.scale - k;
  return scale >= 0 ? { n: a.n, scale } : { n: a.n * pow10(-scale), scale: 0 };
}

export function compare(a: Exact, b: Exact): -1 | 0 | 1 {
  const x = a.scale >= b.scale ? a.n : up(a.n, b.scale - a.scale);
  const y = b.scale >= a.scale ? b.n : up(b.n, a.scale - b.scale);
  return x === y ? 0 : x < y ? -1 : 1;
}

export function sign(a: Exact): -1 | 0 | 1 {
  return a.n === 0n ? 0 : a.n < 0n ? -1 : 1;
}

/** The largest integer ≤ a. */
export function floor(a: Exact): bigint {
  const d = pow10(a.scale);
  const q = a.n / d; // truncates toward zero
  return a.n < 0n && q * d !== a.n ? q - 1n : q;
}

/** The smallest integer ≥ a. */
export function ceil(a: Exact): bigint {
  return -floor({ n: -a.n, scale: a.scale });
}

/** The value as a {@link Dec} of 18 significant digits, rounded with `rounding` (half up by default). */
export function toDec(a: Exact, rounding: Decimal.Rounding = Dec.ROUND_HALF_UP): Dec {
  if (rounding === Dec.ROUND_HALF_UP) return decOfRounded(roundHalfUp(a));
  // Construction is exact; toSignificantDigits applies the single, chosen rounding.
  return new Dec(`${a.n.toString()}e-${a.scale}`).toSignificantDigits(Dec.precision, rounding);
}

/** A value rounded to Dec's 18 significant digits: ±digits × 10^exponent, digits without trailing zeros. */
export interface RoundedDigits {
  readonly negative: boolean;
  /** '0' for zero. */
  readonly digits: string;
  readonly exponent: number;
}

/**
 * The value rounded half up (away from zero on a tie) to Dec's 18 significant digits, on its digits:
 * toDec's rounding without decimal.js arithmetic.
 */
export function roundHalfUp(a: Exact): RoundedDigits {
  const negative = a.n < 0n;
  if (a.n === 0n) return { negative: false, digits: '0', exponent: 0 };
  let digits = (negative ? -a.n : a.n).toString();
  let exponent = -a.scale;
  const precision = Dec.precision;
  let up = false;
  if (digits.length > precision) {
    // Only the first dropped digit decides a half-up rounding.
    up = digits.charCodeAt(precision) >= 53; // '5'
    exponent += digits.length - precision;
    digits = digits.slice(0, precision);
  }
  let end = digits.length - 1;
  if (up) {
    while (end >= 0 && digits.charCodeAt(end) === 57) end -= 1; // '9's carry
    if (end < 0) return { negative, digits: '1', exponent: exponent + digits.length };
    exponent += digits.length - 1 - end;
    return {
      negative,
      digits: digits.slice(0, end) + String.fromCharCode(digits.charCodeAt(end) + 1),
      exponent,
    };
  }
  while (digits.charCodeAt(end) === 48) end -= 1; // trailing '0's
  exponent += digits.length - 1 - end;
  return { negative, digits: end === digits.length - 1 ? digits : digits.slice(0, end + 1), exponent };
}

/** The rounded value as `<digits>e<exponent>`: Number(text) is its Dec's toNumber(). */
export function textOfRounded(r: RoundedDigits): string {
  return `${r.negative ? '-' : ''}${r.digits}e${r.exponent}`;
}

/**
 * The rounded value as a Dec, built from its digits as decimal.js parses them (words of 7 digits
 * from the decimal point) and copied in by its constructor: no text is parsed.
 */
export function decOfRounded(r: RoundedDigits): Dec {
  const { digits } = r;
  if (digits === '0') return new Dec(0);
  // decimal.js: value = 0.d… words, `e` the power of ten of the first digit; the first word holds the
  // digits down to the next multiple of 7 below it (parseDecimal's "Transform base").
  const len = digits.length;
  const e = len - 1 + r.exponent;
  const d: number[] = [];
  let i = (e + 1) % LOG_BASE;
  if (e < 0) i += LOG_BASE;
  if (i < len) {
    if (i) d.push(wordOf(digits, 0, i));
    for (; i < len - LOG_BASE; i += LOG_BASE) d.push(wordOf(digits, i, i + LOG_BASE));
    d.push(wordOf(digits, i, len) * POWERS_OF_TEN[LOG_BASE - (len - i)]!);
  } else {
    d.push(wordOf(digits, 0, len) * POWERS_OF_TEN[i - len]!);
  }
  // Any object tagged as a decimal is copied by the constructor (its cross-constructor path).
  return new Dec({ s: r.negative ? -1 : 1, e, d, toStringTag: DECIMAL_TAG } as unknown as Decimal);
}

const LOG_BASE = 7;
const DECIMAL_TAG = '[object Decimal]';

/** The integer of digits[from, to) (at most 7 of them), without a substring. */
function wordOf(digits: string, from: number, to: number): number {
  let word = 0;
  for (let k = from; k < to; k += 1) word = word * 10 + (digits.charCodeAt(k) - 48);
  return word;
}

/**
 * toDec(a) as text, `<digits>e<exponent>`: `new Dec(text)` is toDec(a) and `Number(text)` its double.
 *
 * @example toDecText({ n: 1234567890123456789n, scale: 9 }); // '123456789012345679e-8'
 */
export function toDecText(a: Exact): string {
  return textOfRounded(roundHalfUp(a));
}

const divisionContexts = new Map<Decimal.Rounding, Decimal.Constructor>();

/** `num / den` as a {@link Dec} of 18 significant digits, correctly rounded with `rounding`. */
export function divToDec(num: Exact, den: Exact, rounding: Decimal.Rounding): Dec {
  if (den.n === 0n) throw new RangeError('division by zero');
  // num/den = (num.n × 10^den.scale) / (den.n × 10^num.scale): a ratio of two integers.
  const numerator = num.n * pow10(den.scale);
  const denominator = den.n * pow10(num.scale);
  let context = divisionContexts.get(rounding);
  if (context === undefined) {
    context = Decimal.clone({ precision: Dec.precision, rounding });
    divisionContexts.set(rounding, context);
  }
  // decimal.js division is correctly rounded; re-wrap so the result computes with Dec's settings.
  return new Dec(new context(numerator.toString()).div(denominator.toString()));
}
