import {
  EXPIRED_TRANSACTION_MAX_RETRIES,
  EXPIRED_TRANSACTION_RETRY_DELAY_MS,
  mapChainError,
  MAX_TRANSACTION_SIZE_BYTES,
  TRADE_MESSAGES,
  type TExecuteSignedTransactionResult,
  type TOrderRequest,
  type TPendingTransaction,
  type TRecordSpotOrderRequest,
  type TSpotOrder,
  type TTriggerOrderRequest,
  type TUnsignedTransaction,
} from '@solterm/contracts';
import { ApiError, isTransportError } from '../../lib/api-client';
import { followPendingTransaction, isPendingTransaction } from '../../lib/server-transaction';
import { isUserRejection, WalletError } from '../wallet';
import { tradingApi } from './trading-api';
import { decodeBase64, encodeBase64 } from './wire-transaction';

/*
 * The on-chain order sequence shared by the quick trade (dashboard) and the spot order form
 * (/trade), spec part 1 §4 "Quick trade" and §8 "Trade errors": build → sign → execute → record.
 */

/** Where an order is in its sequence (for a progress label on the submit button). */
export type OrderStage = 'building' | 'signing' | 'executing' | 'recording';

export interface SubmitOrderDeps {
  /** Signs a wire-format transaction with the connected wallet (useWallet().signTransaction). */
  signTransaction(wire: Uint8Array): Promise<Uint8Array>;
  /** Called as each stage starts. */
  onStage?(stage: OrderStage): void;
}

export interface SubmittedOrder {
  transactionHash: string;
  /** The recorded order; the execute answer's order when recording failed; null for neither. */
  order: TSpotOrder | null;
  /** The built transaction and its quote (price, venue fee, network fee). */
  unsigned: TUnsignedTransaction;
  /** Sent but its outcome not known yet (202): followed by its signature, never signed again. */
  pending?: boolean;
}

/** Error codes the client itself assigns (server codes pass through unchanged). */
export const TRADE_CLIENT_ERROR_CODES = {
  cancelled: 'WALLET__USER_REJECTED',
  walletNotConnected: 'WALLET__NOT_CONNECTED',
  tooLarge: 'TRADING__TRANSACTION_TOO_LARGE',
} as const;

const EXPIRED_CODE = 'TRADING__TRANSACTION_EXPIRED';
/** The maker no longer honours the signed quote (too old, or the price moved): retried like an expiry. */
const QUOTE_EXPIRED_CODE = 'TRADING__QUOTE_EXPIRED';

/** A failed order, carrying the spec's message to show. Branch on `isExpired` / `code`, never on the text. */
export class TradeError extends Error {
  override readonly name = 'TradeError';
  /**
   * The transaction expired before landing, or the maker no longer honours its quote: the quick
   * trade re-quotes and asks the wallet again automatically.
   */
  readonly isExpired: boolean;
  /** The server's error code, or one of {@link TRADE_CLIENT_ERROR_CODES}. */
  readonly code?: string;

