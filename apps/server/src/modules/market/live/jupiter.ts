import { z } from 'zod';
import type { ProviderClient } from '../../../lib/provider-client';

// The fields of Jupiter's Price API v3 and Tokens API v2 we read (https://dev.jup.ag/docs).

const nullableNumber = z.number().nullable().optional();

export const ZJupiterPriceSchema = z.record(
  z.string(),
  z
    .object({
      usdPrice: z.number(),
      priceChange24h: nullableNumber,
      decimals: z.number().optional(),
      liquidity: nullableNumber,
      blockId: nullableNumber,
    })
    .nullable(),
);
export type TJupiterPrices = z.infer<typeof ZJupiterPriceSchema>;

export const ZJupiterTokenSchema = z.object({
  id: z.string(),
  name: z.string().default(''),
  symbol: z.string().default(''),
  decimals: z.number(),
  icon: z.string().nullable().optional(),
  usdPrice: nullableNumber,
  mcap: nullableNumber,
  fdv: nullableNumber,
  liquidity: nullableNumber,
  holderCount: nullableNumber,
  stats24h: z
    .object({ priceChange: nullableNumber, buyVolume: nullableNumber, sellVolume: nullableNumber })
    .nullable()
    .optional(),
});
export type TJupiterToken = z.infer<typeof ZJupiterTokenSchema>;

const TTL = { price: 5_000, search: 30_000 };

/** Jupiter's price and token APIs; each has its own base URL (JUPITER_PRICE_API_URL, JUPITER_TOKENS_API_URL). */
export function createJupiter(prices: ProviderClient, tokens: ProviderClient) {
  return {
    /** USD prices of up to 50 mints; absent or null for unknown mints. */
    async prices(mints: readonly string[]): Promise<TJupiterPrices> {
      if (mints.length === 0) return {};
      return (
        (await prices.get(
          '',
          { ids: [...mints].sort().slice(0, 50).join(',') },
          ZJupiterPriceSchema,
          TTL.price,
        )) ?? {}
      );
    },

    /** Tokens matching a symbol, name or mint. */
    async searchTokens(query: string): Promise<TJupiterToken[]> {
      return (await tokens.get('/search', { query }, z.array(ZJupiterTokenSchema), TTL.search)) ?? [];
    },
  };
}

export type Jupiter = ReturnType<typeof createJupiter>;
