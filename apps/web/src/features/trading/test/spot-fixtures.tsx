import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TPosition, TSpotOrder, TTrade } from '@solterm/contracts';
import { createTestQueryClient } from '../../../test/test-utils';
import type { SpotPair } from '../order-form-model';

export const SOL_USDC: SpotPair = {
  pair: 'SOL/USDC',
  pairId: 'SOL/USDC',
  base: 'SOL',
  quote: 'USDC',
  baseDecimals: 9,
  quoteDecimals: 6,
};

export const TX_HASH =
  '5VfYmGC7Ux3Wq9ZJd4rF6Zb2k8sRkR8yDzvZcXnLJtfTqKx1n2Bq6m7cRkW3d9Hc4zjB2AfD2pLQ1o3rV7sCxh1A';

export function makeOrder(overrides: Partial<TSpotOrder> = {}): TSpotOrder {
  return {
    id: '6f1c2f1e-9a55-4c0c-8b7b-0d3b1c1c0001',
    symbol: 'SOL/USDC',
    order_type: 'Market',
    side: 'Buy',
    quantity: 0.5,
    price: 150,
    stop_price: null,
    leverage: 1,
    status: 'Filled',
    created_at: '2025-01-02T09:03:04.000Z',
    updated_at: '2025-01-02T09:03:05.000Z',
    tx_hash: TX_HASH,
    settlement_tx_hash: null,
    filled_quantity: 0.5,
    average_fill_price: 150.12,
    receipt: null,
    ...overrides,
  };
}

export function makeTrade(overrides: Partial<TTrade> = {}): TTrade {
  return {
    id: 'trade-1',
    order_id: 'order-1',
    symbol: 'SOL/USDC',
    side: 'Sell',
    quantity: 0.4,
    price: 183.42,
    value: 73.368,
    order_type: 'Market',
    status: 'Filled',
    tx_hash: TX_HASH,
    timestamp: '2025-01-02T09:03:04.000Z',
    created_at: '2025-01-02T09:03:04.000Z',
    receipt: {
      quoted_price: 183.58,
      filled_price: 183.42,
      slippage_bps: 8.6,
      network_fee_sol: 0.000005,
      venue_fee: 0.036702,
      time_to_land_ms: 654,
      priority_fee_micro_lamports: 0,
    },
    ...overrides,
  };
}

export function makePosition(overrides: Partial<TPosition> = {}): TPosition {
  return {
    symbol: 'SOL/USDC',
    base_symbol: 'SOL',
    quote_symbol: 'USDC',
    side: 'Long',
    size: 1.25,
    average_entry_price: 140,
    mark_price: 150,
    value: 187.5,
    unrealized_pnl: 12.5,
    pnl_percent: 7.142857,
    realized_pnl: -0.5,
    ...overrides,
  };
}

/** Renders inside a fresh query cache and a memory router. */
export function renderSpot(ui: ReactElement, queryClient: QueryClient = createTestQueryClient()) {
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/trade']}>{children}</MemoryRouter>
      </QueryClientProvider>
    );
  }
  return { ...render(ui, { wrapper: Wrapper }), queryClient };
}
