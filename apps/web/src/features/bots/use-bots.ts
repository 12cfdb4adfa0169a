import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TBotCreateRequest } from '@solterm/contracts';
import { queryKeys } from '../../lib/query-keys';
import { botsApi } from './bots-api';

/** The user's bots (GET /bots), newest first. */
export function useBots() {
  return useQuery({ queryKey: queryKeys.bots.list, queryFn: ({ signal }) => botsApi.list(signal) });
}

/** The built-in strategies and their parameters (they change only with a release). */
export function useStrategies() {
  return useQuery({
    queryKey: queryKeys.bots.strategies,
    queryFn: ({ signal }) => botsApi.strategies(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useCreateBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bot: TBotCreateRequest) => botsApi.create(bot),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bots.list }),
  });
}

export function useDeleteBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => botsApi.remove(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bots.list }),
  });
}
