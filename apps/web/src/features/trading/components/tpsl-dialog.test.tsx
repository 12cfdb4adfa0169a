import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import type { TSpotOrder, TUnsignedTransaction } from '@solterm/contracts';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

const api = vi.hoisted(() => ({
  tradingApi: {
    suggestion: vi.fn(),
    getOrders: vi.fn(),
    getPositions: vi.fn(),
    placeTriggerOrder: vi.fn(),
    executeSignedTransaction: vi.fn(),
    recordSpotOrder: vi.fn(),
  },
}));
vi.mock('../trading-api', () => api);

import { encodeBase64 } from '../wire-transaction';
import { makeOrder, makePosition, renderSpot, TX_HASH } from '../test/spot-fixtures';
import type { OrderFormWallet } from './order-form';
import { PositionsTable } from './positions-table';

const TAKE_PROFIT_ID = '11111111-2222-4333-8444-555555555555';
const STOP_LOSS_ID = '66666666-7777-4888-8999-aaaaaaaaaaaa';
const TP_BYTES = new Uint8Array([1, 0, 0, 1]);
const SL_BYTES = new Uint8Array([1, 0, 0, 2]);

function unsigned(bytes: Uint8Array, orderId: string): TUnsignedTransaction {
  return {
    unsigned_transaction: encodeBase64(bytes),
    order_id: orderId,
    quote: null,
    last_valid_block_height: '100',
    size_bytes: bytes.length,
  };
}

function executedOrder(id: string, order_type: TSpotOrder['order_type']) {
  return {
    transaction_hash: TX_HASH,
    status: 'confirmed',
    slot: 9,
    order: makeOrder({ id, order_type, side: 'Sell', status: 'Pending' }),
  };
}

function makeWallet(): OrderFormWallet {
  return { isConnected: true, isRestoring: false, signTransaction: vi.fn(async (wire: Uint8Array) => wire) };
}

function balances(sol: number) {
  api.tradingApi.suggestion.mockResolvedValue({
    symbol: 'SOL/USDC',
    suggested_side: 'Sell',
    available_balances: { SOL: sol, USDC: 0 },
    price: 150,
  });
}

async function openDialog(user: ReturnType<typeof userEvent.setup>, wallet = makeWallet()) {
  renderSpot(<PositionsTable onClosePosition={vi.fn()} wallet={wallet} />);
  await user.click(
    await screen.findByRole('button', { name: 'Take profit / stop loss on SOL/USDC position' }),
  );
  const dialog = within(screen.getByRole('dialog', { name: 'TP / SL · SOL/USDC' }));
  // The position's balances are read before submitting (the escrow check needs them).
  await waitFor(() => expect(api.tradingApi.suggestion).toHaveBeenCalled());
  return dialog;
}

beforeEach(() => {
  balances(10);
  api.tradingApi.getOrders.mockResolvedValue([]);
  api.tradingApi.getPositions.mockResolvedValue([makePosition({ size: 1.25, mark_price: 150 })]);
  api.tradingApi.placeTriggerOrder.mockImplementation(async (body: { order_type: string }) =>
    body.order_type === 'take_profit' ? unsigned(TP_BYTES, TAKE_PROFIT_ID) : unsigned(SL_BYTES, STOP_LOSS_ID),
  );
  api.tradingApi.executeSignedTransaction.mockImplementation(async (signed: string) =>
    signed === encodeBase64(TP_BYTES)
      ? executedOrder(TAKE_PROFIT_ID, 'TakeProfit')
      : executedOrder(STOP_LOSS_ID, 'StopLoss'),
  );
});

afterEach(() => {
  vi.clearAllMocks();
});

