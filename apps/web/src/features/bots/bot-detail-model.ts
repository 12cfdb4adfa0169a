import { SpecDecimal, type TBotDetail, type TBotRunSummary } from '@solterm/contracts';
import { formatCount } from '../../lib/format';

/**
 * A run's length in words: minutes under an hour, hours and minutes under a day, then days and hours.
 *
 * @example formatDuration(5400); // '1 h 30 min'
 */
export function formatDuration(seconds: number): string {
  const minutes = Math.floor(Math.max(seconds, 0) / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/**
 * An amount with its sign and unit at `places` decimals; one that rounds to zero is unsigned
 * ("0.00 USDC", never "-0.00").
 *
 * @example formatSigned(-1.234, 'USDC'); // '-1.23 USDC'
 */
export function formatSigned(value: number, unit: string, places = 2): string {
  const rounded = new SpecDecimal(value).toDecimalPlaces(places);
  const text = rounded.isZero() ? (0).toFixed(places) : rounded.toFixed(places);
  const sign = rounded.gt(0) ? '+' : '';
  return unit ? `${sign}${text} ${unit}` : `${sign}${text}`;
}

/** The text colour of a figure that can gain or lose. */
export function toneOf(value: number | null): string {
  if (value === null) return 'text-fg';
  const rounded = new SpecDecimal(value).toDecimalPlaces(6);
  return rounded.gt(0) ? 'text-up' : rounded.lt(0) ? 'text-down' : 'text-fg';
}

/** 'Paper' or 'On chain' (the bot card's run modes). */
export function modeLabel(mode: string): string {
  return mode === 'mainnet' ? 'On chain' : 'Paper';
}

/** A run in the run picker: its start (UTC), mode and status. */
export function runLabel(run: TBotRunSummary): string {
  const start = run.started_at.replace('T', ' ').slice(0, 16);
  return `${start} UTC · ${modeLabel(run.mode)} · ${run.status}`;
}

/** "26–50 of 120": the fills a page shows. */
export function pageLabel(fills: TBotDetail['fills']): string {
  if (fills.total === 0) return 'No fills';
  const first = fills.offset + 1;
  const last = Math.min(fills.offset + fills.items.length, fills.total);
  return `${first}–${last} of ${formatCount(fills.total)}`;
}

/** A token amount with up to `max` decimals (trailing zeros dropped), thousands separated. */
export function formatAmount(value: number, max = 6): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: max });
}
