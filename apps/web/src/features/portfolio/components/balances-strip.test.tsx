import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TPortfolio } from '@solterm/contracts';

const api = vi.hoisted(() => ({
  tradingApi: { suggestion: vi.fn(), getOrders: vi.fn() },
  walletApi: { getPortfolio: vi.fn() },
}));
vi.mock('../../trading/trading-api', () => api);

import { makeOrder, renderSpot, SOL_USDC } from '../../trading/test/spot-fixtures';
import { BalancesStrip } from './balances-strip';

const ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const PORTFOLIO: TPortfolio = {
  total_value_usd: 1201.56,
  sol_balance: 2,
  sol_price_usd: 150.15,
  wallet_address: ADDRESS,
  tokens: [
    {
      symbol: 'USDC',
      name: 'USD Coin',
      balance: 901.260302,
      decimals: 6,
      price_usd: 1,
      value_usd: 901.26,
      mint_address: 'u',
    },
  ],
};

beforeEach(() => {
  api.tradingApi.suggestion.mockResolvedValue({
    symbol: 'SOL/USDC',
    suggested_side: 'Buy',
    available_balances: { SOL: 2.000000001, USDC: 901.260302 },
    price: 150.15,
  });
  api.walletApi.getPortfolio.mockResolvedValue(PORTFOLIO);
  api.tradingApi.getOrders.mockResolvedValue([
    makeOrder({ order_type: 'Limit', status: 'Pending', quantity: 0.5, price: 140, filled_quantity: 0 }),
    makeOrder(),
  ]);
});

afterEach(() => {
  vi.clearAllMocks();
});

function renderStrip() {
  return renderSpot(
    <BalancesStrip
      pair={SOL_USDC}
      walletAddress={ADDRESS}
      access={{ kind: 'solana', address: ADDRESS, walletType: 'solana' }}
    />,
  );
}

describe('BalancesStrip', () => {
  it('shows balances with the dashboard precision: USDC with 2 decimals, SOL with 4', async () => {
    renderStrip();
    const usdc = screen.getByTestId('balance-USDC');
    await waitFor(() => expect(within(usdc).getByRole('definition')).toHaveTextContent('901.26'));
    expect(within(usdc).getByRole('definition')).not.toHaveTextContent('901.260302');
    expect(within(screen.getByTestId('balance-SOL')).getByRole('definition')).toHaveTextContent('2.0000');
  });

  it("values the wallet as the dashboard's portfolio plus the funds pending limit orders escrow", async () => {
    renderStrip();
    const total = screen.getByTestId('balance-total');
    // 1,201.56 held + 0.5 SOL × 140 USDC escrowed by the pending buy.
    await waitFor(() => expect(within(total).getByRole('definition')).toHaveTextContent('$1,271.56'));
    expect(within(total).getByRole('definition')).toHaveAttribute(
      'title',
      'Holdings $1,201.56 + in open orders $70.00',
    );
  });
});
