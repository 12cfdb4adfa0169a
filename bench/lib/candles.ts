import { seededRandom, type WireCandle } from '@solterm/engine';

/**
 * A year of 1-minute SOL/USDC candles (525,600) for the backtest benchmarks: a seeded random walk at
 * 75 % annual volatility from 150, prices quantised to 10 significant digits as the simulator's.
 */
export function yearOfMinutes(seed = 2026): WireCandle[] {
  const minutes = 525_600;
  const random = seededRandom(seed);
  const candles: WireCandle[] = [];
  let price = 150;
  const sigma = 0.75 / Math.sqrt(minutes);
  for (let i = 0; i < minutes; i += 1) {
    const open = price;
    const gauss = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    price = Number((price * Math.exp(sigma * gauss)).toPrecision(10));
    const wick = price * sigma * random();
    candles.push({
      time: 1_735_689_600 + i * 60,
      open,
      high: Number((Math.max(open, price) + wick).toPrecision(10)),
      low: Number((Math.min(open, price) - wick).toPrecision(10)),
      close: price,
      volume: 10_000,
    });
  }
  return candles;
}
