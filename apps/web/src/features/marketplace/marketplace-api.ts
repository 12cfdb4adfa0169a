import type { TBot, TMarketplaceBotDetail, TMarketplacePage } from '@solterm/contracts';
import { api } from '../../lib/api-client';

export type MarketplaceRisk = 'All' | 'Low' | 'Medium' | 'High';

/** The bot marketplace (part 2 §7 GET /bots/marketplace; paths after /api). */
export const marketplaceApi = {
  list: (
    params: { query: string; risk: MarketplaceRisk; offset: number; limit: number },
    signal?: AbortSignal,
  ) => {
    const search = new URLSearchParams({
      query: params.query,
      risk: params.risk,
      limit: String(params.limit),
      offset: String(params.offset),
    });
    return api.get<TMarketplacePage>(`/bots/marketplace?${search.toString()}`, { signal });
  },
  detail: (id: string, signal?: AbortSignal) =>
    api.get<TMarketplaceBotDetail>(`/bots/marketplace/${encodeURIComponent(id)}`, { signal }),
  copy: (id: string) => api.post<TBot>(`/bots/marketplace/${encodeURIComponent(id)}/copy`, {}),
};
