import type {
  TBotBalance,
  TBotDetail,
  TBotWithdrawResult,
  TDelegation,
  TProductionStatus,
  TBacktestProgress,
  TBacktestRequestInput,
  TBacktestResult,
  TBot,
  TBotCreateRequest,
  TBotTestRequest,
  TBotUpdateRequest,
  TPendingTransaction,
  TOptimization,
  TOptimizeRequest,
} from '@solterm/contracts';
import { api, createApiClient } from '../../lib/api-client';
import { newIdempotencyKey } from '../../lib/server-transaction';

/** A built-in strategy as GET /bots/strategies lists it. */
export interface StrategyInfo {
  type: string;
  category: string;
  title: string;
  description: string;
  parameters: { name: string; label: string; default: number; min: number; max: number; integer: boolean }[];
}

/**
 * A backtest waits in the queue and then runs until the server's own limits end it (its CPU-time limit,
 * a wall-clock backstop, and time to prepare the candles: minutes for a year of 1-minute candles on a
 * busy machine), showing its place and progress meanwhile; the shared 60 s time-out would give up on a
 * run the server is still computing. One attempt: a retry would queue a second run.
 */
const BACKTEST_REQUEST_TIMEOUT_MS = 10 * 60_000;
const backtestClient = createApiClient({ timeoutMs: BACKTEST_REQUEST_TIMEOUT_MS, retryDelaysMs: [] });

/** Bots and backtests (part 2 §7 "Bots"; paths after /api). */
export const botsApi = {
  list: (signal?: AbortSignal) => api.get<TBot[]>('/bots', { signal }),
  strategies: (signal?: AbortSignal) => api.get<StrategyInfo[]>('/bots/strategies', { signal }),
  create: (bot: TBotCreateRequest) => api.post<TBot>('/bots', bot),
  /** POST /bots/{id}/start: paper mode (a virtual balance at live prices). */
  start: (id: string) => api.post<TBot>(`/bots/${encodeURIComponent(id)}/start`, {}),
  stop: (id: string) => api.post<TBot>(`/bots/${encodeURIComponent(id)}/stop`, {}),
  setPublic: (id: string, isPublic: boolean) =>
    api.patch<TBot>(`/bots/${encodeURIComponent(id)}`, { is_public: isPublic }),
  /** PATCH /bots/{id}: a stopped bot's name, description, strategy and config (checked as at create). */
  update: (id: string, changes: TBotUpdateRequest) =>
    api.patch<TBot>(`/bots/${encodeURIComponent(id)}`, changes),
  /** POST /bots/production/{id}/start: on chain with the approved SOL ('… delegation approval …' until then). */
  startOnChain: (id: string) => api.post<TBot>(`/bots/production/${encodeURIComponent(id)}/start`, {}),
  /** GET /bots/{id}/detail: runs, a run's fills (paged), position, equity and errors. */
  detail: (
    id: string,
    page: { runId: string | null; offset: number; limit: number },
    signal?: AbortSignal,
  ) => {
    const query = new URLSearchParams({ limit: String(page.limit), offset: String(page.offset) });
    if (page.runId) query.set('run_id', page.runId);
    return api.get<TBotDetail>(`/bots/${encodeURIComponent(id)}/detail?${query.toString()}`, { signal });
  },
  productionStatus: (id: string, signal?: AbortSignal) =>
    api.get<TProductionStatus>(`/bots/production/${encodeURIComponent(id)}/status`, { signal }),
  remove: (id: string) => api.delete<{ bot_id: string; deleted: true }>(`/bots/${encodeURIComponent(id)}`),
  /** POST /bots/test: "Run and Test Bot" on the unsaved form (30 days from 1,000 by default). */
  test: (request: TBotTestRequest, signal?: AbortSignal) =>
    api.post<TBacktestResult>('/bots/test', request, { signal }),
  /** Stops a Run and Test started with `test_id` on the server (its sandbox or thread is ended). */
  cancelTest: (testId: string) =>
    api.post<{ test_id: string; cancelled: boolean }>(`/bots/test/${encodeURIComponent(testId)}/cancel`, {}),
  backtest: (request: TBacktestRequestInput) =>
    backtestClient.post<TBacktestResult>('/bots/backtest', request),
  /** The caller's backtests waiting or running: the latest of each one's backtest_progress pushes. */
  backtestStatus: (signal?: AbortSignal) => api.get<TBacktestProgress[]>('/bots/backtest/status', { signal }),
  /** POST /bots/optimize: answered at once; progress comes as optimization_progress pushes. */
  optimize: (request: TOptimizeRequest) => api.post<{ optimization_id: string }>('/bots/optimize', request),
  optimization: (id: string, signal?: AbortSignal) =>
    api.get<TOptimization>(`/bots/optimize/${encodeURIComponent(id)}`, { signal }),
  cancelOptimization: (id: string) =>
    api.post<{ optimization_id: string; cancelled: boolean }>(
      `/bots/optimize/${encodeURIComponent(id)}/cancel`,
      {},
    ),
};

/** The user's bot key, its funds and delegations (part 2 §7 "Bot funds and delegation"). */
export const botFundsApi = {
  publicKey: () => api.get<{ bot_public_key: string }>('/bot/public-key'),
  balance: (signal?: AbortSignal) => api.get<TBotBalance>('/bot/balance', { signal }),
  /** SOL, or with `tokenMint` a token the bot holds, back to the connected wallet. */
  withdraw: (amount: number, tokenMint?: string) =>
    api.post<TBotWithdrawResult | TPendingTransaction>(
      '/bot/withdraw',
      tokenMint ? { amount, token_mint: tokenMint } : { amount },
      newIdempotencyKey(),
    ),
  createDelegation: (amount: number) => api.post<TDelegation>('/delegation/create', { amount }),
  submitDelegation: (delegationId: string, signedTransaction: string) =>
    api.post<TDelegation & { transaction_hash: string }>('/delegation/submit', {
      delegation_id: delegationId,
      signed_transaction: signedTransaction,
    }),
  delegations: (signal?: AbortSignal) => api.get<TDelegation[]>('/delegation/list', { signal }),
  /** The SPL revoke; with `unwrap` also the closeAccount that turns the unused wrapped SOL back into SOL. */
  revoke: (delegationId: string, unwrap = false) =>
    api.delete<TDelegation>(
      `/delegation/revoke/${encodeURIComponent(delegationId)}${unwrap ? '?unwrap=true' : ''}`,
    ),
};
