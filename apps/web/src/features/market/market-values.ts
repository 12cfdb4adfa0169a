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
