/*
 * Readers for the market channel payloads (contracts market-channels.ts, schemas ZCandleTickSchema
 * and ZPricesTickSchema): prices, volumes and changes are JSON numbers. They check the shape by hand,
 * cheaply every second, and leave out a malformed entry rather than dropping the whole tick.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** One candle as the chart draws it: numbers, time in unix seconds. */
export interface CandlePoint {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A candle from the wire (`{time, open, high, low, close, volume}`), or null when malformed. */
export function readCandle(value: unknown): CandlePoint | null {
  if (!isRecord(value) || !isFiniteNumber(value.time)) return null;
  const { open, high, low, close, volume } = value;
  if (!isFiniteNumber(open) || !isFiniteNumber(high) || !isFiniteNumber(low) || !isFiniteNumber(close)) {
    return null;
  }
  return { time: value.time, open, high, low, close, volume: isFiniteNumber(volume) ? volume : 0 };
}

export type CandleTick =
  { kind: 'candle'; candle: CandlePoint; closed: boolean } | { kind: 'error'; error: string };

/** A `candles:<PAIR>:<interval>` payload: a candle tick, the channel's error, or null. */
export function readCandleTick(data: unknown): CandleTick | null {
  if (!isRecord(data)) return null;
  if (typeof data.error === 'string') return { kind: 'error', error: data.error };
  const candle = readCandle(data.candle);
  return candle ? { kind: 'candle', candle, closed: data.closed === true } : null;
}

/** A price and 24 h change as sent on the `prices` channel and by /market/dashboard-coins. */
export interface WirePrice {
  price: number;
  change_24h: number;
}

/**
 * The `prices` payload (`{timestamp, prices: {BTC: {price, change_24h}, jitoSOL: …}}`) re-keyed by
 * lower-case symbol, as /market/dashboard-coins keys its cards (the channel keys by the token's own
 * case), or null when malformed. Malformed entries are left out.
 */
export function readPricesTick(data: unknown): Record<string, WirePrice> | null {
  if (!isRecord(data) || !isRecord(data.prices)) return null;
  const prices: Record<string, WirePrice> = {};
  for (const [symbol, entry] of Object.entries(data.prices)) {
    if (!isRecord(entry) || !isFiniteNumber(entry.price)) continue;
    prices[symbol.toLowerCase()] = {
      price: entry.price,
      change_24h: isFiniteNumber(entry.change_24h) ? entry.change_24h : 0,
    };
  }
  return prices;
}
