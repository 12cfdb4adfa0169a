import { parseSpecDecimal, SpecDecimal } from '@solterm/contracts';
import { ApiError, getErrorMessage } from '../../lib/api-client';

// What bot cards and the marketplace say beside their figures (lib/format.ts writes the figures).

/** The quote token of a pair ("SOL/USDC" → "USDC"; a single token is quoted in USD). */
export function quoteOf(symbol: string): string {
  const parts = symbol.split(/[/-]/);
  return parts.length > 1 ? parts[parts.length - 1]!.trim().toUpperCase() : 'USD';
}

/** The tone of a figure: up, down, or neutral when it rounds to zero at `decimals`. */
export function toneOf(value: number, decimals = 2): 'text-up' | 'text-down' | '' {
  const rounded = (parseSpecDecimal(value) ?? new SpecDecimal(0)).toDecimalPlaces(
    decimals,
    SpecDecimal.ROUND_HALF_UP,
  );
  return rounded.gt(0) ? 'text-up' : rounded.lt(0) ? 'text-down' : '';
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
