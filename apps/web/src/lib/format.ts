import {
  formatPrice,
  groupThousands,
  isStablecoin,
  LAMPORTS_PER_SOL,
  parseSpecDecimal,
  shortenAddress,
  SpecDecimal,
  type NumericInput,
} from '@solterm/contracts';

/*
 * The web's one set of display formatters: money, prices, percents, sizes and counts for every view
 * (dashboard, trade page, futures, bots, marketplace). Values arrive as JSON numbers the server
 * computed in decimals, or as decimal strings; they are read as decimals through their shortest text
 * (SpecDecimal: 18 digits, half up), never formatted with float maths. The contracts' own formatters
 * (formatPrice, formatUsd, formatUsdPrice…) follow the spec's precision table and are used as they are.
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
 * @example formatSlippageBps(3.25); // '+3.3 bps'
 */
export function formatSlippageBps(bps: number): string {
  const decimal = parseSpecDecimal(bps);
  if (!decimal) return '—';
  const fixed = decimal.toFixed(1);
  if (fixed === '0.0' || fixed === '-0.0') return '0.0 bps';
  return `${decimal.gt(0) ? '+' : ''}${fixed} bps`;
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

/**
 * A decimal with exactly `decimals` places (half up) and thousands grouped, '0.00' rather than
 * '-0.00'; '—' when missing.
 *
 * @example formatFixed('1234.5', 2); // '1,234.50'
 */
export function formatFixed(value: NumericInput | SpecDecimal | null | undefined, decimals: number): string {
  if (value === null || value === undefined || value === '') return DASH;
  const decimal = parseSpecDecimal(value);
  if (!decimal) return DASH;
  const rounded = decimal.toDecimalPlaces(decimals, SpecDecimal.ROUND_HALF_UP);
  // A value that rounds to zero shows as zero: no '-0.00'.
  return groupThousands((rounded.isZero() ? new SpecDecimal(0) : rounded).toFixed(decimals));
}

/**
 * A USD amount with its sign and two places, with a typographic minus ('+12.30', '−4.01'); an amount
 * that rounds to zero is '+0.00'.
 *
 * @example formatSignedUsd('-4.005'); // '−4.01'
 */
export function formatSignedUsd(value: string | SpecDecimal): string {
  const decimal = new SpecDecimal(value);
  const text = groupThousands(decimal.abs().toFixed(2));
  return decimal.isNegative() && text !== '0.00' ? `−${text}` : `+${text}`;
}

/**
 * A rate (a fraction) as a percent with `decimals` places.
 *
 * @example formatRatePercent('0.0005'); // '0.0500%'
 */
export function formatRatePercent(rate: string | number | SpecDecimal, decimals = 4): string {
  const decimal =
    typeof rate === 'number' ? (parseSpecDecimal(rate) ?? new SpecDecimal(0)) : new SpecDecimal(rate);
  return `${decimal.times(100).toFixed(decimals)}%`;
}

/**
 * A percent (already in percent units) with `decimals` places and no sign for gains.
 *
 * @example formatPlainPercent(0.5); // '0.50%'
 */
export function formatPlainPercent(value: Numeric | string, decimals = 2): string {
  const decimal = typeof value === 'string' ? parseSpecDecimal(value) : read(value);
  return decimal ? `${decimal.toFixed(decimals)}%` : DASH;
}

/**
 * A 24 h style change in percent: two decimals, '+' for a gain, and '0.00%' for what rounds to zero.
 *
 * @example
 * formatPercentChange(1.005);  // '+1.01%'
 * formatPercentChange(-0.001); // '0.00%'
 */
export function formatPercentChange(value: Numeric): string {
  const decimal = read(value);
  if (!decimal) return DASH;
  const fixed = decimal.toFixed(2);
  if (/^-?0\.00$/.test(fixed)) return '0.00%';
  return decimal.gt(0) ? `+${fixed}%` : `${fixed}%`;
}

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * A large figure in compact notation (market caps, volumes, liquidity); '—' when missing.
 *
 * @example formatCompact(185626283.18); // '185.63M'
 */
export function formatCompact(value: number | null | undefined): string {
  const number = finiteOrNull(value);
  return number === null ? DASH : COMPACT.format(number);
}

/**
 * A large USD figure in compact notation.
 *
 * @example formatCompactUsd(2567381672.24); // '$2.57B'
 */
export function formatCompactUsd(value: number | null | undefined): string {
  const number = finiteOrNull(value);
  if (number === null) return DASH;
  return number < 0 ? `-$${COMPACT.format(-number)}` : `$${COMPACT.format(number)}`;
}

/*
 * Bot cards, backtests and the marketplace write their figures with units and a space before '%',
 * and a figure that rounds to zero as a neutral 0.00 (never '-0.00').
 */

/** `value` half up to `decimals` places, with '-0.00' written as '0.00'. */
function fixedWithoutNegativeZero(value: number, decimals: number): { text: string; sign: -1 | 0 | 1 } {
  const decimal = parseSpecDecimal(value) ?? new SpecDecimal(0);
  const rounded = decimal.toDecimalPlaces(decimals, SpecDecimal.ROUND_HALF_UP);
  if (rounded.isZero()) return { text: groupThousands(new SpecDecimal(0).toFixed(decimals)), sign: 0 };
  return { text: groupThousands(rounded.toFixed(decimals)), sign: rounded.isNegative() ? -1 : 1 };
}

/**
 * A whole count with thousands separators.
 *
 * @example formatCount(256335); // '256,335'
 */
export function formatCount(value: number): string {
  const decimal = parseSpecDecimal(value);
  return decimal ? groupThousands(decimal.toDecimalPlaces(0, SpecDecimal.ROUND_HALF_UP).toFixed(0)) : DASH;
}

/**
 * An amount with its unit and a '+' for a gain.
 *
 * @example formatSignedAmount(1234.567, 'USDC'); // '+1,234.57 USDC'
 */
export function formatSignedAmount(value: number, unit: string, decimals = 2): string {
  const { text, sign } = fixedWithoutNegativeZero(value, decimals);
  return `${sign > 0 ? '+' : ''}${text} ${unit}`;
}

/**
 * An amount with its unit.
 *
 * @example formatAmountWithUnit(1000, 'USDC'); // '1,000.00 USDC'
 */
export function formatAmountWithUnit(value: number, unit: string, decimals = 2): string {
  return `${fixedWithoutNegativeZero(value, decimals).text} ${unit}`;
}

/**
 * A percent figure of a bot (already in percent units), with a space before '%'.
 *
 * @example formatPercent(12.345); // '12.35 %'
 */
export function formatPercent(value: number, decimals = 2): string {
  return `${fixedWithoutNegativeZero(value, decimals).text} %`;
}

/**
 * The tone class of a signed decimal: gain, loss, or muted for zero.
 *
 * @example getToneClass('-1.5'); // 'text-down'
 */
export function getToneClass(value: string | SpecDecimal): 'text-up' | 'text-down' | 'text-muted' {
  const decimal = new SpecDecimal(value);
  return decimal.gt(0) ? 'text-up' : decimal.lt(0) ? 'text-down' : 'text-muted';
}
