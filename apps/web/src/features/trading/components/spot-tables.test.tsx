import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

const api = vi.hoisted(() => ({
  tradingApi: {
    getOrders: vi.fn(),
    getPositions: vi.fn(),
    getTrades: vi.fn(),
    cancelOrder: vi.fn(),
  },
  walletApi: {},
}));
vi.mock('../trading-api', () => api);

import { TRADES_FEED_LIMIT } from '@solterm/contracts';
import { queryKeys } from '../../../lib/query-keys';
import { makeOrder, makePosition, makeTrade, renderSpot, TX_HASH } from '../test/spot-fixtures';
import { PositionsTable } from './positions-table';
import { SpotOrdersTable } from './spot-orders-table';
import { SpotTables } from './spot-tables';
import { TradesFeed } from './trades-feed';
import { ExplorerNetworkContext } from './tx-link';

beforeEach(() => {
  api.tradingApi.getOrders.mockResolvedValue([]);
  api.tradingApi.getPositions.mockResolvedValue([]);
  api.tradingApi.getTrades.mockResolvedValue([]);
});

afterEach(() => {
  vi.clearAllMocks();
});

const PENDING_LIMIT = makeOrder({
  id: 'limit-1',
  order_type: 'Limit',
  status: 'Pending',
  price: 140,
  filled_quantity: 0,
  average_fill_price: null,
});

describe('Your Spot Orders', () => {
  it('shows each status with its badge, fills and the transaction', async () => {
    api.tradingApi.getOrders.mockResolvedValue([
      PENDING_LIMIT,
      makeOrder({ id: 'filled-1' }),
      makeOrder({ id: 'failed-1', status: 'Failed', filled_quantity: 0, average_fill_price: null }),
      makeOrder({
        id: 'cancelled-1',
        order_type: 'Limit',
        status: 'Cancelled',
        filled_quantity: 0,
        average_fill_price: null,
        settlement_tx_hash: '3xRefundSignature1111111111111111111111111111111111111',
      }),
    ]);
    renderSpot(<SpotOrdersTable />);
    const rows = await screen.findAllByTestId('spot-order-row');
    expect(rows.map((row) => within(row).getByTestId('order-status').textContent)).toEqual([
      'Pending',
      'Filled',
      'Failed',
      'Cancelled',
    ]);
    const filled = within(rows[1]!);
    expect(filled.getByText('Market')).toBeInTheDocument();
    expect(filled.getByText('Buy')).toHaveClass('text-up');
    expect(filled.getByText('avg 150.12')).toBeInTheDocument();
    expect(filled.getByTestId('tx-link')).toHaveTextContent('5VfY...xh1A');
    expect(filled.getByRole('button', { name: 'Copy transaction hash' })).toBeInTheDocument();
    expect(within(rows[3]!).getByText('Refund')).toBeInTheDocument();
    // Only a pending limit order can be cancelled.
    expect(within(rows[0]!).getByRole('button', { name: /^Cancel/ })).toBeInTheDocument();
    for (const row of rows.slice(1))
      expect(within(row).queryByRole('button', { name: /^Cancel/ })).toBeNull();
  });

  it('links the transaction to the explorer of the network', async () => {
    api.tradingApi.getOrders.mockResolvedValue([makeOrder()]);
    renderSpot(
      <ExplorerNetworkContext.Provider value="devnet">
        <SpotOrdersTable />
      </ExplorerNetworkContext.Provider>,
    );
    expect(await screen.findByTestId('tx-link')).toHaveAttribute(
      'href',
      `https://explorer.solana.com/tx/${TX_HASH}?cluster=devnet`,
    );
  });

  it('cancels a pending limit order: toast, Cancelled at once, refreshed later', async () => {
    api.tradingApi.getOrders.mockResolvedValue([PENDING_LIMIT]);
    api.tradingApi.cancelOrder.mockResolvedValue({ ...PENDING_LIMIT, status: 'Cancelled' });
    const user = userEvent.setup();
    const { queryClient } = renderSpot(<SpotOrdersTable />);
    await user.click(await screen.findByRole('button', { name: /^Cancel/ }));
    expect(api.tradingApi.cancelOrder).toHaveBeenCalledWith('limit-1');
    await waitFor(() => expect(screen.getByTestId('order-status')).toHaveTextContent('Cancelled'));
    expect(sonner.toast.success).toHaveBeenCalledWith('Order cancelled', expect.anything());
    expect(queryClient.getQueryData(queryKeys.trading.orders)).toEqual([
      { ...PENDING_LIMIT, status: 'Cancelled' },
    ]);
  });

  it('says so when there are no orders', async () => {
    renderSpot(<SpotOrdersTable />);
    expect(await screen.findByText('No open orders')).toBeInTheDocument();
  });
});

