import { CHART_INTERVAL_VALUES, type ChartInterval } from '../rules/constants';
import { parseChartInterval } from './chart-interval';

/**
 * Real-time market channels on /ws. A client sends `{type:"subscribe", channel}` and then receives
 * `{type:"channel", channel, data}` messages:
 *
 * - `prices` — every tick (1 s): {@link TPricesTick}, every token's price and 24 h change, keyed
 *   by the token's canonical symbol in its own case (`SOL`, `BONK`, `jitoSOL`, `mSOL`). This differs
 *   from GET /market/dashboard-coins, which keys by lower-case `btc`, `eth`, `sol`: a client that
 *   merges ticks into those cards normalises the keys (`symbol.toLowerCase()`), as the web does.
 * - `price:<SYMBOL>` — every tick: {@link TPriceTick} of one token (`price:SOL`).
 * - `candles:<BASE>/<QUOTE>:<interval>` — every tick: {@link TCandleTick}, the forming candle of a
 *   pair; when a candle closes, first that candle with `closed: true`. The interval is a chart
 *   label or chart-service value (`candles:SOL/USDC:1` is one-minute candles, also `:1M`, `:1S`, `:60`).
 *
 * Prices, percentages and volumes in the payloads are JSON numbers rounded in decimal arithmetic,
 * exactly as in the REST answers (see market.schemas.ts). Market channels need no authentication.
 * The server computes only channels that have subscribers.
 */
export const PRICES_CHANNEL = 'prices' as const;

/** Prefix of a one-token price channel. */
export const PRICE_CHANNEL_PREFIX = 'price:';

/** Prefix of a candle channel. */
export const CANDLES_CHANNEL_PREFIX = 'candles:';

/**
 * The price channel of one token.
 *
 * @example
 * priceChannel('sol'); // 'price:SOL'
 */
export function priceChannel(symbol: string): `${typeof PRICE_CHANNEL_PREFIX}${string}` {
  return `${PRICE_CHANNEL_PREFIX}${symbol.trim().toUpperCase()}`;
}

/**
 * The candle channel of a pair and interval, written with the chart-service value of the interval.
 *
 * @example
 * candlesChannel('SOL/USDC', '1M'); // 'candles:SOL/USDC:1'
 */
export function candlesChannel(
  pair: string,
  interval: ChartInterval,
): `${typeof CANDLES_CHANNEL_PREFIX}${string}` {
  return `${CANDLES_CHANNEL_PREFIX}${pair.trim()}:${CHART_INTERVAL_VALUES[interval]}`;
}

/** A market channel, read. */
export type MarketChannel =
  | { kind: 'prices' }
  | { kind: 'price'; symbol: string }
  | { kind: 'candles'; pair: string; interval: ChartInterval };

/**
 * Reads a market channel name; `undefined` when it is not one (other modules own other channels).
 * The pair text is returned as written (symbols or mints); the interval is normalised to its label.
 *
 * @example
 * parseMarketChannel('candles:SOL/USDC:1'); // { kind: 'candles', pair: 'SOL/USDC', interval: '1M' }
 * parseMarketChannel('price:bonk');         // { kind: 'price', symbol: 'BONK' }
 */
export function parseMarketChannel(channel: string): MarketChannel | undefined {
  if (channel === PRICES_CHANNEL) return { kind: 'prices' };
  if (channel.startsWith(PRICE_CHANNEL_PREFIX)) {
    const symbol = channel.slice(PRICE_CHANNEL_PREFIX.length).trim();
    return symbol ? { kind: 'price', symbol: symbol.toUpperCase() } : undefined;
  }
  if (channel.startsWith(CANDLES_CHANNEL_PREFIX)) {
    const rest = channel.slice(CANDLES_CHANNEL_PREFIX.length);
    const colon = rest.lastIndexOf(':');
    if (colon <= 0) return undefined;
    const pair = rest.slice(0, colon).trim();
    const interval = parseChartInterval(rest.slice(colon + 1));
    return pair && interval ? { kind: 'candles', pair, interval } : undefined;
  }
  return undefined;
}
