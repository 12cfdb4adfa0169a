import { formatPrice, groupThousands, parseSpecDecimal, SpecDecimal } from '@solterm/contracts';

/*
 * Display formatting of the spot tables and the order form. Wire numbers are read as decimals
 * through their shortest text (SpecDecimal: 18 digits, half up), never formatted with float maths.
 */

type Numeric = number | SpecDecimal | null | undefined;

const DASH = '—';

function read(value: Numeric): SpecDecimal | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? parseSpecDecimal(value) : value;
}

/**
 * A token amount: at most `maxDecimals` decimals (half up, trailing zeros trimmed), thousands
 * separators. A non-zero amount below the last decimal keeps two significant digits instead of
 * showing as 0.
 *
 * @example
 * formatAmount(1234.5678912);  // '1,234.567891'
 * formatAmount(0.000000042);   // '0.000000042'
 * formatAmount(null);          // '—'
 */
export function formatAmount(value: Numeric, maxDecimals = 6): string {
  const decimal = read(value);
  if (!decimal) return DASH;
  const rounded = decimal.toDecimalPlaces(maxDecimals, SpecDecimal.ROUND_HALF_UP);
  if (rounded.isZero() && !decimal.isZero()) return groupThousands(decimal.toSignificantDigits(2).toFixed());
  return groupThousands(rounded.isZero() ? '0' : rounded.toFixed());
}

/**
 * A price or value in quote units with the spec's precision table (part 1 §4) and separators.
 *
 * @example
 * formatQuote(187.4);     // '187.40'
 * formatQuote(12345.678); // '12,345.68'
 * formatQuote(0.0000512); // '0.000051'
 */
export function formatQuote(value: Numeric): string {
  const decimal = read(value);
  return decimal ? groupThousands(formatPrice(decimal)) : DASH;
}

/**
 * A profit or loss in quote units with its sign: '+12.50', '-0.0312', '0.00'.
 *
 * @example formatSignedQuote(-3.5); // '-3.50'
 */
export function formatSignedQuote(value: Numeric): string {
  const decimal = read(value);
  if (!decimal) return DASH;
  const text = formatQuote(decimal.abs());
  if (/^[0.]+$/.test(text)) return text;
  return decimal.isNegative() ? `-${text}` : `+${text}`;
}

/**
 * A percentage with its sign and two decimals: '+4.12%', '-0.50%'.
 *
 * @example formatSignedPercent(4.1234); // '+4.12%'
 */
export function formatSignedPercent(value: Numeric): string {
  const decimal = read(value);
  if (!decimal) return DASH;
  const fixed = decimal.abs().toFixed(2);
  if (fixed === '0.00') return '0.00%';
  return `${decimal.isNegative() ? '-' : '+'}${fixed}%`;
}

/** 'up' for a gain, 'down' for a loss, 'flat' for zero or unknown. */
export function getPnlTone(value: Numeric): 'up' | 'down' | 'flat' {
  const decimal = read(value);
  if (!decimal || decimal.isZero()) return 'flat';
  return decimal.isNegative() ? 'down' : 'up';
}

/**
 * Basis points with one decimal: '3.2 bps', '-0.8 bps'.
 *
 * @example formatBps(3.25); // '3.3 bps'
 */
export function formatBps(value: Numeric): string {
  const decimal = read(value);
  if (!decimal) return DASH;
  const fixed = decimal.toFixed(1);
  return `${fixed === '-0.0' ? '0.0' : fixed} bps`;
}

/**
 * A duration: milliseconds below one second, else seconds with two decimals.
 *
 * @example
 * formatDuration(812);  // '812 ms'
 * formatDuration(1240); // '1.24 s'
 */
export function formatDuration(milliseconds: number | null | undefined): string {
  if (milliseconds === null || milliseconds === undefined || !Number.isFinite(milliseconds)) return DASH;
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  return `${new SpecDecimal(milliseconds).div(1000).toFixed(2)} s`;
}

/** An order or fill time: the clock time for today, else the date and minute (shared with the dashboard). */
export { formatTradeTime } from '../trading/trade-format';
