import type { NumericInput } from '@solterm/contracts';
import { Dec } from '@solterm/engine';

/**
 * Decimal helpers for answers (market data, trading, holders). Prices travel internally as doubles that carry a decimal
 * of at most 15 significant digits (the simulator quantises to 10; providers send JSON numbers);
 * every computation on money (ratios, market caps, percentages, sums) is done in decimal.js with
 * 18 significant digits, ROUND_HALF_UP, and rounded there. Only the rounded result becomes a JSON
 * number, at the edge, through {@link toWireNumber}.
 */
/** Significant digits of prices the market answers with. */
export const PRICE_SIGNIFICANT_DIGITS = 10;

/**
 * Significant decimal digits a double carries exactly: any decimal of at most 15 significant
 * digits survives decimal → double → shortest decimal text unchanged.
 */
export const WIRE_SIGNIFICANT_DIGITS = 15;

/**
 * The plain decimal string of a double that carries a decimal (`0.000022`, `187.5`): the shortest
 * round-trip form, without exponent.
 *
 * @example
 * decimalString(1.2e-7); // '0.00000012'
 */
export function decimalString(value: number): string {
  const text = String(value);
  if (!text.includes('e')) return text;
  return new Dec(text).toFixed();
}

/** Whole US cents as a USD decimal string with two decimals (exact for any safe integer). */
export function centsToUsd(cents: number): string {
  const negative = cents < 0;
  const absolute = Math.abs(Math.round(cents));
  const whole = Math.floor(absolute / 100);
  const fraction = absolute - whole * 100;
  return `${negative ? '-' : ''}${whole}.${fraction < 10 ? '0' : ''}${fraction}`;
}

/** Rounds a decimal to `digits` significant digits, half up, as a plain string. */
export function toSignificant(value: Dec, digits = PRICE_SIGNIFICANT_DIGITS): string {
  return value.toSignificantDigits(digits, Dec.ROUND_HALF_UP).toFixed();
}

/**
 * Percentage change from `before` to `after`, two decimals, half up ('0.00' when `before` is zero).
 *
 * @example
 * percentChange('110', '100'); // '10.00'
 */
export function percentChange(after: NumericInput, before: NumericInput): string {
  const base = new Dec(before);
  if (base.isZero()) return '0.00';
  return new Dec(after).div(base).minus(1).times(100).toFixed(2);
}

/** A USD amount with two decimals, half up. */
export function usd(value: NumericInput): string {
  return new Dec(value).toFixed(2);
}

/**
 * The wire edge: an already-rounded decimal (a price quantised to 10 significant digits, a USD
 * value or percentage with two decimals, a whole-cents amount) as the JSON number the API sends.
 * Every computation and rounding happens before, in decimal.js; this only converts. A decimal longer
 * than {@link WIRE_SIGNIFICANT_DIGITS} significant digits (a huge supply or balance) is first rounded
 * half up to 15, so the number's shortest text always equals the decimal it came from.
 *
 * @example
 * toWireNumber(usd('1612345678.004')); // 1612345678
 * toWireNumber('0.00002134');          // 0.00002134
 * toWireNumber(new Dec('1234567890.123456789')); // 1234567890.12346
 */
export function toWireNumber(value: Dec | string): number {
  // Fast path (charts send thousands of these): plain decimal text short enough for a double.
  if (typeof value === 'string' && isShortPlainDecimal(value)) return Number(value) || 0;
  const decimal = typeof value === 'string' ? new Dec(value) : value;
  const exact =
    decimal.sd() > WIRE_SIGNIFICANT_DIGITS
      ? decimal.toSignificantDigits(WIRE_SIGNIFICANT_DIGITS, Dec.ROUND_HALF_UP)
      : decimal;
  // +0 for -0: a rounded "-0.00" is sent as 0.
  return Number(exact.toString()) || 0;
}

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** True for plain decimal text (`-12.50`) of at most 15 digits after leading zeros (trailing zeros counted). */
function isShortPlainDecimal(text: string): boolean {
  if (!PLAIN_DECIMAL.test(text)) return false;
  let digits = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) continue; // '-' and '.'
    if (digits === 0 && code === 48) continue; // leading zeros
    digits += 1;
  }
  return digits <= WIRE_SIGNIFICANT_DIGITS;
}
