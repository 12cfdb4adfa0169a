import { SpecDecimal, type NumericInput } from '@solterm/contracts';

/**
 * Decimal helpers of the market module. Prices travel internally as doubles that carry a decimal
 * of at most 15 significant digits (the simulator quantises to 10; providers send JSON numbers);
 * every computation on money (ratios, market caps, percentages, sums) is done in decimal.js with
 * 18 significant digits, ROUND_HALF_UP.
 */
export const Dec = SpecDecimal;
export type Dec = SpecDecimal;

/** Significant digits of prices the market answers with. */
export const PRICE_SIGNIFICANT_DIGITS = 10;

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
