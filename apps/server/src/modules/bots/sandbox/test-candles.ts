import { seededRandom, type WireCandle } from '@solterm/engine';

/**
 * The sandboxes' test candles: 3,000 hours of a seeded random walk (±1 % a candle) from 150, so
 * every built-in trades on them and the parity tests compare real trade lists.
 */
export function hourlyTestCandles(): WireCandle[] {
  const random = seededRandom(99);
  let price = 150;
  return Array.from({ length: 3000 }, (_, i) => {
    const open = price;
    price = Number((price * (1 + (random() - 0.5) * 0.02)).toPrecision(10));
    return {
      time: 3600 * (i + 1),
      open,
      close: price,
      high: Number((Math.max(open, price) * 1.004).toPrecision(10)),
      low: Number((Math.min(open, price) * 0.996).toPrecision(10)),
      volume: 1000,
    };
  });
}
