import type { Decimal } from 'decimal.js';
import { SpecDecimal } from '@solterm/contracts';

/**
 * The money decimal: decimal.js configured to 18 significant digits and ROUND_HALF_UP, the
 * spec's arithmetic rule. Use it for prices and USD values; token amounts are `bigint` base units.
 * It is the contracts' {@link SpecDecimal} (one configuration for the web, the server and the
 * engine), under the engine's name.
 *
 * Arithmetic results (`plus`, `times`, `div`…) are rounded to 18 significant digits; construction
 * (`new Dec('…')`) and `toDecimalPlaces` / `toFixed` are exact, so conversions below never lose
 * digits.
 *
 * @example
 * new Dec('0.1').plus('0.2').toString(); // '0.3'
 * new Dec(1).div(3).toString();          // '0.333333333333333333' (18 digits)
 */
export const Dec = SpecDecimal;

/** An instance of {@link Dec} (structurally any decimal.js value). */
export type Dec = Decimal;

/** What the base-unit helpers accept as a decimal amount: a plain decimal string or a decimal. */
export type DecimalInput = string | Decimal;

/** The largest decimals an SPL mint can declare (the field is a u8). */
export const MAX_TOKEN_DECIMALS = 255;

/** Refuses decimals an SPL mint cannot declare (`name` names the argument in the message). */
export function assertDecimals(decimals: number, name = 'decimals'): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_TOKEN_DECIMALS) {
    throw new RangeError(`${name} must be an integer from 0 to ${MAX_TOKEN_DECIMALS}, got ${decimals}`);
  }
}

function toDec(amount: DecimalInput): Decimal {
  if (typeof amount === 'string') {
    const trimmed = amount.trim();
    if (trimmed === '') throw new RangeError('amount is empty');
    try {
      return new Dec(trimmed);
    } catch {
      throw new RangeError(`amount is not a decimal number: '${amount}'`);
    }
  }
  // Re-wrap so the caller's decimal.js configuration never leaks into ours.
  return new Dec(amount);
}

/**
 * Converts a decimal token amount to integer base units (`amount × 10^decimals`), rounding half up
 * at the last unit. Exact for any magnitude: it never goes through binary floating point or the
 * 18-digit arithmetic precision.
 *
 * @throws RangeError for a negative, NaN, infinite or unparsable amount, or invalid decimals.
 * @example
 * toBaseUnits('1.5', 9);          // 1500000000n (lamports)
 * toBaseUnits('0.0000005', 6);    // 1n (half up)
 * toBaseUnits(new Dec('2'), 6);   // 2000000n
 */
export function toBaseUnits(amount: DecimalInput, decimals: number): bigint {
  assertDecimals(decimals);
  const value = toDec(amount);
  if (value.isNaN()) throw new RangeError('amount is NaN');
  if (!value.isFinite()) throw new RangeError('amount is not finite');
  if (value.lt(0)) throw new RangeError(`amount must not be negative, got ${value.toString()}`);
  // toFixed rounds with Dec's ROUND_HALF_UP and is not limited by the 18-digit precision.
  const fixed = value.toFixed(decimals);
  return BigInt(fixed.replace('.', ''));
}

/**
 * Converts integer base units back to a decimal token amount (`units / 10^decimals`), exactly.
 * Negative units are allowed (balance deltas).
 *
 * @throws RangeError for invalid decimals.
 * @example
 * fromBaseUnits(1500000000n, 9).toString(); // '1.5'
 * fromBaseUnits(1n, 6).toFixed();           // '0.000001'
 */
export function fromBaseUnits(units: bigint, decimals: number): Dec {
  assertDecimals(decimals);
  // Exponent notation keeps every digit: the constructor does not round to the precision.
  return new Dec(`${units.toString()}e-${decimals}`);
}

/**
 * Splits a base-unit amount into parts proportional to `ratios`, conserving every unit: the parts
 * always sum to `total`. Each part gets the floor of its share; the units left over go one each to
 * the parts with the largest remainders (earliest first on ties).
 *
 * @throws RangeError when `ratios` is empty, has a negative ratio or sums to zero, or `total` is negative.
 * @example
 * splitBaseUnits(100n, [1n, 1n, 1n]); // [34n, 33n, 33n]
 * splitBaseUnits(10n, [70n, 30n]);    // [7n, 3n]
 */
export function splitBaseUnits(total: bigint, ratios: readonly bigint[]): bigint[] {
  if (total < 0n) throw new RangeError('total must not be negative');
  if (ratios.length === 0) throw new RangeError('ratios must not be empty');
  if (ratios.some((ratio) => ratio < 0n)) throw new RangeError('ratios must not be negative');
  const ratioSum = ratios.reduce((sum, ratio) => sum + ratio, 0n);
  if (ratioSum === 0n) throw new RangeError('ratios must not all be zero');

  const parts = ratios.map((ratio) => (total * ratio) / ratioSum);
  const remainders = ratios.map((ratio, index) => ({ index, remainder: (total * ratio) % ratioSum }));
  let leftover = total - parts.reduce((sum, part) => sum + part, 0n);
  remainders.sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const { index } of remainders) {
    if (leftover === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    leftover -= 1n;
  }
  return parts;
}
