import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpecDecimal, type TSuggestion } from '@solterm/contracts';
import type * as SubmitOrderModule from '../submit-order';

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
    getOrderBook: vi.fn(),
    cancelOrder: vi.fn(),
  },
}));
vi.mock('../trading-api', () => api);

const submit = vi.hoisted(() => ({ submitOrder: vi.fn() }));
vi.mock('../submit-order', async (importOriginal) => ({
  ...(await importOriginal<typeof SubmitOrderModule>()),
  submitOrder: submit.submitOrder,
}));

import { ApiError } from '../../../lib/api-client';
import { TradeError } from '../submit-order';
import { queryKeys } from '../../../lib/query-keys';
import { getClosingPrefill, orderPrefillStore, useOrderPrefill } from '../order-prefill';
import { makeOrder, makePosition, renderSpot, SOL_USDC, TX_HASH } from '../test/spot-fixtures';
import { OrderForm, type OrderFormWallet } from './order-form';
import { PositionsTable } from './positions-table';

const PRICE = new SpecDecimal('150');

function suggestion(balances: Record<string, number>): TSuggestion {
  return { symbol: 'SOL/USDC', suggested_side: 'Buy', available_balances: balances, price: 150 };
}

function makeWallet(overrides: Partial<OrderFormWallet> = {}): OrderFormWallet {
  return {
    isConnected: true,
    isRestoring: false,
    signTransaction: vi.fn(async (wire: Uint8Array) => wire),
    ...overrides,
  };
}

/** The form as the trade page mounts it, reading the page's prefill store. */
function Form({ wallet = makeWallet() }: { wallet?: OrderFormWallet }) {
  const prefill = useOrderPrefill();
  return <OrderForm pair={SOL_USDC} marketPrice={PRICE} wallet={wallet} prefill={prefill} />;
}

function form() {
  return within(screen.getByRole('form', { name: 'Place order' }));
}

async function balancesLoaded() {
  await waitFor(() => expect(screen.getByTestId('available-balance')).not.toHaveTextContent('—'));
}

beforeEach(() => {
  api.tradingApi.suggestion.mockResolvedValue(suggestion({ SOL: 10, USDC: 1000 }));
  api.tradingApi.getOrders.mockResolvedValue([]);
  api.tradingApi.getPositions.mockResolvedValue([]);
});

afterEach(() => {
  vi.clearAllMocks();
  orderPrefillStore.set(null);
});

