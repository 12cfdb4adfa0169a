import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_TRANSACTION_SIZE_BYTES,
  PENDING_TRANSACTION_MESSAGE,
  TRADE_MESSAGES,
  type TExecuteSignedTransactionResult,
  type TOrderRequest,
  type TSpotOrder,
  type TUnsignedTransaction,
} from '@solterm/contracts';
import { ApiError } from '../../lib/api-client';
import { notify } from '../../lib/toast';
import { WalletError } from '../wallet/wallet-errors';
import { tradingApi } from './trading-api';
import { submitOrder, submitOrderWithExpiryRetries, TradeError, type OrderStage } from './submit-order';
import { decodeBase64, encodeBase64 } from './wire-transaction';

vi.mock('./trading-api', () => ({
  tradingApi: {
    getUnsignedTransaction: vi.fn(),
    executeSignedTransaction: vi.fn(),
    recordSpotOrder: vi.fn(),
  },
}));

const api = vi.mocked(tradingApi);

const ORDER: TOrderRequest = {
  symbol: 'SOL/USDC',
  order_type: 'Market',
  side: 'Buy',
  quantity: 0.5,
  price: 150,
};
const TX_HASH = '5'.repeat(88);
const UNSIGNED_BYTES = new Uint8Array([1, 0, 0, 7, 7, 7]);

function unsigned(bytes: Uint8Array = UNSIGNED_BYTES): TUnsignedTransaction {
  return {
    unsigned_transaction: encodeBase64(bytes),
    order_id: null,
    quote: null,
    last_valid_block_height: '100',
    size_bytes: bytes.length,
  };
}

function spotOrder(overrides: Partial<TSpotOrder> = {}): TSpotOrder {
  return {
    id: 'order-1',
    symbol: 'SOL/USDC',
    order_type: 'Market',
    side: 'Buy',
    quantity: 0.5,
    price: 150,
    stop_price: null,
    leverage: 1,
    status: 'Filled',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    tx_hash: TX_HASH,
    settlement_tx_hash: null,
    filled_quantity: 0.5,
    average_fill_price: 150.2,
    receipt: null,
    ...overrides,
  };
}

function executed(order: TSpotOrder | null = spotOrder()): TExecuteSignedTransactionResult {
  return { transaction_hash: TX_HASH, status: 'confirmed', slot: 42, order };
}

const expiredApiError = () =>
  new ApiError(TRADE_MESSAGES.transactionExpired, {
    status: 400,
    kind: 'http',
    code: 'TRADING__TRANSACTION_EXPIRED',
    serverMessage: TRADE_MESSAGES.transactionExpired,
  });

/** A wallet that appends one byte to prove the signed bytes are what gets executed. */
const signingWallet = () => vi.fn(async (wire: Uint8Array) => new Uint8Array([...wire, 9]));

beforeEach(() => {
  vi.resetAllMocks();
  api.getUnsignedTransaction.mockResolvedValue(unsigned());
  api.executeSignedTransaction.mockResolvedValue(executed());
  api.recordSpotOrder.mockResolvedValue(spotOrder({ id: 'recorded' }));
});

