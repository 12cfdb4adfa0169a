import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpecDecimal, type TSpotOrder, type TUnsignedTransaction } from '@solterm/contracts';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

const api = vi.hoisted(() => ({
  tradingApi: {
    suggestion: vi.fn(),
    getOrders: vi.fn(),
    getPositions: vi.fn(),
    getTrades: vi.fn(),
    getUnsignedTransaction: vi.fn(),
    placeTriggerOrder: vi.fn(),
    executeSignedTransaction: vi.fn(),
    recordSpotOrder: vi.fn(),
  },
}));
vi.mock('../trading-api', () => api);

import { encodeBase64 } from '../wire-transaction';
import { makeOrder, renderSpot, SOL_USDC, TX_HASH } from '../test/spot-fixtures';
import { OrderForm, type OrderFormWallet } from './order-form';

const PRICE = new SpecDecimal('150');
const ORDER_ID = '0b9f6a51-8a43-4c59-9f3e-2b7e0d1c0a11';
const UNSIGNED_BYTES = new Uint8Array([1, 0, 0, 9, 9, 9]);

function unsigned(): TUnsignedTransaction {
  return {
    unsigned_transaction: encodeBase64(UNSIGNED_BYTES),
    order_id: ORDER_ID,
    quote: null,
    last_valid_block_height: '100',
    size_bytes: UNSIGNED_BYTES.length,
  };
}

function pendingTrigger(overrides: Partial<TSpotOrder> = {}): TSpotOrder {
  return makeOrder({ id: ORDER_ID, order_type: 'StopLoss', side: 'Sell', status: 'Pending', ...overrides });
}

function makeWallet(): OrderFormWallet {
  return { isConnected: true, isRestoring: false, signTransaction: vi.fn(async (wire: Uint8Array) => wire) };
}

function form() {
  return within(screen.getByRole('form', { name: 'Place order' }));
}

async function balancesLoaded() {
  await waitFor(() => expect(screen.getByTestId('available-balance')).not.toHaveTextContent('—'));
}

beforeEach(() => {
  api.tradingApi.suggestion.mockResolvedValue({
    symbol: 'SOL/USDC',
    suggested_side: 'Sell',
    available_balances: { SOL: 10, USDC: 1000 },
    price: 150,
  });
  api.tradingApi.getOrders.mockResolvedValue([]);
  api.tradingApi.getPositions.mockResolvedValue([]);
  api.tradingApi.placeTriggerOrder.mockResolvedValue(unsigned());
  api.tradingApi.executeSignedTransaction.mockResolvedValue({
    transaction_hash: TX_HASH,
    status: 'confirmed',
    slot: 7,
    order: pendingTrigger(),
  });
});

afterEach(() => {
  vi.clearAllMocks();
});

async function sell(user: ReturnType<typeof userEvent.setup>, type: string) {
  await balancesLoaded();
  await user.click(form().getByRole('radio', { name: type }));
  await user.click(form().getByRole('radio', { name: 'Sell' }));
}