  constructor(message: string, options: { code?: string; isExpired?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = options.code;
    this.isExpired =
      options.isExpired ?? (options.code === EXPIRED_CODE || options.code === QUOTE_EXPIRED_CODE);
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    return (error as { message: string }).message;
  }
  return typeof error === 'string' ? error : '';
}

/** A raw chain/RPC text mapped to the spec's message, or null when it is none of the known cases. */
function fromChainText(text: string, cause: unknown, code?: string): TradeError | null {
  const mapped = mapChainError(text);
  if (!mapped) return null;
  return new TradeError(mapped.message, {
    code: code ?? (mapped.kind === 'transaction_expired' ? EXPIRED_CODE : undefined),
    isExpired: mapped.kind === 'transaction_expired',
    cause,
  });
}

/**
 * Any failure of a stage as a TradeError: server answers keep their message (it is already the
 * spec's text, looked up from the code); code-less texts (raw chain errors) go through
 * mapChainError; anything else gets the stage's fallback ('Failed to get unsigned transaction', …).
 */
export function toTradeError(error: unknown, fallback: string): TradeError {
  if (error instanceof TradeError) return error;
  if (error instanceof ApiError) {
    if (error.code === EXPIRED_CODE) {
      return new TradeError(TRADE_MESSAGES.transactionExpired, { code: EXPIRED_CODE, cause: error });
    }
    if (isTransportError(error)) return new TradeError(error.message, { code: error.code, cause: error });
    if (!error.code) {
      const mapped = fromChainText(error.message, error);
      if (mapped) return mapped;
    }
    return new TradeError(error.message || fallback, { code: error.code, cause: error });
  }
  return fromChainText(messageOf(error), error) ?? new TradeError(fallback, { cause: error });
}

function toSigningError(error: unknown): TradeError {
  if (isUserRejection(error)) {
    return new TradeError(TRADE_MESSAGES.transactionCancelled, {
      code: TRADE_CLIENT_ERROR_CODES.cancelled,
      cause: error,
    });
  }
  if (error instanceof WalletError && error.code === 'NOT_CONNECTED') {
    return new TradeError(TRADE_MESSAGES.noWalletConnected, {
      code: TRADE_CLIENT_ERROR_CODES.walletNotConnected,
      cause: error,
    });
  }
  return toTradeError(error, TRADE_MESSAGES.placeOrderFailed);
}

function recordRequest(
  order: TOrderRequest,
  executed: TExecuteSignedTransactionResult,
  unsigned: TUnsignedTransaction,
): TRecordSpotOrderRequest {
  const filled = executed.order;
  const averageFillPrice = filled?.average_fill_price ?? unsigned.quote?.price ?? order.price;
  return {
    tx_hash: executed.transaction_hash,
    symbol: order.symbol,
    order_type: order.order_type ?? 'Market',
    side: order.side,
    quantity: order.quantity,
    price: order.price ?? averageFillPrice,
    status: filled?.status ?? 'Filled',
    filled_quantity: filled?.filled_quantity ?? order.quantity,
    average_fill_price: averageFillPrice,
  };
}

/**
 * get-unsigned-transaction → size check → wallet signs → execute-signed-transaction (a fresh
 * Idempotency-Key per signed transaction, so the API client's own retries are safe) → record the
 * spot order (a failure there is only logged: the trade already landed).
 *
 * Throws a {@link TradeError} with the spec's message: a wallet rejection is 'Transaction cancelled
 * by user'; server errors keep the server's message; raw chain errors are mapped with
 * mapChainError; an expired transaction has `isExpired` (see {@link submitOrderWithExpiryRetries}).
 *
 * @example
 * const { transactionHash } = await submitOrder(
 *   { symbol: 'SOL/USDC', order_type: 'Market', side: 'Buy', quantity: 0.5, price: 150 },
 *   { signTransaction: wallet.signTransaction, onStage: setStage },
 * );
 */
export async function submitOrder(order: TOrderRequest, deps: SubmitOrderDeps): Promise<SubmittedOrder> {
  const sent = await buildSignExecute(() => tradingApi.getUnsignedTransaction(order), deps);
  if (sent.pending) return sent.pending;
  const { executed, unsigned } = sent;

  deps.onStage?.('recording');
  let recorded: TSpotOrder | null = executed.order;
  try {
    recorded = await tradingApi.recordSpotOrder(recordRequest(order, executed, unsigned));
  } catch (error) {
    console.warn('Trade landed but recording the order failed', error);
  }

  return { transactionHash: executed.transaction_hash, order: recorded, unsigned };
}

/**
 * A take-profit, stop-loss or trailing-stop order, the limit order's way: POST /trading/spot/order
 * answers the escrow transaction, the wallet signs it and execute-signed-transaction lands it. The
 * execute answer already holds the Pending order (nothing to record); `order` falls back to the
 * built transaction's `order_id` so an OCO partner can name it.
 */
export async function submitTriggerOrder(
  order: TTriggerOrderRequest,
  deps: SubmitOrderDeps,
): Promise<SubmittedOrder> {
  const sent = await buildSignExecute(() => tradingApi.placeTriggerOrder(order), deps);
  if (sent.pending) return sent.pending;
  return {
    transactionHash: sent.executed.transaction_hash,
    order: sent.executed.order,
    unsigned: sent.unsigned,
  };
}

type SentTransaction =
  | { pending: SubmittedOrder; executed?: never; unsigned?: never }
  | { pending?: never; executed: TExecuteSignedTransactionResult; unsigned: TUnsignedTransaction };

/** build → size check → wallet signs → execute (a fresh Idempotency-Key per signed transaction). */
async function buildSignExecute(
  build: () => Promise<TUnsignedTransaction>,
  deps: SubmitOrderDeps,
): Promise<SentTransaction> {
  deps.onStage?.('building');
  let unsigned: TUnsignedTransaction;
  try {
    unsigned = await build();
  } catch (error) {
    throw toTradeError(error, TRADE_MESSAGES.unsignedTransactionFailed);
  }

  let wire: Uint8Array;
  try {
    wire = decodeBase64(unsigned.unsigned_transaction);
  } catch (error) {
    throw new TradeError(TRADE_MESSAGES.unsignedTransactionFailed, { cause: error });
  }
  if (wire.length > MAX_TRANSACTION_SIZE_BYTES) {
    throw new TradeError(TRADE_MESSAGES.transactionTooLarge, { code: TRADE_CLIENT_ERROR_CODES.tooLarge });
  }

  deps.onStage?.('signing');
  let signed: Uint8Array;
  try {
    signed = await deps.signTransaction(wire);
  } catch (error) {
    throw toSigningError(error);
  }

  deps.onStage?.('executing');
  let executed: TExecuteSignedTransactionResult | TPendingTransaction;
  try {
    executed = await tradingApi.executeSignedTransaction(encodeBase64(signed), crypto.randomUUID());
  } catch (error) {
    throw toTradeError(error, TRADE_MESSAGES.executeTransactionFailed);
  }

  // Sent, outcome unknown (202): the server settles it from the chain; the user follows it by its
  // signature instead of signing again (which could trade twice).
  if (isPendingTransaction(executed)) {
    followPendingTransaction(executed, 'Order');
    return { pending: { transactionHash: executed.signature, order: null, unsigned, pending: true } };
  }
  return { executed, unsigned };
}

export interface ExpiryRetryOptions {
  /** Waits between retries (tests pass a fake). Default: a real timer. */
  sleep?(ms: number): Promise<void>;
  /** Called before each automatic retry, 1-based (e.g. to show "retrying"). */
  onRetry?(retry: number, error: TradeError): void;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The quick-trade retry rule (part 1 §4, §9): an expired transaction (or a quote the maker no longer
 * honours) is rebuilt and re-signed up to 2 times, 1 s apart, a new transaction each time; any other
 * error ends the attempt at once (so
 * the next submit starts with the full 2 retries again).
 */
export async function submitOrderWithExpiryRetries(
  order: TOrderRequest,
  deps: SubmitOrderDeps,
  opts: ExpiryRetryOptions = {},
): Promise<SubmittedOrder> {
  const sleep = opts.sleep ?? realSleep;
  for (let retry = 0; ; retry += 1) {
    try {
      return await submitOrder(order, deps);
    } catch (error) {
      const tradeError = toTradeError(error, TRADE_MESSAGES.placeOrderFailed);
      if (!tradeError.isExpired || retry >= EXPIRED_TRANSACTION_MAX_RETRIES) throw tradeError;
      opts.onRetry?.(retry + 1, tradeError);
      await sleep(EXPIRED_TRANSACTION_RETRY_DELAY_MS);
    }
  }
}