describe('submitOrder', () => {
  it('builds, signs, executes with an idempotency key and records the fill', async () => {
    // Given a wallet that signs
    const signTransaction = signingWallet();
    const stages: OrderStage[] = [];

    // When the order is submitted
    const result = await submitOrder(ORDER, { signTransaction, onStage: (stage) => stages.push(stage) });

    // Then every stage ran in order with the signed bytes, and the recorded order is returned
    expect(stages).toEqual(['building', 'signing', 'executing', 'recording']);
    expect(api.getUnsignedTransaction).toHaveBeenCalledWith(ORDER);
    expect(signTransaction).toHaveBeenCalledWith(UNSIGNED_BYTES);
    const [signedBase64, idempotencyKey] = api.executeSignedTransaction.mock.calls[0]!;
    expect(decodeBase64(signedBase64)).toEqual(new Uint8Array([...UNSIGNED_BYTES, 9]));
    expect(idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(api.recordSpotOrder).toHaveBeenCalledWith(
      expect.objectContaining({
        tx_hash: TX_HASH,
        symbol: 'SOL/USDC',
        order_type: 'Market',
        side: 'Buy',
        quantity: 0.5,
        status: 'Filled',
        filled_quantity: 0.5,
        average_fill_price: 150.2,
      }),
    );
    expect(result.transactionHash).toBe(TX_HASH);
    expect(result.order?.id).toBe('recorded');
    expect(result.unsigned.size_bytes).toBe(UNSIGNED_BYTES.length);
  });

  it('only warns when recording fails and keeps the executed order', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    api.recordSpotOrder.mockRejectedValue(new ApiError('boom', { status: 500, kind: 'http' }));

    const result = await submitOrder(ORDER, { signTransaction: signingWallet() });

    expect(result.transactionHash).toBe(TX_HASH);
    expect(result.order?.id).toBe('order-1');
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('follows a pending answer (sent, outcome unknown) by its signature instead of recording or failing', async () => {
    const info = vi.spyOn(notify, 'info').mockImplementation(() => undefined as never);
    api.executeSignedTransaction.mockResolvedValue({
      status: 'pending',
      signature: TX_HASH,
      message: PENDING_TRANSACTION_MESSAGE,
    });

    const result = await submitOrder(ORDER, { signTransaction: signingWallet() });

    expect(result).toMatchObject({ transactionHash: TX_HASH, order: null, pending: true });
    expect(api.recordSpotOrder).not.toHaveBeenCalled();
    expect(info).toHaveBeenCalledWith(expect.stringContaining('Order pending'));
    info.mockRestore();
  });

  it('maps a wallet rejection to "Transaction cancelled by user" and never executes', async () => {
    const signTransaction = vi.fn().mockRejectedValue({ code: 4001, message: 'User rejected the request.' });

    const error = await submitOrder(ORDER, { signTransaction }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TradeError);
    expect((error as TradeError).message).toBe(TRADE_MESSAGES.transactionCancelled);
    expect((error as TradeError).isExpired).toBe(false);
    expect(api.executeSignedTransaction).not.toHaveBeenCalled();
  });

  it('maps a disconnected wallet to the trade message', async () => {
    const signTransaction = vi.fn().mockRejectedValue(new WalletError('NOT_CONNECTED'));

    await expect(submitOrder(ORDER, { signTransaction })).rejects.toThrow(TRADE_MESSAGES.noWalletConnected);
  });

  it('keeps the server message of an API error', async () => {
    api.getUnsignedTransaction.mockRejectedValue(
      new ApiError('Trading pair is not available', {
        status: 404,
        kind: 'http',
        code: 'TRADING__PAIR_UNAVAILABLE',
        serverMessage: 'Trading pair is not available',
      }),
    );

    const error = (await submitOrder(ORDER, { signTransaction: signingWallet() }).catch(
      (e: unknown) => e,
    )) as TradeError;

    expect(error.message).toBe('Trading pair is not available');
    expect(error.code).toBe('TRADING__PAIR_UNAVAILABLE');
  });

  it('keeps transport messages', async () => {
    api.executeSignedTransaction.mockRejectedValue(
      new ApiError('Network error. Please check your connection and try again.', {
        status: 0,
        kind: 'network',
      }),
    );

    await expect(submitOrder(ORDER, { signTransaction: signingWallet() })).rejects.toThrow(
      'Network error. Please check your connection and try again.',
    );
  });

  it('maps raw chain texts with mapChainError', async () => {
    api.executeSignedTransaction.mockRejectedValue(
      new ApiError('Attempt to debit an account but found no record of a prior credit.', {
        status: 502,
        kind: 'http',
      }),
    );

    await expect(submitOrder(ORDER, { signTransaction: signingWallet() })).rejects.toThrow(
      TRADE_MESSAGES.insufficientBalanceDetailed,
    );
  });

  it('marks TRADING__TRANSACTION_EXPIRED and raw "Blockhash not found" as expired', async () => {
    api.executeSignedTransaction.mockRejectedValueOnce(expiredApiError());
    const byCode = (await submitOrder(ORDER, { signTransaction: signingWallet() }).catch(
      (e: unknown) => e,
    )) as TradeError;
    expect(byCode.isExpired).toBe(true);
    expect(byCode.message).toBe(TRADE_MESSAGES.transactionExpired);

    const signTransaction = vi.fn().mockRejectedValue(new Error('Blockhash not found'));
    const byText = (await submitOrder(ORDER, { signTransaction }).catch((e: unknown) => e)) as TradeError;
    expect(byText.isExpired).toBe(true);
    expect(byText.message).toBe(TRADE_MESSAGES.transactionExpired);
  });

  it('falls back to the stage message for unknown failures', async () => {
    api.getUnsignedTransaction.mockRejectedValue(new TypeError('x is undefined'));
    await expect(submitOrder(ORDER, { signTransaction: signingWallet() })).rejects.toThrow(
      TRADE_MESSAGES.unsignedTransactionFailed,
    );
  });

  it('refuses a transaction over 1232 bytes before asking the wallet', async () => {
    api.getUnsignedTransaction.mockResolvedValue(unsigned(new Uint8Array(MAX_TRANSACTION_SIZE_BYTES + 1)));
    const signTransaction = signingWallet();

    await expect(submitOrder(ORDER, { signTransaction })).rejects.toThrow(TRADE_MESSAGES.transactionTooLarge);
    expect(signTransaction).not.toHaveBeenCalled();
  });

  it('accepts a transaction of exactly 1232 bytes', async () => {
    api.getUnsignedTransaction.mockResolvedValue(unsigned(new Uint8Array(MAX_TRANSACTION_SIZE_BYTES)));
    await expect(submitOrder(ORDER, { signTransaction: signingWallet() })).resolves.toMatchObject({
      transactionHash: TX_HASH,
    });
  });
});

describe('submitOrderWithExpiryRetries', () => {
  const sleep = vi.fn(async (_ms: number) => undefined);

  beforeEach(() => sleep.mockClear());

  it('retries an expired transaction with a new transaction and key, 1 s apart', async () => {
    // Given the first execution expires
    api.executeSignedTransaction.mockRejectedValueOnce(expiredApiError());
    const signTransaction = signingWallet();

    // When the quick trade submits
    const result = await submitOrderWithExpiryRetries(ORDER, { signTransaction }, { sleep });

    // Then it rebuilt, re-signed and re-executed with a fresh idempotency key
    expect(result.transactionHash).toBe(TX_HASH);
    expect(api.getUnsignedTransaction).toHaveBeenCalledTimes(2);
    expect(signTransaction).toHaveBeenCalledTimes(2);
    const keys = api.executeSignedTransaction.mock.calls.map(([, key]) => key);
    expect(new Set(keys).size).toBe(2);
    expect(sleep).toHaveBeenCalledExactlyOnceWith(1000);
  });

  it('re-quotes and asks the wallet again when the maker no longer honours the quote', async () => {
    // Given the maker refuses to co-sign the first signed quote (too old, or the price moved)
    const quoteExpired = new ApiError(
      'Quote expired: the price may have moved. Please try the trade again.',
      {
        status: 409,
        kind: 'http',
        code: 'TRADING__QUOTE_EXPIRED',
      },
    );
    api.executeSignedTransaction.mockRejectedValueOnce(quoteExpired);
    const signTransaction = signingWallet();

    // When the quick trade submits
    const result = await submitOrderWithExpiryRetries(ORDER, { signTransaction }, { sleep });

    // Then a new quote was built and signed, and that one landed
    expect(result.transactionHash).toBe(TX_HASH);
    expect(api.getUnsignedTransaction).toHaveBeenCalledTimes(2);
    expect(signTransaction).toHaveBeenCalledTimes(2);
    expect(sleep).toHaveBeenCalledExactlyOnceWith(1000);

    // And after the retries it shows the server's message, still marked retryable
    api.executeSignedTransaction.mockRejectedValue(quoteExpired);
    const error = (await submitOrderWithExpiryRetries(ORDER, { signTransaction }, { sleep }).catch(
      (e: unknown) => e,
    )) as TradeError;
    expect(error).toMatchObject({ code: 'TRADING__QUOTE_EXPIRED', isExpired: true });
    expect(error.message).toBe(quoteExpired.message);
  });

  it('gives up after 2 retries with the expiry message', async () => {
    api.executeSignedTransaction.mockRejectedValue(expiredApiError());
    const onRetry = vi.fn();

    const error = (await submitOrderWithExpiryRetries(
      ORDER,
      { signTransaction: signingWallet() },
      { sleep, onRetry },
    ).catch((e: unknown) => e)) as TradeError;

    expect(error.message).toBe(TRADE_MESSAGES.transactionExpired);
    expect(error.isExpired).toBe(true);
    expect(api.executeSignedTransaction).toHaveBeenCalledTimes(3);
    expect(sleep).toHaveBeenCalledTimes(2);
    expect(onRetry.mock.calls.map(([retry]) => retry)).toEqual([1, 2]);
  });

  it('does not retry other errors', async () => {
    const signTransaction = vi.fn().mockRejectedValue({ code: 4001 });

    await expect(submitOrderWithExpiryRetries(ORDER, { signTransaction }, { sleep })).rejects.toThrow(
      TRADE_MESSAGES.transactionCancelled,
    );
    expect(api.getUnsignedTransaction).toHaveBeenCalledOnce();
    expect(sleep).not.toHaveBeenCalled();
  });

  it('resets the retry count: after another error the next submit has both retries again', async () => {
    // Given an expiry followed by an insufficient balance error ends the first submit
    api.executeSignedTransaction.mockRejectedValueOnce(expiredApiError()).mockRejectedValueOnce(
      new ApiError(TRADE_MESSAGES.insufficientBalance, {
        status: 400,
        kind: 'http',
        code: 'TRADING__INSUFFICIENT_FUNDS',
      }),
    );
    await expect(
      submitOrderWithExpiryRetries(ORDER, { signTransaction: signingWallet() }, { sleep }),
    ).rejects.toThrow(TRADE_MESSAGES.insufficientBalance);

    // When the next submit expires twice and then lands
    api.executeSignedTransaction
      .mockRejectedValueOnce(expiredApiError())
      .mockRejectedValueOnce(expiredApiError())
      .mockResolvedValueOnce(executed());
    sleep.mockClear();

    // Then it still had two retries
    await expect(
      submitOrderWithExpiryRetries(ORDER, { signTransaction: signingWallet() }, { sleep }),
    ).resolves.toMatchObject({ transactionHash: TX_HASH });
    expect(sleep).toHaveBeenCalledTimes(2);
  });
});
