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

function aligned(a: Exact, b: Exact): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.n, b.n, a.scale];
  return a.scale > b.scale
    ? [a.n, b.n * pow10(a.scale - b.scale), a.scale]
    : [a.n * pow10(b.scale - a.scale), b.n, b.scale];
}

export function add(a: Exact, b: Exact): Exact {
  const [x, y, scale] = aligned(a, b);
  return { n: x + y, scale };
}

export function sub(a: Exact, b: Exact): Exact {
  const [x, y, scale] = aligned(a, b);
  return { n: x - y, scale };
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
  const [x, y] = aligned(a, b);
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
  // Construction is exact; toSignificantDigits applies the single, chosen rounding.
  return new Dec(`${a.n.toString()}e-${a.scale}`).toSignificantDigits(Dec.precision, rounding);
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
