import { z } from 'zod';
import type { ProviderClient } from '../../../lib/provider-client';

// The fields of CoinGecko's API v3 we read (https://docs.coingecko.com/reference/introduction).

const nullableNumber = z.number().nullable().optional();

export const ZSimplePriceSchema = z.record(
  z.string(),
  z.object({
    usd: z.number().optional(),
    usd_market_cap: nullableNumber,
    usd_24h_vol: nullableNumber,
    usd_24h_change: nullableNumber,
    last_updated_at: nullableNumber,
  }),
);
export type TSimplePrice = z.infer<typeof ZSimplePriceSchema>;

export const ZCoinMarketSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  name: z.string(),
  image: z.string().nullable().optional(),
  current_price: nullableNumber,
  market_cap: nullableNumber,
  market_cap_rank: nullableNumber,
  total_volume: nullableNumber,
  high_24h: nullableNumber,
  low_24h: nullableNumber,
  price_change_percentage_24h: nullableNumber,
  circulating_supply: nullableNumber,
  total_supply: nullableNumber,
  last_updated: z.string().nullable().optional(),
});
export type TCoinMarket = z.infer<typeof ZCoinMarketSchema>;

export const ZTrendingSchema = z.object({
  coins: z.array(
    z.object({
      item: z.object({
        id: z.string(),
        name: z.string(),
        symbol: z.string(),
        market_cap_rank: nullableNumber,
        thumb: z.string().nullable().optional(),
        score: z.number(),
        data: z
          .object({
            price: z.union([z.number(), z.string()]).optional(),
            price_change_percentage_24h: z.record(z.string(), z.number()).optional(),
            market_cap: z.string().optional(),
            total_volume: z.string().optional(),
          })
          .optional(),
      }),
    }),
  ),
});
export type TTrending = z.infer<typeof ZTrendingSchema>;

export const ZMarketChartSchema = z.object({
  prices: z.array(z.tuple([z.number(), z.number()])),
  total_volumes: z.array(z.tuple([z.number(), z.number()])).optional(),
});
export type TMarketChart = z.infer<typeof ZMarketChartSchema>;

/** Cache lifetimes: CoinGecko's public plan allows ~30 calls a minute. */
const TTL = { prices: 15_000, markets: 30_000, trending: 120_000, chart: 60_000 };

export function createCoinGecko(client: ProviderClient) {
  return {
    simplePrice(ids: readonly string[]): Promise<TSimplePrice | undefined> {
      return client.get(
        '/simple/price',
        {
          ids: [...ids].sort().join(','),
          vs_currencies: 'usd',
          include_market_cap: 'true',
          include_24hr_vol: 'true',
          include_24hr_change: 'true',
          include_last_updated_at: 'true',
        },
        ZSimplePriceSchema,
        TTL.prices,
      );
    },

    async coinMarkets(ids: readonly string[]): Promise<TCoinMarket[]> {
      const markets = await client.get(
        '/coins/markets',
        {
          vs_currency: 'usd',
          ids: [...ids].sort().join(','),
          order: 'market_cap_desc',
          per_page: 250,
          page: 1,
          price_change_percentage: '24h',
        },
        z.array(ZCoinMarketSchema),
        TTL.markets,
      );
      return markets ?? [];
    },

    trending(): Promise<TTrending | undefined> {
      return client.get('/search/trending', undefined, ZTrendingSchema, TTL.trending);
    },

    marketChart(id: string, days: number): Promise<TMarketChart | undefined> {
      return client.get(
        `/coins/${encodeURIComponent(id)}/market_chart`,
        { vs_currency: 'usd', days },
        ZMarketChartSchema,
        TTL.chart,
      );
    },
  };
}

export type CoinGecko = ReturnType<typeof createCoinGecko>;
