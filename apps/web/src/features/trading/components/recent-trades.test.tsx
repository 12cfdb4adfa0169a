import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

import type { TTrade } from '@solterm/contracts';
import { fail, ok, stubApi } from '../../market/test/market-test-utils';
import { renderTradingWidget } from '../test/trading-test-utils';
import { RecentTrades } from './recent-trades';

function trade(id: string, minutesAgo: number, overrides: Partial<TTrade> = {}): TTrade {
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  return {
    id,
    order_id: `order-${id}`,
    symbol: 'SOL/USDC',
    side: 'Buy',
    quantity: 0.5,
    price: 150.3,
    value: 75.15,
    order_type: 'Market',
    status: 'Filled',
    tx_hash: `${id}`.padEnd(88, 'x'),
    timestamp: at,
    created_at: at,
    receipt: {
      quoted_price: 150,
      filled_price: 150.3,
      slippage_bps: 20,
      network_fee_sol: 0.000005,
      venue_fee: 0.19,
      time_to_land_ms: 420,
      priority_fee_micro_lamports: 0,
    },
    ...overrides,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('RecentTrades', () => {
  it('asks for 10 and lists them newest first with the receipt', async () => {
    const { paths } = stubApi((path) =>
      path === '/trading/trades?limit=10'
        ? ok([trade('older', 30, { side: 'Sell', receipt: null }), trade('newer', 1)])
        : undefined,
    );
    renderTradingWidget(<RecentTrades />);

    const table = await screen.findByRole('table');
    const rows = within(table).getAllByTestId('recent-trade');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('SOL/USDCBuy0.5000150.30');
    expect(rows[0]).toHaveTextContent('MarketFilled+20.0 bps · 420 ms');
    expect(rows[1]).toHaveTextContent('Sell');
    expect(within(rows[0]!).getByTitle(/Venue fee 0.19 USDC/)).toBeInTheDocument();
    expect(paths).toContain('/trading/trades?limit=10');
    for (const column of ['Symbol', 'Side', 'Quantity', 'Price', 'Time', 'Order type', 'Status']) {
      expect(within(table).getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
  });

  it('says when there are no trades yet', async () => {
    stubApi((path) => (path.startsWith('/trading/trades') ? ok([]) : undefined));
    renderTradingWidget(<RecentTrades />);
    expect(await screen.findByText('No trades yet')).toBeInTheDocument();
  });

  it('offers a retry when the trades cannot be read', async () => {
    stubApi((path) => (path.startsWith('/trading/trades') ? fail(400, 'nope') : undefined));
    renderTradingWidget(<RecentTrades />);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch trades'));
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('does not ask without a Solana wallet', async () => {
    const { paths } = stubApi(() => undefined);
    renderTradingWidget(<RecentTrades isEnabled={false} />);
    expect(screen.getByText('No trades yet')).toBeInTheDocument();
    expect(paths.filter((path) => path.startsWith('/trading/trades'))).toHaveLength(0);
  });
});