describe('Place Order trigger types', () => {
  it('a stop loss sends the trigger order body, is signed in the wallet and executed like a limit', async () => {
    const wallet = makeWallet();
    const user = userEvent.setup();
    renderSpot(<OrderForm pair={SOL_USDC} marketPrice={PRICE} wallet={wallet} prefill={null} />);
    await sell(user, 'Stop loss');
    await user.type(form().getByLabelText('Trigger price'), '140');
    await user.type(form().getByLabelText('Amount', { exact: true }), '0.5');
    expect(form().getByText(/Placing it escrows 0\.5 SOL on chain until it triggers/)).toBeInTheDocument();
    await user.click(form().getByRole('button', { name: 'Sell SOL' }));

    await waitFor(() => expect(api.tradingApi.executeSignedTransaction).toHaveBeenCalledTimes(1));
    expect(api.tradingApi.placeTriggerOrder).toHaveBeenCalledWith({
      symbol: 'SOL/USDC',
      order_type: 'stop_loss',
      side: 'Sell',
      amount: 0.5,
      trigger_price: 140,
      max_slippage_bps: 100,
      priority_fee_micro_lamports: 0,
    });
    expect(wallet.signTransaction).toHaveBeenCalledWith(UNSIGNED_BYTES);
    expect(api.tradingApi.executeSignedTransaction).toHaveBeenCalledWith(
      encodeBase64(UNSIGNED_BYTES),
      expect.any(String),
    );
    // Nothing to record: the execute answer is the Pending order, and market/limit paths stay unused.
    expect(api.tradingApi.recordSpotOrder).not.toHaveBeenCalled();
    expect(api.tradingApi.getUnsignedTransaction).not.toHaveBeenCalled();
    await waitFor(() =>
      expect(sonner.toast.success).toHaveBeenCalledWith('Stop loss sell order placed', expect.anything()),
    );
    expect(form().getByLabelText('Trigger price')).toHaveValue('');
  });

  it('a take profit carries its own slippage bound', async () => {
    const user = userEvent.setup();
    renderSpot(<OrderForm pair={SOL_USDC} marketPrice={PRICE} wallet={makeWallet()} prefill={null} />);
    await sell(user, 'Take profit');
    await user.type(form().getByLabelText('Trigger price'), '165.5');
    await user.type(form().getByLabelText('Amount', { exact: true }), '1');
    const slippage = form().getByLabelText('Max slippage');
    await user.clear(slippage);
    await user.type(slippage, '250');
    await user.click(form().getByRole('button', { name: 'Sell SOL' }));
    await waitFor(() => expect(api.tradingApi.placeTriggerOrder).toHaveBeenCalledTimes(1));
    expect(api.tradingApi.placeTriggerOrder.mock.calls[0]![0]).toMatchObject({
      order_type: 'take_profit',
      trigger_price: 165.5,
      amount: 1,
      max_slippage_bps: 250,
    });
  });

  it('a trailing stop sends trail_percent and no trigger price', async () => {
    const user = userEvent.setup();
    renderSpot(<OrderForm pair={SOL_USDC} marketPrice={PRICE} wallet={makeWallet()} prefill={null} />);
    await sell(user, 'Trailing stop');
    await user.type(form().getByLabelText('Trail'), '2.5');
    await user.type(form().getByLabelText('Amount', { exact: true }), '2');
    await user.click(form().getByRole('button', { name: 'Sell SOL' }));
    await waitFor(() => expect(api.tradingApi.placeTriggerOrder).toHaveBeenCalledTimes(1));
    const body = api.tradingApi.placeTriggerOrder.mock.calls[0]![0];
    expect(body).toEqual({
      symbol: 'SOL/USDC',
      order_type: 'trailing_stop',
      side: 'Sell',
      amount: 2,
      trail_percent: 2.5,
      max_slippage_bps: 100,
      priority_fee_micro_lamports: 0,
    });
  });

  it('refuses a stop loss above the market before the wallet is asked', async () => {
    const wallet = makeWallet();
    const user = userEvent.setup();
    renderSpot(<OrderForm pair={SOL_USDC} marketPrice={PRICE} wallet={wallet} prefill={null} />);
    await sell(user, 'Stop loss');
    await user.type(form().getByLabelText('Trigger price'), '155');
    await user.type(form().getByLabelText('Amount', { exact: true }), '0.5');
    await user.click(form().getByRole('button', { name: 'Sell SOL' }));
    expect(form().getByRole('alert')).toHaveTextContent(
      'A stop-loss sell triggers when the price goes below its trigger: SOL/USDC is at 150, so the trigger must be below it',
    );
    expect(form().getByLabelText('Trigger price')).toHaveAttribute('aria-invalid', 'true');
    expect(api.tradingApi.placeTriggerOrder).not.toHaveBeenCalled();
    expect(wallet.signTransaction).not.toHaveBeenCalled();
  });

  it('refuses a buy take profit above the market and a trail outside 0.1–50 %', async () => {
    const wallet = makeWallet();
    const user = userEvent.setup();
    renderSpot(<OrderForm pair={SOL_USDC} marketPrice={PRICE} wallet={wallet} prefill={null} />);
    await balancesLoaded();
    await user.click(form().getByRole('radio', { name: 'Take profit' }));
    await user.type(form().getByLabelText('Trigger price'), '160');
    await user.type(form().getByLabelText('Amount', { exact: true }), '0.5');
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    expect(form().getByRole('alert')).toHaveTextContent(
      'A take-profit buy triggers when the price goes below its trigger',
    );

    await user.click(form().getByRole('radio', { name: 'Trailing stop' }));
    await user.type(form().getByLabelText('Trail'), '60');
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    expect(form().getByRole('alert')).toHaveTextContent('Trail must be between 0.1 % and 50 %');
    expect(api.tradingApi.placeTriggerOrder).not.toHaveBeenCalled();
    expect(wallet.signTransaction).not.toHaveBeenCalled();
  });

  it('"Use market" fills a trigger 1 % on the side the order type and side need', async () => {
    const user = userEvent.setup();
    renderSpot(<OrderForm pair={SOL_USDC} marketPrice={PRICE} wallet={makeWallet()} prefill={null} />);
    await balancesLoaded();
    const cases = [
      ['Take profit', 'Sell', '151.5'],
      ['Stop loss', 'Sell', '148.5'],
      ['Take profit', 'Buy', '148.5'],
      ['Stop loss', 'Buy', '151.5'],
    ] as const;
    for (const [type, side, expected] of cases) {
      await user.click(form().getByRole('radio', { name: type }));
      await user.click(form().getByRole('radio', { name: side }));
      await user.click(form().getByRole('button', { name: 'Use market' }));
      expect(form().getByLabelText('Trigger price'), `${type} ${side}`).toHaveValue(expected);
    }
  });

  it('checks the escrow of a sell against the base balance', async () => {
    const user = userEvent.setup();
    renderSpot(<OrderForm pair={SOL_USDC} marketPrice={PRICE} wallet={makeWallet()} prefill={null} />);
    await sell(user, 'Take profit');
    await user.type(form().getByLabelText('Trigger price'), '170');
    await user.type(form().getByLabelText('Amount', { exact: true }), '12');
    await user.click(form().getByRole('button', { name: 'Sell SOL' }));
    expect(form().getByRole('alert')).toHaveTextContent(
      'Insufficient SOL balance. Required: 12, Available: 10',
    );
    expect(api.tradingApi.placeTriggerOrder).not.toHaveBeenCalled();
  });
});
