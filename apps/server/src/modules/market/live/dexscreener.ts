import { z } from 'zod';
import type { ProviderClient } from '../../../lib/provider-client';

// The fields of DexScreener's public API we read (https://docs.dexscreener.com/api/reference).

const ZPairTokenSchema = z.object({
  address: z.string(),
  name: z.string().default(''),
  symbol: z.string().default(''),
});

export const ZDexPairSchema = z.object({
  chainId: z.string(),
  dexId: z.string(),
  url: z.string().optional(),
  pairAddress: z.string(),
  labels: z.array(z.string()).optional(),
  baseToken: ZPairTokenSchema,
  quoteToken: ZPairTokenSchema,
  priceNative: z.string().optional(),
  priceUsd: z.string().optional(),
  volume: z.record(z.string(), z.number()).optional(),
  priceChange: z.record(z.string(), z.number()).optional(),
  liquidity: z
    .object({ usd: z.number().optional(), base: z.number().optional(), quote: z.number().optional() })
    .optional(),
  fdv: z.number().optional(),
  marketCap: z.number().optional(),
  pairCreatedAt: z.number().optional(),
  info: z.object({ imageUrl: z.string().optional() }).optional(),
});
export type TDexPair = z.infer<typeof ZDexPairSchema>;

export const ZDexSearchSchema = z.object({ pairs: z.array(ZDexPairSchema).nullable() });

export const ZTokenBoostSchema = z.object({
  chainId: z.string(),
  tokenAddress: z.string(),
  icon: z.string().optional(),
  amount: z.number().optional(),
  totalAmount: z.number().optional(),
});
export type TTokenBoost = z.infer<typeof ZTokenBoostSchema>;

/** DexScreener allows ~300 pair requests and 60 boost requests a minute. */
const TTL = { search: 30_000, pairs: 30_000, boosts: 120_000 };

export function createDexScreener(client: ProviderClient) {
  return {
    async search(query: string): Promise<TDexPair[]> {
      const result = await client.get('/latest/dex/search', { q: query }, ZDexSearchSchema, TTL.search);
      return result?.pairs ?? [];
    },

    /** Pools of a token on a chain. */
    async tokenPairs(chainId: string, tokenAddress: string): Promise<TDexPair[]> {
      const result = await client.get(
        `/token-pairs/v1/${encodeURIComponent(chainId)}/${encodeURIComponent(tokenAddress)}`,
        undefined,
        z.array(ZDexPairSchema),
        TTL.pairs,
      );
      return result ?? [];
    },

    /** The best pools of up to 30 tokens on a chain. */
    async tokens(chainId: string, tokenAddresses: readonly string[]): Promise<TDexPair[]> {
      if (tokenAddresses.length === 0) return [];
      const result = await client.get(
        `/tokens/v1/${encodeURIComponent(chainId)}/${tokenAddresses.slice(0, 30).map(encodeURIComponent).join(',')}`,
        undefined,
        z.array(ZDexPairSchema),
        TTL.pairs,
      );
      return result ?? [];
    },

    /** One pool by its address. */
    async pair(chainId: string, pairAddress: string): Promise<TDexPair[]> {
      const result = await client.get(
        `/latest/dex/pairs/${encodeURIComponent(chainId)}/${encodeURIComponent(pairAddress)}`,
        undefined,
        ZDexSearchSchema,
        TTL.pairs,
      );
      return result?.pairs ?? [];
    },

    /** Tokens with the most active boosts (DexScreener's promoted, trending shelf). */
    async topBoosts(): Promise<TTokenBoost[]> {
      const result = await client.get(
        '/token-boosts/top/v1',
        undefined,
        z.array(ZTokenBoostSchema),
        TTL.boosts,
      );
      return result ?? [];
    },
  };
}

export type DexScreener = ReturnType<typeof createDexScreener>;
