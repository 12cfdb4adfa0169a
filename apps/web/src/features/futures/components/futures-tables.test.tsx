import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TFuturesPair, TFuturesPosition } from '@solterm/contracts';
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
