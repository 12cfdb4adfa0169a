import { describe, expect, it } from 'vitest';
import {
  ZCandleSchema,
  ZDashboardCoinsSchema,
  ZHolderSchema,
  ZPercentNumberSchema,
  ZPriceNumberSchema,
  ZPricesTickSchema,
  ZTokenSearchResultSchema,
} from './market.schemas';

describe('market wire format: JSON numbers', () => {
  it('accepts numbers and refuses decimal strings and non-finite values', () => {
    expect(ZPriceNumberSchema.parse(0.00002134)).toBe(0.00002134);
    expect(ZPercentNumberSchema.parse(-3.25)).toBe(-3.25);
    expect(ZPriceNumberSchema.safeParse('187.42').success).toBe(false);
    expect(ZPriceNumberSchema.safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
    expect(ZPriceNumberSchema.safeParse(Number.NaN).success).toBe(false);
  });

  it('says in the schema that values are rounded in decimal arithmetic', () => {
    expect(ZPriceNumberSchema.description).toMatch(/decimal arithmetic/);
    expect(ZPercentNumberSchema.description).toMatch(/two decimals/);
  });

  it('reads the dashboard cards, a candle, a holder, a search result and a prices tick', () => {
    const coin = { price: 97234.12, change_24h: -1.2 };
    expect(ZDashboardCoinsSchema.parse({ btc: coin, eth: coin, sol: coin }).btc.price).toBe(97234.12);
    expect(
      ZCandleSchema.parse({ time: 1, open: 185.1, high: 186, low: 184.9, close: 185.5, volume: 1200.5 })
        .close,
    ).toBe(185.5);
    expect(
      ZCandleSchema.safeParse({ time: 1, open: '1', high: 1, low: 1, close: 1, volume: 1 }).success,
    ).toBe(false);
    const holder = {
      address: 'x',
      name: 'x',
      owned_percentage: 11.5214,
      balance: 10138830255224,
      sol_balance: 23.216,
      last_activity: null,
      tags: [],
    };
    expect(ZHolderSchema.parse(holder).owned_percentage).toBe(11.5214);
    expect(ZHolderSchema.safeParse({ ...holder, owned_percentage: '11.5214' }).success).toBe(false);
    const result = ZTokenSearchResultSchema.parse({
      id: 'm',
      name: 'Bonk',
      symbol: 'BONK',
      current_price: 0.00002134,
      price: 0.00002134,
      market_cap: 1612345678,
      price_change_24h: -6.43,
      address: 'm',
      decimals: 5,
      source: 'simulator',
      pair_address: null,
      dex_id: null,
      chain_id: 'solana',
      liquidity_usd: null,
      volume_24h: 18234567.12,
    });
    expect(typeof result.market_cap).toBe('number');
    // The prices channel keys by each token's own symbol case.
    const tick = ZPricesTickSchema.parse({ timestamp: 't', prices: { jitoSOL: coin, SOL: coin } });
    expect(Object.keys(tick.prices)).toEqual(['jitoSOL', 'SOL']);
  });
});
