import type {
  TFuturesAccount,
  TFuturesDeposit,
  TFuturesFunding,
  TFuturesLeverageResult,
  TFuturesMarket,
  TFuturesOrder,
  TFuturesOrderRequest,
  TFuturesPair,
  TFuturesPosition,
  TFuturesTpslRequest,
  TFuturesTrade,
  TPendingTransaction,
} from '@solterm/contracts';
import { api } from '../../lib/api-client';
import { newIdempotencyKey } from '../../lib/server-transaction';

const path = (symbol: string) => encodeURIComponent(symbol);

/** Perpetual futures (part 2 §7 Futures; paths after /api). */
export const futuresApi = {
  pairs: (signal?: AbortSignal) => api.get<TFuturesPair[]>('/futures/pairs', { signal }),
  market: (symbol: string, signal?: AbortSignal) =>
    api.get<TFuturesMarket>(`/futures/market/${path(symbol)}`, { signal }),
  funding: (symbol: string, signal?: AbortSignal) =>
    api.get<TFuturesFunding>(`/futures/funding/${path(symbol)}`, { signal }),
  account: (signal?: AbortSignal) => api.get<TFuturesAccount>('/futures/account', { signal }),
  orders: (signal?: AbortSignal) => api.get<TFuturesOrder[]>('/futures/orders?limit=50', { signal }),
  positions: (signal?: AbortSignal) => api.get<TFuturesPosition[]>('/futures/positions', { signal }),
  trades: (signal?: AbortSignal) => api.get<TFuturesTrade[]>('/futures/trades?limit=50', { signal }),
  initialize: (amount: string) =>
    api.post<TFuturesDeposit>('/futures/account/initialize', { amount, token: 'USDC' }),
  deposit: (amount: string) =>
    api.post<TFuturesDeposit>('/futures/collateral/deposit', { amount, token: 'USDC' }),
  withdraw: (amount: string) =>
    api.post<{ withdraw_id: string; amount: string; signature: string } | TPendingTransaction>(
      '/futures/collateral/withdraw',
      { amount, token: 'USDC' },
      newIdempotencyKey(),
    ),
  order: (
    request: Omit<TFuturesOrderRequest, 'reduce_only' | 'post_only' | 'ioc'> & Partial<TFuturesOrderRequest>,
  ) => api.post<{ order: TFuturesOrder; fills: TFuturesTrade[] }>('/futures/order', request),
  setLeverage: (symbol: string, leverage: number) =>
    api.post<TFuturesLeverageResult>('/futures/leverage', { symbol, leverage }),
  cancel: (id: string) => api.post<TFuturesOrder>(`/futures/orders/${encodeURIComponent(id)}/cancel`, {}),
  /** A position's take profit and stop loss: a price sets a leg, null removes it. */
  tpsl: (request: TFuturesTpslRequest) => api.post<TFuturesPosition>('/futures/position/tpsl', request),
  close: (positionId: string) =>
    api.post<{ position_id: string; realized_pnl: string }>('/futures/position/close', {
      position_id: positionId,
    }),
};
