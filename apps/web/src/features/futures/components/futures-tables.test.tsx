import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TFuturesOrder, TFuturesPair, TFuturesPosition } from '@solterm/contracts';
import { calledRoutes, renderWithProviders, stubFetch } from '../../../test/test-utils';
import { FuturesTables, NO_LIQUIDATION_EXPLANATION } from './futures-tables';
import { NoPerpMarket } from './perp-market-picker';

const POSITION: TFuturesPosition = {
  id: 'SOL-PERP',
  symbol: 'SOL-PERP',
  market_symbol: 'SOL-PERP',
  direction: 1,
  side: 'Long',
  size: '1.000',
  entry_price: '150.0000',
  mark_price: '151.00',
  pnl: '6.60',
  unrealized_pnl: '1.000000',
  liquidation_price: null,
  leverage: 1,
  margin: '151.000000',
  notional: '151.000000',
  funding: '0.000000',
  take_profit: null,
  stop_loss: null,
};

describe('FuturesTables', () => {
  it('explains a cross-margin position without a liquidation price', () => {
    renderWithProviders(<FuturesTables positions={[POSITION]} orders={[]} isLoading={false} />);
    const cell = screen.getByText('None').closest('span[title]');
    expect(cell).toHaveAttribute('title', NO_LIQUIDATION_EXPLANATION);
    expect(screen.getByText('covered at any price')).toBeInTheDocument();
  });

  it('Close asks first, showing size and estimated price; only Close at market sends the order', async () => {
    const fetchMock = stubFetch({
      'POST /futures/position/close': {
        body: { success: true, data: { position_id: 'SOL-PERP', realized_pnl: '1.000000', fills: [] } },
      },
    });
    renderWithProviders(<FuturesTables positions={[POSITION]} orders={[]} isLoading={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    const dialog = screen.getByRole('dialog', { name: 'Close SOL-PERP Long' });
    expect(within(dialog).getByText('1.000 SOL')).toBeInTheDocument();
    expect(within(dialog).getByText('151.00 USDC')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep position' }));
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByRole('button', { name: 'Close at market' }));
    await waitFor(() => expect(calledRoutes(fetchMock)).toContain('POST /futures/position/close'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('FuturesTables TP/SL', () => {
  it('shows a position’s attached TP/SL and edits them: the venue’s refusal is shown, an emptied leg is removed', async () => {
    const protectedPosition = {
      ...POSITION,
      take_profit: { order_id: '7', trigger_price: '160.00' },
      stop_loss: { order_id: '8', trigger_price: '140.00' },
    };
    let refuse = true;
    const fetchMock = stubFetch({
      'POST /futures/position/tpsl': () =>
        refuse
          ? {
              status: 400,
              body: {
                success: false,
                code: 'FUTURES__TRIGGER_WRONG_SIDE',
                error:
                  'Order failed: a Short take profit market order triggers when the oracle price rises to its trigger price, so the trigger price must be above the oracle price',
              },
            }
          : { body: { success: true, data: { ...protectedPosition, stop_loss: null } } },
    });
    renderWithProviders(<FuturesTables positions={[protectedPosition]} orders={[]} isLoading={false} />);
    expect(screen.getByText('TP 160.00')).toBeInTheDocument();
    expect(screen.getByText('SL 140.00')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'TP/SL' }));
    const dialog = screen.getByRole('dialog', { name: 'TP/SL · SOL-PERP Long' });
    const takeProfit = within(dialog).getByLabelText('Take profit (USDC)');
    expect(takeProfit).toHaveValue('160.00');
    await userEvent.clear(takeProfit);
    await userEvent.type(takeProfit, '150');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save TP/SL' }));
    // The venue refuses a TP the oracle has already passed; the dialog stays open with why.
    expect(
      await within(dialog).findByText(/trigger price must be above the oracle price/),
    ).toBeInTheDocument();
    refuse = false;
    await userEvent.clear(takeProfit);
    await userEvent.type(takeProfit, '165');
    await userEvent.clear(within(dialog).getByLabelText('Stop loss (USDC)'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save TP/SL' }));
    await waitFor(() => expect(calledRoutes(fetchMock)).toHaveLength(2));
    const [, init] = fetchMock.mock.calls[1]!;
    expect(JSON.parse(String(init!.body))).toEqual({
      symbol: 'SOL-PERP',
      take_profit_price: '165',
      stop_loss_price: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('lists a trigger order with its type, position leg and trigger price', async () => {
    const order: TFuturesOrder = {
      id: '9',
      symbol: 'SOL-PERP',
      side: 'Short',
      order_type: 'TakeProfitMarket',
      size: '1.000',
      price: null,
      trigger_price: '160.00',
      tpsl: 'tp',
      triggered_at: null,
      status_reason: null,
      filled_size: '0.000',
      average_fill_price: null,
      leverage: 10,
      reduce_only: true,
      post_only: false,
      status: 'Open',
      created_at: '2026-01-01T00:00:00.000Z',
    };
    renderWithProviders(<FuturesTables positions={[]} orders={[order]} isLoading={false} />);
    await userEvent.click(screen.getByRole('tab', { name: 'Your Futures Orders (1 open)' }));
    expect(screen.getByText('Take Profit')).toBeInTheDocument();
    expect(screen.getByText('· position TP')).toBeInTheDocument();
    expect(screen.getByText('trigger 160.00')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });
});

describe('NoPerpMarket', () => {
  it('says the pair has no perpetual and links the markets that do', () => {
    const pairs = [
      { symbol: 'SOL-PERP', base_symbol: 'SOL', max_leverage: 100 },
      { symbol: 'JUP-PERP', base_symbol: 'JUP', max_leverage: 20 },
    ] as TFuturesPair[];
    renderWithProviders(<NoPerpMarket base="BONK/USDC" pairs={pairs} />);
    expect(screen.getByRole('heading', { name: 'BONK/USDC has no perpetual market' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /SOL-PERP/ })).toHaveAttribute('href', '/future?pair=SOL%2FUSDC');
    expect(screen.getByRole('link', { name: /JUP-PERP/ })).toHaveAttribute('href', '/future?pair=JUP%2FUSDC');
  });
});
