import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BOT_DETAIL_DEFAULT_FILLS,
  type TBot,
  type TBotCreateRequest,
  type TBotUpdateRequest,
} from '@solterm/contracts';
import { queryKeys } from '../../lib/query-keys';
import { notify } from '../../lib/toast';
import { useRealtimeEvent } from '../../lib/ws-client';
import { pushMovesFunds } from './bot-funds-model';
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
  /**
   * What a push about `botId` makes stale besides the list: its detail view, and (an on-chain
   * bot's) the bot key's balance and allowance, which its swaps just moved.
   */
  const refreshAfterPush = (botId: string, delegations = false) => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.bots.detail(botId) });
    if (!pushMovesFunds(queryClient.getQueryData<TBot[]>(queryKeys.bots.list), botId)) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.bots.balance });
    if (delegations) void queryClient.invalidateQueries({ queryKey: queryKeys.bots.delegations });
  };
  useRealtimeEvent('bot_status_change', ({ data }) => {
    queryClient.setQueryData<TBot[]>(queryKeys.bots.list, (bots) => bots && applyStatusChange(bots, data));
    if (data.status === 'failed') notify.error(data.message);
    else notify.success(data.message);
    refreshAfterPush(data.bot_id, true);
    void queryClient.invalidateQueries({ queryKey: queryKeys.bots.list });
  });
  useRealtimeEvent('bot_timing_update', ({ data }) => {
    queryClient.setQueryData<TBot[]>(queryKeys.bots.list, (bots) => bots && applyTimingUpdate(bots, data));
    refreshAfterPush(data.bot_id);
  });
}

/** The owner's view of one bot (GET /bots/{id}/detail): a run's page of fills, newest first. */
export function useBotDetail(botId: string | null, runId: string | null, offset: number) {
  return useQuery({
    queryKey: queryKeys.bots.detailPage(botId ?? '', runId, offset),
    queryFn: ({ signal }) =>
      botsApi.detail(botId!, { runId, offset, limit: BOT_DETAIL_DEFAULT_FILLS }, signal),
    enabled: botId !== null,
    placeholderData: keepPreviousData,
    // The unrealized PnL is at the live price: re-read now and then while the bot runs.
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 15_000 : false),
  });
}
