import { parseSpecDecimal, type SpecDecimal } from '@solterm/contracts';

/*
 * Market values arrive as JSON numbers (contracts market.schemas.ts) that the server computed and
 * rounded in decimal arithmetic, so each number's text is exactly the decimal it stands for. The
 * market feature compares and computes with them as decimals (`toDecimal`, SpecDecimal: 18
 * significant digits, half up) and shows them through the contracts' formatters (formatPrice,
 * formatUsdPrice…), never through float arithmetic.
 */

/**
 * A wire number as a {@link SpecDecimal} (through its shortest text, so 0.1 is exactly 0.1), or
 * `null` when missing, NaN or infinite.
 *
 * @example
 * toDecimal(187.42)?.toString();     // '187.42'
 * toDecimal(1.7924e-7)?.toString();  // '1.7924e-7'
 * toDecimal(null);                   // null
 */
export function toDecimal(value: number | null | undefined): SpecDecimal | null {
  return parseSpecDecimal(value);
}

function asDecimal(value: number | SpecDecimal | null | undefined): SpecDecimal | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? toDecimal(value) : value;
}

/** True when the value is a number above zero. */
export function isPositive(value: number | SpecDecimal | null | undefined): boolean {
  const decimal = asDecimal(value);
  return decimal !== null && decimal.gt(0);
}

/**
 * Direction of a change as it is shown (two decimals): up, down, or flat when it rounds to zero or
 * is unknown, so a '0.00%' is never coloured.
 *
 * @example
 * getChangeDirection(-3.27);  // 'down'
 * getChangeDirection(-0.001); // 'flat'
 */
export function getChangeDirection(value: number | SpecDecimal | null | undefined): 'up' | 'down' | 'flat' {
  const decimal = asDecimal(value);
  if (!decimal) return 'flat';
  const shown = decimal.toDecimalPlaces(2);
  if (shown.isZero()) return 'flat';
  return shown.isNegative() ? 'down' : 'up';
}

/**
 * A percentage change with its sign and two decimals (rounded half up in decimals); a change that
 * rounds to zero shows unsigned.
 *
 * @example
 * formatPercentChange(6.5);    // '+6.50%'
 * formatPercentChange(-3.271); // '-3.27%'
 * formatPercentChange(0);      // '0.00%'
 */
export function formatPercentChange(value: number | SpecDecimal | null | undefined): string {
  const decimal = asDecimal(value);
  if (!decimal) return '—';
  const fixed = decimal.toFixed(2);
  if (/^-?0\.00$/.test(fixed)) return '0.00%';
  return decimal.gt(0) ? `+${fixed}%` : `${fixed}%`;
}

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * A large figure (volume, holders, balance) in compact form.
 *
 * @example
 * formatCompact(185626283.18); // '185.63M'
 * formatCompact(78901);        // '78.9K'
 */
export function formatCompact(value: number | null | undefined): string {
  const number = finiteOrNull(value);
  return number === null ? '—' : COMPACT.format(number);
}

/** A large US-dollar figure in compact form: `$185.63M`. */
export function formatCompactUsd(value: number | null | undefined): string {
  const number = finiteOrNull(value);
  if (number === null) return '—';
  return number < 0 ? `-$${COMPACT.format(-number)}` : `$${COMPACT.format(number)}`;
}
