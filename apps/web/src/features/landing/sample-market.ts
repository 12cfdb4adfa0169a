/**
 * Static sample figures for the public landing page (spec part 1 §1: "featured coins (static
 * sample figures)"). Nothing here is live data; the page labels it as a sample.
 */

/** A deterministic pseudo-random walk, so the mock charts look the same on every visit. */
export function sampleWalk(seed: number, length: number, start: number, volatility: number): number[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const values = [start];
  for (let index = 1; index < length; index += 1) {
    const previous = values[index - 1]!;
    values.push(previous * (1 + (next() - 0.48) * volatility));
  }
  return values;
}

/** A walk that ends higher than it starts when `change` is positive and lower when negative. */
function trendWalk(seed: number, start: number, volatility: number, change: number): number[] {
  const walk = sampleWalk(seed, 32, start, volatility);
  const isRising = walk[walk.length - 1]! >= walk[0]!;
  return isRising === change >= 0 ? walk : walk.reverse();
}

export interface SampleCoin {
  symbol: string;
  name: string;
  price: string;
  change: number;
  volume: string;
  spark: number[];
}

export const FEATURED_COINS: readonly SampleCoin[] = [
  {
    symbol: 'SOL',
    name: 'Solana',
    price: '$172.45',
    change: 3.21,
    volume: '$3.2B',
    spark: trendWalk(7, 160, 0.03, 3.21),
  },
  {
    symbol: 'BTC',
    name: 'Bitcoin',
    price: '$67,412.80',
    change: 1.08,
    volume: '$28.6B',
    spark: trendWalk(11, 66000, 0.012, 1.08),
  },
  {
    symbol: 'ETH',
    name: 'Ethereum',
    price: '$3,518.22',
    change: -0.64,
    volume: '$14.1B',
    spark: trendWalk(5, 3560, 0.015, -0.64),
  },
  {
    symbol: 'JUP',
    name: 'Jupiter',
    price: '$1.1240',
    change: 5.77,
    volume: '$212.4M',
    spark: trendWalk(23, 1.02, 0.04, 5.77),
  },
  {
    symbol: 'BONK',
    name: 'Bonk',
    price: '$0.000024',
    change: -2.35,
    volume: '$388.9M',
    spark: trendWalk(3, 0.0000251, 0.05, -2.35),
  },
  {
    symbol: 'WIF',
    name: 'dogwifhat',
    price: '$2.8731',
    change: 8.42,
    volume: '$540.2M',
    spark: trendWalk(41, 2.5, 0.05, 8.42),
  },
];

export interface SampleCandle {
  open: number;
  high: number;
  low: number;
  close: number;
}

/** Candles for the terminal mock: a gently rising SOL/USDC session. */
export function sampleCandles(count: number): SampleCandle[] {
  const walk = sampleWalk(19, count + 1, 163, 0.012);
  // The session should close near its high, as the mock's +3.21% header says.
  const closes = walk[walk.length - 1]! >= walk[0]! ? walk : walk.reverse();
  const wiggle = sampleWalk(29, count, 1, 0.5).map((value) => Math.abs(value - 1) + 0.2);
  return closes.slice(1).map((close, index) => {
    const open = closes[index]!;
    const spread = Math.abs(close - open) + wiggle[index]! * 0.6;
    return {
      open,
      close,
      high: Math.max(open, close) + spread * 0.5,
      low: Math.min(open, close) - spread * 0.5,
    };
  });
}

export const SAMPLE_ORDER_BOOK = {
  asks: [
    { price: '172.62', size: '84.20', depth: 0.82 },
    { price: '172.58', size: '41.07', depth: 0.55 },
    { price: '172.54', size: '126.5', depth: 0.95 },
    { price: '172.51', size: '18.33', depth: 0.28 },
    { price: '172.48', size: '9.150', depth: 0.16 },
  ],
  bids: [
    { price: '172.43', size: '22.81', depth: 0.31 },
    { price: '172.40', size: '67.02', depth: 0.7 },
    { price: '172.36', size: '13.94', depth: 0.22 },
    { price: '172.33', size: '108.6', depth: 0.9 },
    { price: '172.29', size: '35.48', depth: 0.48 },
  ],
} as const;
