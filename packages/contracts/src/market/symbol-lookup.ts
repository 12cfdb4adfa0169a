/**
 * Truncated symbols the market-data lookup retries with a full name (spec part 1 §4, part 2 §7):
 * some sources cut long tickers to five or six characters.
 */
export const TRUNCATED_SYMBOL_FULL_NAMES: Readonly<Record<string, string>> = {
  CHARL: 'CHARLIE',
  BITCO: 'BITCOIN',
  ETHERE: 'ETHEREUM',
  SOLAN: 'SOLANA',
};

/** Shortest text treated as a possibly truncated name when looking for names that start with it. */
export const MIN_TRUNCATED_PREFIX_LENGTH = 4;

/**
 * The full name to retry a market lookup with when the symbol looks truncated, or `undefined`.
 *
 * @example
 * getFullNameForTruncatedSymbol('bitco'); // 'BITCOIN'
 * getFullNameForTruncatedSymbol('SOL');   // undefined
 */
export function getFullNameForTruncatedSymbol(symbol: string): string | undefined {
  return TRUNCATED_SYMBOL_FULL_NAMES[symbol.trim().toUpperCase()];
}
