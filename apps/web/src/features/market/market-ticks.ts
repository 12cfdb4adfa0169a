import { toDecimal, type WireDecimal } from './market-values';

/*
 * Readers for the market channel payloads (contracts market-channels.ts). They check the shape by
 * hand rather than with the contracts' zod schemas so a switch of decimals from strings to JSON
 * numbers does not silently stop live updates.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isWireDecimal(value: unknown): value is WireDecimal {
  return (typeof value === 'string' || typeof value === 'number') && toDecimal(value) !== null;
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
  if (!isRecord(value) || typeof value.time !== 'number' || !Number.isFinite(value.time)) return null;
  const fields = ['open', 'high', 'low', 'close'] as const;
  if (!fields.every((field) => isWireDecimal(value[field]))) return null;
  const number = (field: string) => Number(toDecimal(value[field] as WireDecimal)?.toString() ?? 0);
  return {
    time: value.time,
    open: number('open'),
    high: number('high'),
    low: number('low'),
    close: number('close'),
    volume: isWireDecimal(value.volume) ? number('volume') : 0,
  };
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
  price: WireDecimal;
  change_24h: WireDecimal;
}

/**
 * The `prices` payload (`{timestamp, prices: {BTC: {price, change_24h}, …}}`) keyed by lower-case
 * symbol, or null when malformed. Malformed entries are left out.
 */
export function readPricesTick(data: unknown): Record<string, WirePrice> | null {
  if (!isRecord(data) || !isRecord(data.prices)) return null;
  const prices: Record<string, WirePrice> = {};
  for (const [symbol, entry] of Object.entries(data.prices)) {
    if (!isRecord(entry) || !isWireDecimal(entry.price)) continue;
    prices[symbol.toLowerCase()] = {
      price: entry.price,
      change_24h: isWireDecimal(entry.change_24h) ? entry.change_24h : 0,
    };
  }
  return prices;
}
