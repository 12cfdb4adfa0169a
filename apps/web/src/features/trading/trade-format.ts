import {
  groupThousands,
  isStablecoin,
  LAMPORTS_PER_SOL,
  parseSpecDecimal,
  shortenAddress,
  SpecDecimal,
  type NumericInput,
} from '@solterm/contracts';

/*
 * Display helpers of the trading widgets. Values arrive as JSON numbers the server computed in
 * decimals; they are shown through SpecDecimal (half up), never float toFixed.
 */

/** Below this (and above zero) a non-stable amount shows its significant decimals rather than 4. */
const SMALL_AMOUNT = new SpecDecimal('0.0001');

/**
 * A token amount for tables and balances: stablecoins with 2 decimals, other tokens with 4, thousands
 * grouped; a tiny amount (below 0.0001) with up to 9 decimals, trailing zeros dropped; '—' when missing.
 *
 * @example
 * formatTokenAmount(1000, 'USDC'); // '1,000.00'
 * formatTokenAmount(0.5, 'SOL');   // '0.5000'
 * formatTokenAmount(0.000005);     // '0.000005'
 */
export function formatTokenAmount(value: NumericInput | null | undefined, symbol?: string): string {
  const decimal = parseSpecDecimal(value);
  if (!decimal) return '—';
  if (symbol && isStablecoin(symbol)) return groupThousands(decimal.toFixed(2));
  if (!decimal.isZero() && decimal.abs().lt(SMALL_AMOUNT)) {
    // SOL has 9 decimals: a network fee of 5000 lamports shows as 0.000005.
    return decimal.toDecimalPlaces(9).toFixed();
  }
  return groupThousands(decimal.toFixed(4));
}

/**
 * Lamports (decimal integer string) as SOL.
 *
 * @example lamportsToSol('5000').toString(); // '0.000005'
 */
export function lamportsToSol(lamports: string): SpecDecimal {
  return new SpecDecimal(lamports).div(LAMPORTS_PER_SOL.toString());
}

/**
 * A transaction hash shortened for a toast or table (the full hash goes in a title).
 *
 * @example shortenHash('5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'); // '5VERv8...SZkQUW'
 */
export function shortenHash(hash: string): string {
  return shortenAddress(hash, 6, 6);
}

/**
 * Slippage in basis points with its sign: positive is against the trader.
 *
 * @example formatBps(3.25); // '+3.3 bps'
 */
export function formatBps(bps: number): string {
  const decimal = parseSpecDecimal(bps);
  if (!decimal) return '—';
  const fixed = decimal.toFixed(1);
  if (fixed === '0.0' || fixed === '-0.0') return '0.0 bps';
  return `${decimal.gt(0) ? '+' : ''}${fixed} bps`;
}

/**
 * A duration: milliseconds below a second, else seconds with one decimal.
 *
 * @example formatDurationMs(420); // '420 ms'
 * formatDurationMs(1850);         // '1.9 s'
 */
export function formatDurationMs(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${new SpecDecimal(ms).div(1000).toFixed(1)} s`;
}

const TIME = new Intl.DateTimeFormat('en-US', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/**
 * A trade's time: the clock time for today's trades, else the date and time.
 *
 * @example formatTradeTime('2025-03-01T14:05:09Z', now); // '14:05:09' (same day) or 'Mar 1, 14:05'
 */
export function formatTradeTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const isToday = date.toDateString() === now.toDateString();
  return isToday ? TIME.format(date) : DATE_TIME.format(date);
}
