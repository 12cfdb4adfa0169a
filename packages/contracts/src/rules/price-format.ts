import { parseSpecDecimal, type NumericInput, type SpecDecimal } from './decimal';

/** Below this magnitude (and not zero) a price shows in exponential notation. */
export const PRICE_EXPONENTIAL_BELOW = 0.000001;
/** Below this magnitude a price shows six decimals. */
export const PRICE_SIX_DECIMALS_BELOW = 0.01;
/** Below this magnitude a price shows four decimals; from it on, two. */
export const PRICE_FOUR_DECIMALS_BELOW = 1;

/** What a formatter shows for a missing, unparsable or infinite value, as for an unavailable price. */
const ZERO_PRICE = '0.00';

function formatPriceDecimal(value: SpecDecimal): string {
  if (value.isZero()) return ZERO_PRICE;
  const magnitude = value.abs();
  // Rounding is half up (SpecDecimal's mode), never binary-float toFixed.
  if (magnitude.lt(PRICE_EXPONENTIAL_BELOW)) return value.toExponential(2);
  if (magnitude.lt(PRICE_SIX_DECIMALS_BELOW)) return value.toFixed(6);
  if (magnitude.lt(PRICE_FOUR_DECIMALS_BELOW)) return value.toFixed(4);
  return value.toFixed(2);
}

/**
 * Inserts thousands separators into the integer part of a plain decimal string.
 *
 * @example
 * groupThousands('-1234567.891'); // '-1,234,567.891'
 */
export function groupThousands(plain: string): string {
  const match = /^(-?)(\d+)(.*)$/.exec(plain);
  if (!match) return plain;
  const [, sign = '', integer = '', rest = ''] = match;
  return `${sign}${integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${rest}`;
}

/**
 * Formats a price with the spec's precision table (part 1 §4), rounding half up: below 1e-6
 * (non-zero) exponential with 2 digits; below 0.01 six decimals; below 1 four decimals; otherwise
 * two decimals. Thresholds apply to the magnitude, so negatives format like positives. Plain
 * digits, no separators. Zero and missing, unparsable or infinite values give '0.00' (the spec's
 * unavailable price).
 *
 * @example
 * formatPrice(0.000000123); // '1.23e-7'
 * formatPrice('0.0099');    // '0.009900'
 * formatPrice(0.5);         // '0.5000'
 * formatPrice(1234.5);      // '1234.50'
 */
export function formatPrice(value: NumericInput | null | undefined): string {
  const parsed = parseSpecDecimal(value);
  return parsed ? formatPriceDecimal(parsed) : ZERO_PRICE;
}

/**
 * Formats a price in US dollars for display: the precision table of {@link formatPrice}, a '$'
 * and thousands separators.
 *
 * @example
 * formatUsdPrice(1234.5);     // '$1,234.50'
 * formatUsdPrice(0.00001234); // '$0.000012'
 * formatUsdPrice(-2);         // '-$2.00'
 */
export function formatUsdPrice(value: NumericInput | null | undefined): string {
  const formatted = groupThousands(formatPrice(value));
  return formatted.startsWith('-') ? `-$${formatted.slice(1)}` : `$${formatted}`;
}

/**
 * Formats a US-dollar amount (a balance or a portfolio value): two decimals rounded half up,
 * thousands separators and '$'. Missing, unparsable or infinite values give '$0.00'.
 *
 * @example
 * formatUsd(1234.555); // '$1,234.56'
 * formatUsd('-0.5');   // '-$0.50'
 */
export function formatUsd(value: NumericInput | null | undefined): string {
  const parsed = parseSpecDecimal(value);
  const fixed = parsed ? parsed.toFixed(2) : '0.00';
  const grouped = groupThousands(fixed);
  // A negative that rounds to zero shows unsigned.
  if (grouped.startsWith('-')) return /^-0\.00$/.test(grouped) ? '$0.00' : `-$${grouped.slice(1)}`;
  return `$${grouped}`;
}

/**
 * Formats a market cap in millions of US dollars with two decimals, as on search results.
 *
 * @example
 * formatMarketCapMillions(12_345_678);    // '$12.35M'
 * formatMarketCapMillions(1_500_000_000); // '$1,500.00M'
 * formatMarketCapMillions(null);          // '$0.00M'
 */
export function formatMarketCapMillions(value: NumericInput | null | undefined): string {
  const parsed = parseSpecDecimal(value);
  const millions = parsed ? parsed.div(1_000_000) : null;
  return `${formatUsd(millions)}M`;
}
