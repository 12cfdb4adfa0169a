import type {
  TChartFills,
  TExecuteSignedTransactionResult,
  TFundWalletWithUsdcRequest,
  TFundWalletWithUsdcResult,
  TOrderBook,
  TOrderRequest,
  TPendingTransaction,
  TPortfolio,
  TUnwrapTransaction,
  TPosition,
  TRecordSpotOrderRequest,
  TSpotOrder,
  TSuggestion,
  TTradable,
  TTrade,
  TTradesHistory,
  TTriggerOrderRequest,
  TUnsignedTransaction,
  TWalletStatus,
} from '@solterm/contracts';
import { api } from '../../lib/api-client';
import { newIdempotencyKey } from '../../lib/server-transaction';

/** A path segment; pairs keep their slash encoded (`SOL%2FUSDC`), as the routes expect. */
const segment = (text: string) => encodeURIComponent(text.trim());

/** Spot trading calls (part 1 §7, part 2 §7; paths after /api). */
export const tradingApi = {
  /** POST /trading/suggestion: suggested side and SOL/USDC (and pair) balances read from the chain. */
  suggestion: (symbol: string) => api.post<TSuggestion>('/trading/suggestion', { symbol }),

  /** POST /trading/get-unsigned-transaction: the order as a v0 transaction for the wallet to sign. */
  getUnsignedTransaction: (order: TOrderRequest) =>
    api.post<TUnsignedTransaction>('/trading/get-unsigned-transaction', order),

  /**
   * POST /trading/execute-signed-transaction: verify, simulate, send, confirm. The same
   * Idempotency-Key with the same body answers the first result (safe to retry). A send whose
   * outcome the node left open answers 202 pending with the signature.
   */
  executeSignedTransaction: (signedTransaction: string, idempotencyKey: string) =>
    api.post<TExecuteSignedTransactionResult | TPendingTransaction>(
      '/trading/execute-signed-transaction',
      { signed_transaction: signedTransaction },
      { headers: { 'Idempotency-Key': idempotencyKey } },
    ),

  /**
   * POST /trading/spot/order with a trigger order type (take_profit, stop_loss, trailing_stop): the
   * escrow transaction for the wallet to sign, then executed like any other (the order is Pending).
   */
  placeTriggerOrder: (order: TTriggerOrderRequest) =>
    api.post<TUnsignedTransaction>('/trading/spot/order', order),

  /** POST /trading/spot/order: records the filled order (idempotent on tx_hash). */
  recordSpotOrder: (order: TRecordSpotOrderRequest) => api.post<TSpotOrder>('/trading/spot/order', order),

  /** GET /trading/orders: the user's orders, newest first. */
  getOrders: (signal?: AbortSignal) => api.get<TSpotOrder[]>('/trading/orders', { signal }),

  /** POST /trading/orders/{id}/cancel: cancels a pending limit order; the venue refunds the escrow. */
  cancelOrder: (id: string) => api.post<TSpotOrder>(`/trading/orders/${segment(id)}/cancel`),

  /** GET /trading/positions: positions derived from fills, marked to market. */
  getPositions: (signal?: AbortSignal) => api.get<TPosition[]>('/trading/positions', { signal }),

  /** GET /trading/trades?limit: the user's fills, newest first. */
  getTrades: (limit: number, signal?: AbortSignal) =>
    api.get<TTrade[]>(`/trading/trades?limit=${limit}`, { signal }),

  /** GET /trading/trades/history?limit&offset: one page of fills with the total. */
  getTradeHistory: (limit: number, offset: number, signal?: AbortSignal) =>
    api.get<TTradesHistory>(`/trading/trades/history?limit=${limit}&offset=${offset}`, { signal }),

  /** GET /trading/fills?pair&from&to: the user's spot, bot and futures fills on a pair in a window. */
  getChartFills: (query: { pair: string; from: number; to: number }, signal?: AbortSignal) =>
    api.get<TChartFills>(
      `/trading/fills?pair=${encodeURIComponent(query.pair)}&from=${query.from}&to=${query.to}`,
      { signal },
    ),

  /** GET /trading/tradable?pairs=A/B,C/D: whether each pair can be traded here, and why not. */
  getTradable: (pairs: readonly string[], signal?: AbortSignal) =>
    api.get<TTradable>(`/trading/tradable?pairs=${encodeURIComponent(pairs.join(','))}`, { signal }),

  /** GET /trading/orderbook/{symbol}: the market maker's ladder. */
  getOrderBook: (symbol: string, signal?: AbortSignal) =>
    api.get<TOrderBook>(`/trading/orderbook/${segment(symbol)}`, { signal }),
};

/** Wallet and chain calls (part 2 §7; balances are read from the chain). */
export const walletApi = {
  getPortfolio: (signal?: AbortSignal) => api.get<TPortfolio>('/wallet/portfolio', { signal }),
  /** POST /wallet/unwrap-sol: the closeAccount of the wallet's wrapped-SOL account, for it to sign. */
  unwrapSol: () => api.post<TUnwrapTransaction>('/wallet/unwrap-sol', {}),
  getStatus: (signal?: AbortSignal) => api.get<TWalletStatus>('/wallet/status', { signal }),
  /** POST /wallet/fund: the local cluster's faucet (SOL and USDC); refused on mainnet. */
  fund: (request: TFundWalletWithUsdcRequest = {}) =>
    api.post<TFundWalletWithUsdcResult | TPendingTransaction>('/wallet/fund', request, newIdempotencyKey()),
};
