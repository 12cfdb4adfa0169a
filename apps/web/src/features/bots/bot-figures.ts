import { ApiError, getErrorMessage } from '../../lib/api-client';

// How bot cards and the marketplace write their figures: with units, thousands separators, and a
// return that rounds to zero written as a neutral 0.00 % (never "-0.00%").

/** The quote token of a pair ("SOL/USDC" → "USDC"; a single token is quoted in USD). */
export function quoteOf(symbol: string): string {
  const parts = symbol.split(/[/-]/);
  return parts.length > 1 ? parts[parts.length - 1]!.trim().toUpperCase() : 'USD';
}

/** A whole count with separators: 256335 → "256,335". */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** `value` at `decimals`, with separators, and no minus sign when it rounds to zero. */
function fixed(value: number, decimals: number): string {
  const rounded = Number(value.toFixed(decimals));
  return (Object.is(rounded, -0) ? 0 : rounded).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

/** "+12.34 USDC", "-0.50 USDC", "0.00 USDC" (zero after rounding is unsigned). */
export function formatSignedAmount(value: number, unit: string, decimals = 2): string {
  const text = fixed(value, decimals);
  const isZero = Number(value.toFixed(decimals)) === 0;
  return `${value > 0 && !isZero ? '+' : ''}${text} ${unit}`;
}

/** "1,234.50 USDC". */
export function formatAmountWithUnit(value: number, unit: string, decimals = 2): string {
  return `${fixed(value, decimals)} ${unit}`;
}

/** "12.34 %", "-0.50 %", "0.00 %" for anything that rounds to zero. */
export function formatPercent(value: number, decimals = 2): string {
  return `${fixed(value, decimals)} %`;
}

/** The tone of a figure: up, down, or neutral when it rounds to zero at `decimals`. */
export function toneOf(value: number, decimals = 2): 'text-up' | 'text-down' | '' {
  const rounded = Number(value.toFixed(decimals));
  return rounded > 0 ? 'text-up' : rounded < 0 ? 'text-down' : '';
}

/**
 * A toast's text: the spec's message (part 2 §8, "Failed to start bot"), then the server's reason
 * when it gave one ("Failed to start bot: You can run at most 5 bots at once…").
 */
export function failureMessage(specMessage: string, caught: unknown): string {
  if (!(caught instanceof ApiError)) return specMessage;
  const reason = getErrorMessage(caught, '');
  return reason && reason !== specMessage ? `${specMessage}: ${reason}` : specMessage;
}