describe('Your Positions', () => {
  it('shows size, entry, mark, value and PnL in green or red', async () => {
    api.tradingApi.getPositions.mockResolvedValue([
      makePosition(),
      makePosition({
        symbol: 'BONK/SOL',
        base_symbol: 'BONK',
        quote_symbol: 'SOL',
        size: 1_000_000,
        average_entry_price: 0.00012,
        mark_price: 0.0001,
        value: 100,
        unrealized_pnl: -20,
        pnl_percent: -16.6667,
        realized_pnl: 0,
      }),
    ]);
    renderSpot(<PositionsTable onClosePosition={vi.fn()} />);
    const rows = await screen.findAllByTestId('position-row');
    const sol = within(rows[0]!);
    expect(sol.getByText('1.25')).toBeInTheDocument();
    expect(sol.getByText('140.00')).toBeInTheDocument();
    expect(sol.getByTestId('unrealized-pnl')).toHaveTextContent('+12.50(+7.14%)');
    expect(sol.getByTestId('unrealized-pnl')).toHaveClass('text-up');
    expect(sol.getByText('-0.5000')).toHaveClass('text-down');
    const bonk = within(rows[1]!);
    expect(bonk.getByText('1,000,000')).toBeInTheDocument();
    expect(bonk.getByText('0.000120')).toBeInTheDocument();
    expect(bonk.getByTestId('unrealized-pnl')).toHaveTextContent('-20.00(-16.67%)');
    expect(bonk.getByTestId('unrealized-pnl')).toHaveClass('text-down');
  });

  it('Close hands the position to the page', async () => {
    const position = makePosition();
    api.tradingApi.getPositions.mockResolvedValue([position]);
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderSpot(<PositionsTable onClosePosition={onClose} />);
    await user.click(await screen.findByRole('button', { name: 'Close SOL/USDC position' }));
    expect(onClose).toHaveBeenCalledWith(position);
  });

  it('says so when there are none', async () => {
    renderSpot(<PositionsTable onClosePosition={vi.fn()} />);
    expect(await screen.findByText('No positions')).toBeInTheDocument();
  });
});

describe('All Trades', () => {
  it('shows each fill with its receipt', async () => {
    api.tradingApi.getTrades.mockResolvedValue([
      makeTrade(),
      makeTrade({ id: 'trade-2', side: 'Buy', receipt: null }),
    ]);
    renderSpot(<TradesFeed />);
    const rows = await screen.findAllByTestId('trade-row');
    expect(api.tradingApi.getTrades).toHaveBeenCalledWith(100, expect.anything());
    const receipt = within(rows[0]!).getByTestId('receipt');
    expect(receipt).toHaveTextContent('Slippage 8.6 bps');
    expect(receipt).toHaveTextContent('Landed 654 ms');
    expect(receipt).toHaveTextContent('Network 0.000005 SOL');
    expect(receipt).toHaveTextContent('Venue 0.036702 USDC');
    expect(within(rows[0]!).getByText('73.37')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Sell')).toHaveClass('text-down');
    expect(within(rows[1]!).queryByTestId('receipt')).toBeNull();
  });

  it('says so when there are none', async () => {
    renderSpot(<TradesFeed />);
    expect(await screen.findByText('No trades yet')).toBeInTheDocument();
  });
});

describe('the tabbed tables', () => {
  it('switches between orders, positions and trades', async () => {
    api.tradingApi.getOrders.mockResolvedValue([PENDING_LIMIT]);
    const user = userEvent.setup();
    renderSpot(<SpotTables onClosePosition={vi.fn()} />);
    expect(await screen.findByRole('tab', { name: /Your Spot Orders\s*1/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await user.click(screen.getByRole('tab', { name: /Your Positions/ }));
    expect(await screen.findByText('No positions')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /All Trades/ }));
    expect(await screen.findByText('No trades yet')).toBeInTheDocument();
  });

  it('toasts a failing feed once, not on every poll, and again after it recovered', async () => {
    api.tradingApi.getTrades.mockRejectedValue(new Error('down'));
    const { queryClient } = renderSpot(<SpotTables onClosePosition={vi.fn()} />);
    await waitFor(() =>
      expect(sonner.toast.error).toHaveBeenCalledWith('Failed to fetch trades', expect.anything()),
    );
    await act(() => queryClient.refetchQueries({ queryKey: queryKeys.trading.trades(TRADES_FEED_LIMIT) }));
    await act(() => queryClient.refetchQueries({ queryKey: queryKeys.trading.trades(TRADES_FEED_LIMIT) }));
    expect(
      sonner.toast.error.mock.calls.filter(([message]) => message === 'Failed to fetch trades'),
    ).toHaveLength(1);

    api.tradingApi.getTrades.mockResolvedValue([]);
    await act(() => queryClient.refetchQueries({ queryKey: queryKeys.trading.trades(TRADES_FEED_LIMIT) }));
    // Identical toasts within 100 ms show once (part 1 §4); let that window pass.
    await new Promise((resolve) => setTimeout(resolve, 150));
    api.tradingApi.getTrades.mockRejectedValue(new Error('down again'));
    await act(() => queryClient.refetchQueries({ queryKey: queryKeys.trading.trades(TRADES_FEED_LIMIT) }));
    await waitFor(() =>
      expect(
        sonner.toast.error.mock.calls.filter(([message]) => message === 'Failed to fetch trades'),
      ).toHaveLength(2),
    );
  });

  it("toasts 'Failed to load trading data' when orders or positions fail", async () => {
    api.tradingApi.getOrders.mockRejectedValue(new Error('down'));
    api.tradingApi.getPositions.mockRejectedValue(new Error('down'));
    renderSpot(<SpotTables onClosePosition={vi.fn()} />);
    await waitFor(() =>
      expect(sonner.toast.error).toHaveBeenCalledWith('Failed to load trading data', expect.anything()),
    );
    expect(await screen.findByText('Orders could not be loaded')).toBeInTheDocument();
    expect(
      sonner.toast.error.mock.calls.filter(([message]) => message === 'Failed to load trading data'),
    ).toHaveLength(1);
  });
});
