import { parseSpecDecimal, type SpecDecimal } from '@solterm/contracts';

/*
 * Market values arrive as decimal strings today and may arrive as JSON numbers after a schema
 * change; everything the market feature reads goes through these helpers, so either works.
 */

/** A price, amount or percentage as the server sends it: a decimal string or a JSON number. */
export type WireDecimal = string | number;

/**
 * A wire value as a {@link SpecDecimal} (18 significant digits, half up), or `null` when missing,
 * empty, unparsable or infinite.
 *
 * @example
 * toDecimal('187.42')?.toString(); // '187.42'
 * toDecimal(187.42)?.toString();   // '187.42'
 * toDecimal(null);                 // null
 */
export function toDecimal(value: WireDecimal | null | undefined): SpecDecimal | null {
  return parseSpecDecimal(value);
}

/** A wire value as a JS number for drawing (charts, sparklines); `null` when it is not a number. */
export function toNumber(value: WireDecimal | null | undefined): number | null {
  const decimal = toDecimal(value);
  return decimal ? decimal.toNumber() : null;
}

function asDecimal(value: WireDecimal | SpecDecimal | null | undefined): SpecDecimal | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'object' ? value : toDecimal(value);
}

/** True when the value is a number above zero. */
export function isPositive(value: WireDecimal | SpecDecimal | null | undefined): boolean {
  const decimal = asDecimal(value);
  return decimal !== null && decimal.gt(0);
}

/** Direction of a change: up (≥ 0), down (< 0), or flat when unknown. */
export function getChangeDirection(
  value: WireDecimal | SpecDecimal | null | undefined,
): 'up' | 'down' | 'flat' {
  const decimal = asDecimal(value);
  if (!decimal) return 'flat';
  return decimal.isNegative() && !decimal.isZero() ? 'down' : 'up';
}

/**
 * A percentage change with its sign and two decimals.
 *
 * @example
 * formatPercentChange('6.5');  // '+6.50%'
 * formatPercentChange(-3.271); // '-3.27%'
 */
export function formatPercentChange(value: WireDecimal | SpecDecimal | null | undefined): string {
  const decimal = asDecimal(value);
  if (!decimal) return '—';
  const fixed = decimal.toFixed(2);
  if (fixed === '-0.00') return '0.00%';
  return decimal.gte(0) ? `+${fixed}%` : `${fixed}%`;
}

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

/**
 * A large figure (volume, holders, balance) in compact form.
 *
 * @example
 * formatCompact('185626283.18'); // '185.63M'
 * formatCompact(78901);          // '78.9K'
 */
export function formatCompact(value: WireDecimal | null | undefined): string {
  const number = toNumber(value);
  return number === null ? '—' : COMPACT.format(number);
}

/** A large US-dollar figure in compact form: `$185.63M`. */
export function formatCompactUsd(value: WireDecimal | null | undefined): string {
  const number = toNumber(value);
  if (number === null) return '—';
  return number < 0 ? `-$${COMPACT.format(-number)}` : `$${COMPACT.format(number)}`;
}