describe('Place Order validation', () => {
  it('a market order asks for the amount', async () => {
    const user = userEvent.setup();
    renderSpot(<Form />);
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    expect(form().getByRole('alert')).toHaveTextContent('Please enter amount');
    expect(sonner.toast.error).toHaveBeenCalledWith('Please enter amount', expect.anything());
    expect(submit.submitOrder).not.toHaveBeenCalled();
  });

  it('a limit order asks for amount and price', async () => {
    const user = userEvent.setup();
    renderSpot(<Form />);
    await user.click(form().getByRole('radio', { name: 'Limit' }));
    await user.type(form().getByLabelText('Amount', { exact: true }), '1');
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    expect(form().getByRole('alert')).toHaveTextContent('Please enter amount and price');
    expect(form().getByLabelText('Limit price')).toHaveAttribute('aria-invalid', 'true');
    expect(submit.submitOrder).not.toHaveBeenCalled();
  });

  it('shows the available balance with the dashboard precision (USDC 2 decimals)', async () => {
    api.tradingApi.suggestion.mockResolvedValue(suggestion({ SOL: 1.4979, USDC: 871.260795 }));
    renderSpot(<Form />);
    await balancesLoaded();
    expect(screen.getByTestId('available-balance')).toHaveTextContent(/^871\.26 USDC$/);
  });

  it('checks the quote balance of a buy before requesting a transaction', async () => {
    api.tradingApi.suggestion.mockResolvedValue(suggestion({ SOL: 1, USDC: 100 }));
    const user = userEvent.setup();
    renderSpot(<Form />);
    await balancesLoaded();
    expect(screen.getByTestId('available-balance')).toHaveTextContent('100.00 USDC');
    await user.type(form().getByLabelText('Amount', { exact: true }), '10');
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    expect(form().getByRole('alert')).toHaveTextContent(
      'Insufficient USDC balance. Required: 1500, Available: 100',
    );
    expect(submit.submitOrder).not.toHaveBeenCalled();
  });

  it('checks the base balance of a sell', async () => {
    api.tradingApi.suggestion.mockResolvedValue(suggestion({ SOL: 0.25, USDC: 0 }));
    const user = userEvent.setup();
    renderSpot(<Form />);
    await balancesLoaded();
    await user.click(form().getByRole('radio', { name: 'Sell' }));
    await user.type(form().getByLabelText('Amount', { exact: true }), '0.5');
    await user.click(form().getByRole('button', { name: 'Sell SOL' }));
    expect(form().getByRole('alert')).toHaveTextContent(
      'Insufficient SOL balance. Required: 0.5, Available: 0.25',
    );
  });

  it('without a wallet shows Wallet Required and refuses to trade', async () => {
    const user = userEvent.setup();
    renderSpot(<Form wallet={makeWallet({ isConnected: false })} />);
    expect(screen.getByText('Wallet Required')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect' })).toHaveAttribute('href', '/wallet-connect');
    await user.type(form().getByLabelText('Amount', { exact: true }), '1');
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    expect(form().getByRole('alert')).toHaveTextContent(
      'Wallet not found. Please connect a wallet to trade.',
    );
    expect(submit.submitOrder).not.toHaveBeenCalled();
  });

  it('says when the venue cannot trade the pair and does not offer to submit', async () => {
    api.tradingApi.suggestion.mockRejectedValue(
      new ApiError('Trading pair GOAT/SOL is not available', {
        status: 404,
        code: 'TRADING__PAIR_UNAVAILABLE',
        kind: 'http',
        serverMessage: 'Trading pair GOAT/SOL is not available',
      }),
    );
    renderSpot(<Form />);
    expect(await screen.findByText('Not tradable here')).toBeInTheDocument();
    expect(screen.getByText('Trading pair GOAT/SOL is not available')).toBeInTheDocument();
    expect(form().getByRole('button', { name: 'Buy SOL' })).toBeDisabled();
  });

  it('shows no Wallet Required notice while a stored wallet reconnects', () => {
    renderSpot(<Form wallet={makeWallet({ isConnected: false, isRestoring: true })} />);
    expect(screen.queryByText('Wallet Required')).not.toBeInTheDocument();
  });
});

describe('amount or USDC total', () => {
  it('converts a USDC total into the quantity at the current price', async () => {
    submit.submitOrder.mockResolvedValue({ transactionHash: TX_HASH, order: null, unsigned: {} });
    const user = userEvent.setup();
    renderSpot(<Form />);
    await balancesLoaded();
    await user.click(form().getByRole('radio', { name: 'Total in USDC' }));
    expect(form().getByLabelText('Total', { exact: true })).toBeInTheDocument();
    await user.type(form().getByLabelText('Total', { exact: true }), '300');
    expect(screen.getByTestId('order-quantity')).toHaveTextContent('2 SOL');
    expect(screen.getByTestId('order-total')).toHaveTextContent('300.00 USDC');
    await user.click(
      form().getByRole('radio', { name: 'High priority fee (100000 micro-lamports per compute unit)' }),
    );
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    await waitFor(() => expect(submit.submitOrder).toHaveBeenCalledTimes(1));
    expect(submit.submitOrder.mock.calls[0]![0]).toEqual({
      symbol: 'SOL/USDC',
      order_type: 'Market',
      side: 'Buy',
      quantity: 2,
      price: 150,
      slippage_bps: 50,
      priority_fee_micro_lamports: 100_000,
    });
  });

  it('flipping the unit keeps the order size', async () => {
    const user = userEvent.setup();
    renderSpot(<Form />);
    await user.type(form().getByLabelText('Amount', { exact: true }), '1.5');
    await user.click(form().getByRole('radio', { name: 'Total in USDC' }));
    expect(form().getByLabelText('Total', { exact: true })).toHaveValue('225');
    await user.click(form().getByRole('radio', { name: 'Amount in SOL' }));
    expect(form().getByLabelText('Amount', { exact: true })).toHaveValue('1.5');
  });

  it('converts a limit total at the limit price', async () => {
    submit.submitOrder.mockResolvedValue({ transactionHash: TX_HASH, order: null, unsigned: {} });
    const user = userEvent.setup();
    renderSpot(<Form />);
    await balancesLoaded();
    await user.click(form().getByRole('radio', { name: 'Limit' }));
    await user.type(form().getByLabelText('Limit price'), '120');
    await user.click(form().getByRole('radio', { name: 'Total in USDC' }));
    await user.type(form().getByLabelText('Total', { exact: true }), '60');
    expect(screen.getByTestId('order-quantity')).toHaveTextContent('0.5 SOL');
    expect(screen.getByText(/escrows 60 USDC on chain/)).toBeInTheDocument();
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    await waitFor(() => expect(submit.submitOrder).toHaveBeenCalledTimes(1));
    expect(submit.submitOrder.mock.calls[0]![0]).toMatchObject({
      order_type: 'Limit',
      quantity: 0.5,
      price: 120,
    });
  });
});

describe('placing an order', () => {
  it('signs with the wallet, toasts the hash, clears the form and shows the order', async () => {
    const placed = makeOrder({ order_type: 'Limit', status: 'Pending', price: 140, filled_quantity: 0 });
    submit.submitOrder.mockImplementation(async (_order, deps) => {
      deps.onStage?.('signing');
      await deps.signTransaction(new Uint8Array([1, 2, 3]));
      return { transactionHash: TX_HASH, order: placed, unsigned: {} };
    });
    const wallet = makeWallet();
    const user = userEvent.setup();
    const { queryClient } = renderSpot(<Form wallet={wallet} />);
    await balancesLoaded();
    await user.click(form().getByRole('radio', { name: 'Limit' }));
    await user.type(form().getByLabelText('Limit price'), '140');
    await user.type(form().getByLabelText('Amount', { exact: true }), '0.5');
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    await waitFor(() =>
      expect(sonner.toast.success).toHaveBeenCalledWith('Limit buy order placed', {
        duration: 3000,
        description: `Transaction ${TX_HASH.slice(0, 8)}...${TX_HASH.slice(-8)}`,
      }),
    );
    expect(wallet.signTransaction).toHaveBeenCalledWith(new Uint8Array([1, 2, 3]));
    expect(form().getByLabelText('Amount', { exact: true })).toHaveValue('');
    expect(form().getByLabelText('Limit price')).toHaveValue('');
    expect(queryClient.getQueryData(queryKeys.trading.orders)).toEqual([placed]);
  });

  it('asks for an explicit confirmation before buying a danger token', async () => {
    submit.submitOrder.mockResolvedValue({ transactionHash: TX_HASH, order: makeOrder(), unsigned: {} });
    const user = userEvent.setup();
    const { queryClient } = renderSpot(<Form />);
    await balancesLoaded();
    act(() =>
      queryClient.setQueryData(queryKeys.market.tokenSafety('So11111111111111111111111111111111111111112'), {
        level: 'danger',
        flags: [{ code: 'permanent_delegate', severity: 'danger', message: 'Permanent delegate D' }],
      }),
    );
    await user.type(form().getByLabelText('Amount', { exact: true }), '0.5');
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    const dialog = await screen.findByRole('dialog', { name: 'SOL reads danger' });
    expect(dialog).toHaveTextContent('Permanent delegate D');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(submit.submitOrder).not.toHaveBeenCalled();
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Buy SOL anyway' }),
    );
    await waitFor(() => expect(submit.submitOrder).toHaveBeenCalledTimes(1));
  });

  it('shows the trade error message and keeps the form', async () => {
    submit.submitOrder.mockRejectedValue(
      new TradeError('Transaction cancelled by user', { code: 'WALLET__USER_REJECTED' }),
    );
    const user = userEvent.setup();
    renderSpot(<Form />);
    await balancesLoaded();
    await user.type(form().getByLabelText('Amount', { exact: true }), '1');
    await user.click(form().getByRole('button', { name: 'Buy SOL' }));
    await waitFor(() => expect(form().getByRole('alert')).toHaveTextContent('Transaction cancelled by user'));
    expect(sonner.toast.error).toHaveBeenCalledWith('Transaction cancelled by user', expect.anything());
    expect(form().getByLabelText('Amount', { exact: true })).toHaveValue('1');
    expect(form().getByRole('button', { name: 'Buy SOL' })).toBeEnabled();
  });
});