describe('TP / SL on a position', () => {
  it('opens prefilled and places a take profit and a stop loss linked one-cancels-the-other', async () => {
    const wallet = makeWallet();
    const user = userEvent.setup();
    const dialog = await openDialog(user, wallet);
    expect(dialog.getByLabelText('Size')).toHaveValue('1.25');
    expect(dialog.getByLabelText('Take profit')).toHaveValue('165');
    expect(dialog.getByLabelText('Stop loss')).toHaveValue('142.5');
    expect(dialog.getByLabelText('Max slippage')).toHaveValue('100');

    await user.click(dialog.getByRole('button', { name: 'Place TP / SL' }));

    await waitFor(() =>
      expect(dialog.getByTestId('tpsl-outcome')).toHaveTextContent(/placed, one cancels the other/),
    );
    expect(api.tradingApi.placeTriggerOrder.mock.calls.map(([body]) => body)).toEqual([
      {
        symbol: 'SOL/USDC',
        order_type: 'take_profit',
        side: 'Sell',
        amount: 1.25,
        trigger_price: 165,
        max_slippage_bps: 100,
        priority_fee_micro_lamports: 0,
      },
      {
        symbol: 'SOL/USDC',
        order_type: 'stop_loss',
        side: 'Sell',
        amount: 1.25,
        trigger_price: 142.5,
        max_slippage_bps: 100,
        priority_fee_micro_lamports: 0,
        oco_with: TAKE_PROFIT_ID,
      },
    ]);
    // Each order is signed in the wallet and executed.
    expect(wallet.signTransaction).toHaveBeenNthCalledWith(1, TP_BYTES);
    expect(wallet.signTransaction).toHaveBeenNthCalledWith(2, SL_BYTES);
    expect(api.tradingApi.executeSignedTransaction).toHaveBeenCalledTimes(2);
    expect(dialog.getByRole('button', { name: 'Done' })).toBeInTheDocument();
  });

  it('a stop loss alone is one unlinked order', async () => {
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    await user.clear(dialog.getByLabelText('Take profit'));
    await user.click(dialog.getByRole('button', { name: 'Place TP / SL' }));
    await waitFor(() => expect(dialog.getByTestId('tpsl-outcome')).toHaveTextContent('Stop loss placed'));
    expect(api.tradingApi.placeTriggerOrder).toHaveBeenCalledTimes(1);
    expect(api.tradingApi.placeTriggerOrder.mock.calls[0]![0]).not.toHaveProperty('oco_with');
  });

  it('refuses a stop loss above the mark, no price at all, or a size both escrows cannot cover, before the wallet', async () => {
    const wallet = makeWallet();
    const user = userEvent.setup();
    balances(2);
    const dialog = await openDialog(user, wallet);

    await user.clear(dialog.getByLabelText('Stop loss'));
    await user.type(dialog.getByLabelText('Stop loss'), '151');
    await user.click(dialog.getByRole('button', { name: 'Place TP / SL' }));
    expect(dialog.getByRole('alert')).toHaveTextContent(
      'A stop-loss sell triggers when the price goes below its trigger: SOL/USDC is at 150, so the trigger must be below it',
    );
    expect(dialog.getByLabelText('Stop loss')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(dialog.getByLabelText('Stop loss'));
    await user.clear(dialog.getByLabelText('Take profit'));
    await user.click(dialog.getByRole('button', { name: 'Place TP / SL' }));
    expect(dialog.getByRole('alert')).toHaveTextContent(
      'Enter a take-profit price, a stop-loss price, or both',
    );

    await user.type(dialog.getByLabelText('Take profit'), '170');
    await user.type(dialog.getByLabelText('Stop loss'), '140');
    await user.click(dialog.getByRole('button', { name: 'Place TP / SL' }));
    expect(dialog.getByRole('alert')).toHaveTextContent(
      'Each order escrows its own SOL: both together need 2.5, available 2.',
    );

    expect(api.tradingApi.placeTriggerOrder).not.toHaveBeenCalled();
    expect(wallet.signTransaction).not.toHaveBeenCalled();
  });

  it('when the stop loss fails, says the take profit stands and a retry links to it without placing it again', async () => {
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    api.tradingApi.placeTriggerOrder.mockImplementation(async (body: { order_type: string }) => {
      if (body.order_type === 'take_profit') return unsigned(TP_BYTES, TAKE_PROFIT_ID);
      throw new ApiError('Too many requests', { status: 429, kind: 'http', code: 'RATE_LIMITED' });
    });
    await user.click(dialog.getByRole('button', { name: 'Place TP / SL' }));
    await waitFor(() =>
      expect(dialog.getByTestId('tpsl-outcome')).toHaveTextContent(
        'Take profit placed, but the stop loss was not (Too many requests).',
      ),
    );
    expect(dialog.getByLabelText('Take profit')).toHaveAttribute('readonly');

    api.tradingApi.placeTriggerOrder.mockResolvedValue(unsigned(SL_BYTES, STOP_LOSS_ID));
    await user.click(dialog.getByRole('button', { name: 'Place TP / SL' }));
    await waitFor(() =>
      expect(dialog.getByTestId('tpsl-outcome')).toHaveTextContent(/one cancels the other/),
    );
    const bodies = api.tradingApi.placeTriggerOrder.mock.calls.map(([body]) => body);
    expect(bodies.filter((body) => body.order_type === 'take_profit')).toHaveLength(1);
    expect(bodies.at(-1)).toMatchObject({ order_type: 'stop_loss', oco_with: TAKE_PROFIT_ID });
  });
});
