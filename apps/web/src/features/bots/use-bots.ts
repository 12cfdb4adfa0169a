import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZBotStatusChangeSchema,
  ZBotTimingUpdateSchema,
  type TBot,
  type TBotCreateRequest,
  type TBotUpdateRequest,
} from '@solterm/contracts';
import { queryKeys } from '../../lib/query-keys';
import { notify } from '../../lib/toast';
import { useRealtimeEvent } from '../../lib/ws-client';
import { applyStatusChange, applyTimingUpdate } from './bot-live-model';
import { botFundsApi, botsApi } from './bots-api';

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

/** Starts a bot in paper mode ('test') or on chain ('mainnet'). */
export function useStartBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, mode }: { id: string; mode: 'test' | 'mainnet' }) =>
      mode === 'mainnet' ? botsApi.startOnChain(id) : botsApi.start(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bots.list }),
  });
}

/** What the user's bot key holds, and the allowance left (GET /bot/balance). */
export function useBotBalance(enabled = true) {
  return useQuery({
    queryKey: queryKeys.bots.balance,
    queryFn: ({ signal }) => botFundsApi.balance(signal),
    enabled,
  });
}

export function useDelegations() {
  return useQuery({
    queryKey: queryKeys.bots.delegations,
    queryFn: ({ signal }) => botFundsApi.delegations(signal),
  });
}

export function useWithdrawFromBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ amount, tokenMint }: { amount: number; tokenMint?: string }) =>
      botFundsApi.withdraw(amount, tokenMint),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bots.balance }),
  });
}

/** Edits a stopped bot (PATCH /bots/{id}); the server checks its code and pair as at create. */
export function useUpdateBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: TBotUpdateRequest }) => botsApi.update(id, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bots.list }),
  });
}

/** Publishes a bot to the marketplace or takes it back (PATCH /bots/{id}). */
export function usePublishBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isPublic }: { id: string; isPublic: boolean }) => botsApi.setPublic(id, isPublic),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bots.list }),
  });
}

export function useStopBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => botsApi.stop(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bots.list }),
  });
}

/**
 * Applies the server's bot_status_change and bot_timing_update pushes to the bot list (part 2 §4)
 * and toasts a status change's message (error style when the bot failed).
 */
export function useBotRealtime() {
  const queryClient = useQueryClient();
  useRealtimeEvent('bot_status_change', (message) => {
    const parsed = ZBotStatusChangeSchema.safeParse((message as { data?: unknown }).data);
    if (!parsed.success) return;
    queryClient.setQueryData<TBot[]>(
      queryKeys.bots.list,
      (bots) => bots && applyStatusChange(bots, parsed.data),
    );
    if (parsed.data.status === 'failed') notify.error(parsed.data.message);
    else notify.success(parsed.data.message);
    void queryClient.invalidateQueries({ queryKey: queryKeys.bots.list });
  });
  useRealtimeEvent('bot_timing_update', (message) => {
    const parsed = ZBotTimingUpdateSchema.safeParse((message as { data?: unknown }).data);
    if (!parsed.success) return;
    queryClient.setQueryData<TBot[]>(
      queryKeys.bots.list,
      (bots) => bots && applyTimingUpdate(bots, parsed.data),
    );
  });
}
