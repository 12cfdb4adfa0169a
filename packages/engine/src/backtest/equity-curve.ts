import { Dec } from '../money/decimal';
import type { Exact } from '../money/exact';

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
 * rather than through decimal.js arithmetic or parsing. A point whose value is the previous flat one (cash
 * only, unchanged) reuses its decimal.
 */
export class EquityCurve {
  readonly points: EquityPoint[] = [];
  readonly values: number[] = [];
  private readonly rounding = new RoundedDecimal();
  private flatUnits = -1n;
  private flatEquity: Dec | undefined;
  private flatValue = 0.5;

  /** A point of a known decimal (the initial cash). */
  pushDec(time: number, equity: Dec): void {
    this.points.push({ time, equity });
    this.values.push(equity.toNumber());
  }

  push(time: number, equity: Exact): void {
    this.pushExact(time, equity.n, equity.scale);
  }

  /** A point of `n / 10^scale` (push without the Exact). */
  pushExact(time: number, n: bigint, scale: number): void {
    const equity = this.rounding.of(n, scale);
    this.points.push({ time, equity });
    this.values.push(this.rounding.value[0]!);
  }

  /** A point of cash alone: `units` quote base units (≥ 0), `decimals` their decimals. */
  pushCash(time: number, units: bigint, decimals: number): void {
    if (units !== this.flatUnits || this.flatEquity === undefined) {
      this.flatUnits = units;
      this.flatEquity = this.rounding.of(units, decimals);
      this.flatValue = this.rounding.value[0]!;
    }
    this.points.push({ time, equity: this.flatEquity });
    this.values.push(this.flatValue);
  }

  get last(): EquityPoint | undefined {
    return this.points[this.points.length - 1];
  }
}

const LOG_BASE = 7;
const DECIMAL_TAG = '[object Decimal]';
const SAFE = Number.MAX_SAFE_INTEGER;
/** 10^k as doubles, exact for k ≤ 22. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * toDec of exact values (exact.roundHalfUp, then decOfRounded and Number(textOfRounded)), on the
 * digits of one toString: the rounded digits are read in place (no substrings), decimal.js's words
 * are filled into a reused array (its constructor copies them), and the double is the rounded
 * integer times or over a power of ten when both are exact (one correctly rounded operation, as
 * the text's parse), parsed from the text otherwise.
 */
class RoundedDecimal {
  /** The last value's double (in a typed array: a double field is boxed anew on each store). */
  readonly value = new Float64Array(1);
  private readonly words: number[] = [0, 0, 0, 0];
  private readonly tagged = { s: 1, e: 0, d: this.words, toStringTag: DECIMAL_TAG };

  of(n: bigint, scale: number): Dec {
    if (n === 0n) {
      this.value[0] = 0;
      return new Dec(0);
    }
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
      if (last < 0) return this.decimal(negative, '1', 1, exponent + length, false);
    } else {
      while (text.charCodeAt(last) === 48) last -= 1; // trailing '0's
    }
    exponent += length - 1 - last;
    return this.decimal(negative, text, last + 1, exponent, bump);
  }

  /** The decimal of text[0, count) (its last digit plus one with `bump`) × 10^exponent, and its double. */
  private decimal(negative: boolean, text: string, count: number, exponent: number, bump: boolean): Dec {
    const { words } = this;
    // decOfRounded's words: 7 digits each from the decimal point, the first down to it, the last
    // padded with zeros. The bumped digit is the last kept one, below 9: one more at its place.
    const e = count - 1 + exponent;
    let i = (e + 1) % LOG_BASE;
    if (e < 0) i += LOG_BASE;
    let k = 0;
    let place: number;
    if (i < count) {
      if (i) words[k++] = wordOf(text, 0, i);
      for (; i < count - LOG_BASE; i += LOG_BASE) words[k++] = wordOf(text, i, i + LOG_BASE);
      place = POWERS_OF_TEN[LOG_BASE - (count - i)]!;
      words[k++] = wordOf(text, i, count) * place;
    } else {
      place = POWERS_OF_TEN[i - count]!;
      words[k++] = wordOf(text, 0, count) * place;
    }
    if (bump) words[k - 1] = words[k - 1]! + place;
    // Up to 15 digits the integer is below 2^53; past 16 it is not (16 may be either).
    let integer = Infinity;
    if (count <= 16) integer = wordOf(text, 0, count) + (bump ? 1 : 0);
    words.length = k;
    const tagged = this.tagged;
    tagged.s = negative ? -1 : 1;
    tagged.e = e;
    const dec = new Dec(tagged as unknown as Dec);
    this.value[0] = doubleOf(negative, text, count, bump, integer, exponent);
    return dec;
  }
}

/** The integer of the digits [from, to) of text (exact: at most 16 of them, below 2^53 or rounded). */
function wordOf(text: string, from: number, to: number): number {
  let word = 0;
  for (let p = from; p < to; p += 1) word = word * 10 + (text.charCodeAt(p) - 48);
  return word;
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
  const digits = bump
    ? text.slice(0, count - 1) + String.fromCharCode(text.charCodeAt(count - 1) + 1)
    : count === text.length
      ? text
      : text.slice(0, count);
  return Number(`${negative ? '-' : ''}${digits}e${exponent}`);
}
