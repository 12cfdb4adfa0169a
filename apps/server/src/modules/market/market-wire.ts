import type { ChartInterval, TCandle, THistoricalTimeframe } from '@solterm/contracts';
import { centsToUsd, toWireNumber } from '../../lib/wire-decimal';
import type { RawCandle } from './candle-aggregation';
import type { MarketToken } from './market-data';

// The market service's fixed tables and its candle and ordering rules on the wire.

/** The quote every market-data price is expressed in. */
export const USD: MarketToken = { symbol: 'USD', name: 'US Dollar', mint: null, decimals: 6 };

/** Span and candle interval of each GET /chart/historical timeframe. */
export const HISTORICAL_SPANS: Readonly<
  Record<THistoricalTimeframe, { seconds: number; interval: ChartInterval }>
> = {
  '1h': { seconds: 3600, interval: '1M' },
  '4h': { seconds: 4 * 3600, interval: '5M' },
  '1d': { seconds: 86_400, interval: '5M' },
  '7d': { seconds: 7 * 86_400, interval: '1H' },
  '30d': { seconds: 30 * 86_400, interval: '4H' },
  '90d': { seconds: 90 * 86_400, interval: '12H' },
  '1y': { seconds: 365 * 86_400, interval: '1D' },
};

/**
 * A USD candle on the wire. Raw prices already are the doubles of rounded decimals (the simulator's
 * 10 significant digits, or the provider's own JSON numbers), so they go out unchanged; the volume
 * is whole cents, written as a two-decimal USD amount.
 */
export function formatCandle(candle: RawCandle): TCandle {
  return {
    time: candle.time,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
    volume: toWireNumber(centsToUsd(candle.volumeCents)),
  };
}

/** Largest market cap first; unknown caps last. Doubles of decimals compare exactly. */
export function byMarketCapDescending(
  a: { market_cap: number | null },
  b: { market_cap: number | null },
): number {
  return (b.market_cap ?? 0) - (a.market_cap ?? 0);
}
