import type {
  TBacktestRequest,
  TBacktestResult,
  TBot,
  TBotCreateRequest,
  TBotTestRequest,
} from '@solterm/contracts';
import { api } from '../../lib/api-client';

/** A built-in strategy as GET /bots/strategies lists it. */
export interface StrategyInfo {
  type: string;
  category: string;
  title: string;
  description: string;
  parameters: { name: string; label: string; default: number; min: number; max: number; integer: boolean }[];
}

/** Bots and backtests (part 2 §7 "Bots"; paths after /api). */
export const botsApi = {
  list: (signal?: AbortSignal) => api.get<TBot[]>('/bots', { signal }),
  strategies: (signal?: AbortSignal) => api.get<StrategyInfo[]>('/bots/strategies', { signal }),
  create: (bot: TBotCreateRequest) => api.post<TBot>('/bots', bot),
  /** POST /bots/{id}/start: paper mode (a virtual balance at live prices). */
  start: (id: string) => api.post<TBot>(`/bots/${encodeURIComponent(id)}/start`, {}),
  stop: (id: string) => api.post<TBot>(`/bots/${encodeURIComponent(id)}/stop`, {}),
  remove: (id: string) => api.delete<{ bot_id: string; deleted: true }>(`/bots/${encodeURIComponent(id)}`),
  /** POST /bots/test: "Run and Test Bot" on the unsaved form (30 days from 1,000 by default). */
  test: (request: TBotTestRequest) => api.post<TBacktestResult>('/bots/test', request),
  backtest: (request: TBacktestRequest) => api.post<TBacktestResult>('/bots/backtest', request),
};
