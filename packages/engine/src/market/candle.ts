import { Dec } from '../money/decimal';

/**
 * A closed-form OHLCV candle for strategies and backtests: prices and volume as decimals (never
 * doubles, so a backtest's arithmetic is the live bot's), the open time in unix seconds.
 */
export interface Candle {
  /** Unix seconds of the candle's open. */
  readonly time: number;
  readonly open: Dec;
  readonly high: Dec;
  readonly low: Dec;
  readonly close: Dec;
  /** USD volume traded in the candle. */
  readonly volume: Dec;
}

/** A candle as the API sends it: numbers that carry a decimal of at most 15 significant digits. */
export interface WireCandle {
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

/**
 * The decimal candle of a wire candle, through each number's shortest decimal text (exact for the
 * decimals the wire carries).
 *
 * @example candleFromWire({ time: 60, open: 0.1, high: 0.3, low: 0.1, close: 0.2, volume: 1000 }).high.toString(); // '0.3'
 * @throws RangeError for a non-finite value or a high below the low.
 */
export function candleFromWire(wire: WireCandle): Candle {
  const dec = (value: number, name: string) => {
    if (!Number.isFinite(value)) throw new RangeError(`candle ${name} must be finite, got ${value}`);
    return new Dec(String(value));
  };
  const candle = {
    time: wire.time,
    open: dec(wire.open, 'open'),
    high: dec(wire.high, 'high'),
    low: dec(wire.low, 'low'),
    close: dec(wire.close, 'close'),
    volume: dec(wire.volume, 'volume'),
  };
  if (candle.high.lt(candle.low)) throw new RangeError(`candle at ${wire.time}: high is below low`);
  return candle;
}

/** Whether a candle of `intervalSeconds` is closed at `nowSeconds` (strategies only see closed ones). */
export function isClosed(candle: Pick<Candle, 'time'>, intervalSeconds: number, nowSeconds: number): boolean {
  return candle.time + intervalSeconds <= nowSeconds;
}
