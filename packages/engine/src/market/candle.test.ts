import { describe, expect, it } from 'vitest';
import { candleFromWire, isClosed } from './candle';

describe('candles for strategies', () => {
  it('carries the wire decimals exactly, not as doubles', () => {
    const candle = candleFromWire({ time: 60, open: 0.1, high: 0.3, low: 0.1, close: 0.2, volume: 1000.05 });
    expect(candle.high.minus(candle.open).toString()).toBe('0.2');
    expect(candle.volume.toString()).toBe('1000.05');
  });

  it('refuses a candle that cannot be', () => {
    expect(() => candleFromWire({ time: 0, open: 1, high: 1, low: 2, close: 1, volume: 0 })).toThrow(
      /high is below low/,
    );
    expect(() => candleFromWire({ time: 0, open: Number.NaN, high: 1, low: 1, close: 1, volume: 0 })).toThrow(
      RangeError,
    );
  });

  it('is closed once its interval has passed', () => {
    expect(isClosed({ time: 60 }, 60, 119)).toBe(false);
    expect(isClosed({ time: 60 }, 60, 120)).toBe(true);
  });
});
