import { Decimal } from 'decimal.js';

/**
 * The spec's number arithmetic: decimal.js with 18 significant digits and ROUND_HALF_UP. The
 * contracts rules compute with it (minimum trade amount, form linkage, price formatting) so the
 * web and the server round identically. The one definition: the engine's `Dec` is this decimal
 * (contracts depends on nothing of ours, the engine on contracts).
 *
 * @example
 * new SpecDecimal('0.01').div('0.9975').toString(); // '0.010025062656641604'
 */
export const SpecDecimal = Decimal.clone({ precision: 18, rounding: Decimal.ROUND_HALF_UP });

/** An instance of {@link SpecDecimal} (structurally any decimal.js value). */
export type SpecDecimal = Decimal;

/** What the rules accept as a number: a JS number, a decimal string or a decimal.js value. */
export type NumericInput = number | string | Decimal;

/**
 * Converts a number, decimal string or decimal to a finite {@link SpecDecimal}, or `null` when the
 * input is empty, unparsable, NaN or infinite. JS numbers convert through their shortest decimal
 * representation (0.1 becomes exactly 0.1).
 *
 * @example
 * parseSpecDecimal('1.5')?.toString(); // '1.5'
 * parseSpecDecimal('abc');             // null
 * parseSpecDecimal(Infinity);          // null
 */
export function parseSpecDecimal(value: NumericInput | null | undefined): SpecDecimal | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  try {
    const parsed = new SpecDecimal(typeof value === 'string' ? value.trim() : value);
    return parsed.isFinite() ? parsed : null;
  } catch {
    return null;
  }
}
