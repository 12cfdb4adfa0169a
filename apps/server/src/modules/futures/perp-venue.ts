import type { TFuturesFunding, TFuturesMarket, TFuturesOrderBook, TFuturesPair } from '@solterm/contracts';
import type { FuturesService } from './futures.service';

/**
 * A perpetual-futures venue: market data every venue serves, and trading where the venue is ours.
 * `local` is the embedded in-house venue (engine books, USDC vault on chain); `drift` serves Drift's
 * public market data (placing live Drift orders is not built: `trading` is absent there).
 */
export interface PerpVenue {
  readonly kind: 'local' | 'drift';
  pairs(): Promise<TFuturesPair[]>;
  pair(id: string): Promise<TFuturesPair>;
  market(symbol: string): Promise<TFuturesMarket>;
  book(symbol: string): Promise<TFuturesOrderBook>;
  funding(symbol: string): Promise<TFuturesFunding>;
  openInterest(symbol: string): Promise<{ symbol: string; open_interest: string; open_interest_usd: string }>;
  volume(symbol: string): Promise<{ symbol: string; volume_24h: string; trades_24h: number }>;
  readonly trading?: FuturesService;
}