describe('prefills', () => {
  it("a position's Close prefills a market sell of the whole size", async () => {
    api.tradingApi.getPositions.mockResolvedValue([makePosition({ size: 1.25 })]);
    const user = userEvent.setup();
    renderSpot(
      <>
        <PositionsTable
          onClosePosition={(position) => {
            const closing = getClosingPrefill(position, 'SOL/USDC');
            if (closing) orderPrefillStore.set(closing);
          }}
        />
        <Form />
      </>,
    );
    await user.click(form().getByRole('radio', { name: 'Limit' }));
    await user.type(form().getByLabelText('Amount', { exact: true }), '9');
    await user.click(await screen.findByRole('button', { name: 'Close SOL/USDC position' }));

    expect(form().getByRole('radio', { name: 'Sell' })).toHaveAttribute('aria-checked', 'true');
    expect(form().getByRole('radio', { name: 'Market' })).toHaveAttribute('aria-checked', 'true');
    expect(form().getByLabelText('Amount', { exact: true })).toHaveValue('1.25');
    expect(screen.getByTestId('order-intent')).toHaveTextContent(
      'Prefilled from your SOL/USDC position: Sell 1.25 SOL for USDC',
    );
    expect(form().getByRole('button', { name: 'Sell SOL' })).toBeInTheDocument();
  });

  it('ignores a prefill made before the form was shown, or for another pair', () => {
    orderPrefillStore.set({ pair: 'SOL/USDC', side: 'Sell', quantity: '3', origin: 'an old visit' });
    renderSpot(<Form />);
    expect(form().getByLabelText('Amount', { exact: true })).toHaveValue('');
    orderPrefillStore.set({ pair: 'BONK/SOL', side: 'Sell', quantity: '3', origin: 'elsewhere' });
    expect(form().getByLabelText('Amount', { exact: true })).toHaveValue('');
    expect(screen.queryByTestId('order-intent')).not.toBeInTheDocument();
  });

  it('a trending Buy prefills the side and says so', async () => {
    const user = userEvent.setup();
    renderSpot(<Form />);
    await user.click(form().getByRole('radio', { name: 'Sell' }));
    orderPrefillStore.set({ pair: 'SOL/USDC', side: 'Buy', orderType: 'Market', origin: 'Trending Tokens' });
    expect(await screen.findByTestId('order-intent')).toHaveTextContent(
      'Prefilled from Trending Tokens: Buy SOL with USDC',
    );
    expect(form().getByRole('radio', { name: 'Buy' })).toHaveAttribute('aria-checked', 'true');
  });

  it('a price picked in the book turns the form into a limit at that price', async () => {
    renderSpot(<Form />);
    orderPrefillStore.set({
      pair: 'SOL/USDC',
      orderType: 'Limit',
      limitPrice: '149.5',
      origin: 'Order book',
    });
    expect(await form().findByLabelText('Limit price')).toHaveValue('149.5');
    expect(screen.queryByTestId('order-intent')).not.toBeInTheDocument();
  });
});
