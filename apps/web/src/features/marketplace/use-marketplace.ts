import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../lib/query-keys';
import { marketplaceApi, type MarketplaceRisk } from './marketplace-api';

/** Bots a marketplace page shows. */
export const MARKETPLACE_PAGE_SIZE = 20;

/** One page of public bots matching the search and risk (the previous page stays while loading). */
export function useMarketplace(query: string, risk: MarketplaceRisk, page: number) {
  return useQuery({
    queryKey: queryKeys.marketplace.list(query, risk, page),
    queryFn: ({ signal }) =>
      marketplaceApi.list(
        { query, risk, offset: page * MARKETPLACE_PAGE_SIZE, limit: MARKETPLACE_PAGE_SIZE },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

/** A public bot's track record and drift score (its backtest takes a moment: cached a minute). */
export function useMarketplaceBot(id: string | null) {
  return useQuery({
    queryKey: queryKeys.marketplace.detail(id ?? ''),
    queryFn: ({ signal }) => marketplaceApi.detail(id!, signal),
    enabled: id !== null,
    staleTime: 60_000,
  });
}

export function useCopyBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => marketplaceApi.copy(id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.bots.list }),
        queryClient.invalidateQueries({ queryKey: queryKeys.marketplace.all }),
      ]),
  });
}
