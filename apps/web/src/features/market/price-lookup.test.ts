import { describe, expect, it, vi } from 'vitest';
import { formatPrice } from '@solterm/contracts';
import { lookupPairPrice, lookupQuoteUsd, type PriceSources, type WireCoinPrices } from './price-lookup';
import { selectionFromPair, selectionFromToken } from './trading-state';

const COINS: WireCoinPrices = {
  btc: { price: 91301.68, change_24h: -3.27 },
  eth: { price: 2948.18, change_24h: -2.78 },
  sol: { price: 185.83, change_24h: -3.46 },
};

/** Sources that record the order of calls; each answers what `answers` says or fails. */
function sources(answers: {
  pair?: { price: number; change_24h?: number; base_price_usd?: number } | Error;
  coins?: WireCoinPrices | Error;
  market?: Record<string, { price: number; change_24h?: number }>;
}) {
  const calls: string[] = [];
  const result: PriceSources = {
    getPairPrice: vi.fn(async (id: string) => {
      calls.push(`pair ${id}`);
      if (!answers.pair || answers.pair instanceof Error) throw answers.pair ?? new Error('404');
      return answers.pair;
    }),
    getDashboardCoins: vi.fn(async () => {
      calls.push('dashboard');
      if (!answers.coins || answers.coins instanceof Error) throw answers.coins ?? new Error('down');
      return answers.coins;
    }),
    getMarketData: vi.fn(async (symbol: string) => {
      calls.push(`market ${symbol}`);
      const found = answers.market?.[symbol];
      if (!found) throw new Error('Token not found');
      return found;
    }),
  };
  return { sources: result, calls };
}

describe('price lookup chain (spec part 1 §4)', () => {
  it('1. uses the pair endpoint when it answers a price above 0', async () => {
    const { sources: s, calls } = sources({
      pair: { price: 0.0000001792480288, change_24h: 10.22, base_price_usd: 0.0000333 },
    });
    const result = await lookupPairPrice(s, selectionFromPair('BONK/SOL')!);
    expect(calls).toEqual(['pair BONK/SOL']);
    expect(result.source).toBe('pair');
    expect(formatPrice(result.price)).toBe('1.79e-7');
    expect(result.change24h?.toString()).toBe('10.22');
    expect(result.message).toBeNull();
  });

  it('reads the JSON numbers as the decimals they stand for', async () => {
    const { sources: s } = sources({ pair: { price: 185.91, change_24h: -2.5, base_price_usd: 185.91 } });
    const result = await lookupPairPrice(s, selectionFromPair('SOL/USDC')!);
    expect(result.price.toString()).toBe('185.91');
    expect(result.change24h?.toString()).toBe('-2.5');
    // 0.1 + 0.2 in doubles is 0.30000000000000004; in decimals it is 0.3.
    const sum = await lookupPairPrice(
      sources({ pair: { price: 0.1, base_price_usd: 0.2 } }).sources,
      selectionFromPair('SOL/USDC')!,
    );
    expect(sum.price.plus(sum.baseUsd!).toString()).toBe('0.3');
  });

  it('2. falls back to the dashboard coin price of the base, divided by the quote price', async () => {
    const { sources: s, calls } = sources({ pair: { price: 0 }, coins: COINS });
    const result = await lookupPairPrice(s, selectionFromPair('BTC/SOL')!);
    expect(calls).toEqual(['pair BTC/SOL', 'dashboard']);
    expect(result.source).toBe('dashboard');
    expect(result.price.toFixed(6)).toBe('491.318302');
    // A change in USD is not the change of a SOL-quoted pair.
    expect(result.change24h).toBeNull();
  });

  it('keeps the USD change for a stablecoin quote (stablecoins are 1)', async () => {
    const { sources: s, calls } = sources({ coins: COINS });
    const result = await lookupPairPrice(s, selectionFromPair('ETH/USDC')!);
    expect(calls).toEqual(['pair ETH/USDC', 'dashboard']);
    expect(result.price.toString()).toBe('2948.18');
    expect(result.change24h?.toString()).toBe('-2.78');
  });

  it('3. then the symbol market data, with the quote from the dashboard prices', async () => {
    const { sources: s, calls } = sources({
      coins: COINS,
      market: { BONK: { price: 0.00003716, change_24h: 1.5 } },
    });
    const result = await lookupPairPrice(
      s,
      selectionFromToken({ symbol: 'BONK', name: 'Bonk', address: null }, 'SOL'),
    );
    expect(calls).toEqual(['pair BONK/SOL', 'dashboard', 'market BONK']);
    expect(result.source).toBe('market');
    expect(formatPrice(result.price)).toBe('2.00e-7');
  });

  it('retries a truncated symbol with its full name', async () => {
    const { sources: s, calls } = sources({
      coins: new Error('down'),
      market: { BITCOIN: { price: 91000 } },
    });
    const result = await lookupPairPrice(
      s,
      selectionFromToken({ symbol: 'BITCO', name: 'Bitcoin', address: null }, 'USDC'),
    );
    expect(calls).toEqual(['pair BITCO/USDC', 'dashboard', 'market BITCO', 'market BITCOIN']);
    expect(result.price.toString()).toBe('91000');
  });

  it('quote fallback: stablecoins, dashboard, then market data', async () => {
    const { sources: s, calls } = sources({ coins: COINS, market: { JUP: { price: 0.75 } } });
    expect((await lookupQuoteUsd(s, 'USDT'))?.toString()).toBe('1');
    expect(calls).toEqual([]);
    expect((await lookupQuoteUsd(s, 'SOL'))?.toString()).toBe('185.83');
    expect((await lookupQuoteUsd(s, 'JUP'))?.toString()).toBe('0.75');
    expect(calls).toEqual(['dashboard', 'dashboard', 'market JUP']);
  });

  it('4. shows 0.00 with "USD price not available" when every source fails', async () => {
    const { sources: s, calls } = sources({});
    const result = await lookupPairPrice(
      s,
      selectionFromToken({ symbol: 'NOPE', name: 'Nope', address: null }, 'SOL'),
    );
    expect(calls).toEqual(['pair NOPE/SOL', 'dashboard', 'market NOPE']);
    expect(result.source).toBe('unavailable');
    expect(formatPrice(result.price)).toBe('0.00');
    expect(result.message).toBe('USD price not available');
  });

  it('is unavailable when the quote cannot be priced', async () => {
    const { sources: s } = sources({ coins: COINS, market: { WIF: { price: 0.58 } } });
    const result = await lookupPairPrice(s, selectionFromPair('WIF/RAY')!);
    expect(result.message).toBe('USD price not available');
  });
});
