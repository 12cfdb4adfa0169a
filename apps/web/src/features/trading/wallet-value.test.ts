import { describe, expect, it } from 'vitest';
import type { TPortfolio } from '@solterm/contracts';
import { makeOrder } from './test/spot-fixtures';
import { getOrderEscrow, getWalletValue } from './wallet-value';

const PORTFOLIO: TPortfolio = {
  total_value_usd: 1350.5,
  sol_balance: 2,
  sol_price_usd: 150,
  wallet_address: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  tokens: [
    {
      symbol: 'USDC',
      name: 'USD Coin',
      balance: 1000,
      decimals: 6,
      price_usd: 1,
      value_usd: 1000,
      mint_address: 'u',
    },
    {
      symbol: 'BONK',
      name: 'Bonk',
      balance: 1,
      decimals: 5,
      price_usd: 0.00002,
      value_usd: 0.00002,
      mint_address: 'b',
    },
  ],
};

describe('wallet value', () => {
  it('a pending limit buy escrows the unfilled quantity times its price in the quote token', () => {
    const order = makeOrder({
      order_type: 'Limit',
      status: 'Pending',
      quantity: 0.5,
      price: 140,
      filled_quantity: 0.1,
    });
    expect(getOrderEscrow(order)?.token).toBe('USDC');
    expect(getOrderEscrow(order)?.amount.toString()).toBe('56');
  });

  it('a pending limit sell escrows the base token; filled, cancelled and market orders escrow nothing', () => {
    const sell = makeOrder({
      order_type: 'Limit',
      status: 'Pending',
      side: 'Sell',
      quantity: 0.3,
      filled_quantity: 0,
    });
    expect(getOrderEscrow(sell)).toMatchObject({ token: 'SOL' });
    expect(getOrderEscrow(sell)?.amount.toString()).toBe('0.3');
    expect(getOrderEscrow(makeOrder())).toBeNull();
    expect(getOrderEscrow(makeOrder({ order_type: 'Limit', status: 'Cancelled' }))).toBeNull();
  });

  it('is the portfolio total (tokens included) plus escrow valued at the portfolio prices, in decimals', () => {
    const value = getWalletValue(PORTFOLIO, [
      makeOrder({ order_type: 'Limit', status: 'Pending', quantity: 0.5, price: 140, filled_quantity: 0 }),
      makeOrder({ order_type: 'Limit', status: 'Pending', side: 'Sell', quantity: 0.1, filled_quantity: 0 }),
      makeOrder({
        symbol: 'BONK/SOL',
        order_type: 'Limit',
        status: 'Pending',
        side: 'Sell',
        quantity: 1000,
        filled_quantity: 0,
      }),
      makeOrder({
        symbol: 'WIF/SOL',
        order_type: 'Limit',
        status: 'Pending',
        side: 'Sell',
        quantity: 3,
        filled_quantity: 0,
      }),
      makeOrder(),
    ]);
    // 70 USDC + 0.1 SOL × 150 + 1000 BONK × 0.00002; WIF has no price here.
    expect(value.escrowedUsd.toString()).toBe('85.02');
    expect(value.totalUsd.toString()).toBe('1435.52');
    expect(value.unpricedOrders).toBe(1);
  });
});
