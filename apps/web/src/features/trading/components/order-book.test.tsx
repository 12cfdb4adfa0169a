import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TOrderBook } from '@solterm/contracts';

const api = vi.hoisted(() => ({
  tradingApi: { getOrderBook: vi.fn(), getTradable: vi.fn() },
  walletApi: {},
}));
vi.mock('../trading-api', () => api);

import { renderSpot, SOL_USDC } from '../test/spot-fixtures';
import {
  buildBookRows,
  formatBookSize,
  getBookPriceDecimals,
  getBookSizeDecimals,
  OrderBook,
} from './order-book';

const BOOK: TOrderBook = {
  symbol: 'SOL/USDC',
  mid_price: 150,
  spread: 0.2,
  buys: [
    { price: 149.8, amount: 2 },
    { price: 149.9, amount: 1 },
  ],
  sells: [
    { price: 150.2, amount: 3 },
    { price: 150.1, amount: 1 },
  ],
  updated_at: '2025-01-02T09:03:04.000Z',
};

afterEach(() => {
  vi.clearAllMocks();
});

beforeEach(() => {
  api.tradingApi.getTradable.mockImplementation(async (pairs: string[]) => ({
    pairs: pairs.map((pair) => ({ pair, tradable: true, reason: null })),
  }));
});

describe('order book rows', () => {
  it('orders each side outward from the spread with cumulative depth', () => {
    const { asks, bids } = buildBookRows(BOOK);
    expect(asks.map((row) => [row.price, row.cumulative.toString(), row.depth])).toEqual([
      [150.1, '1', 0.25],
      [150.2, '4', 1],
    ]);
    expect(bids.map((row) => [row.price, row.cumulative.toString(), row.depth])).toEqual([
      [149.9, '1', 0.25],
      [149.8, '3', 0.75],
    ]);
  });

  it('prints enough decimals to tell neighbouring levels apart', () => {
    expect(getBookPriceDecimals([150.1, 150.2], 150)).toBe(2);
    expect(getBookPriceDecimals([183.82, 183.821, 183.83], 183.8)).toBe(3);
    expect(getBookPriceDecimals([0.5, 0.5001], 0.5)).toBe(4);
    expect(getBookPriceDecimals([1.8e-7, 1.81e-7], 1.8e-7)).toBe(9);
  });

  it('sizes fit the narrow columns', () => {
    expect(formatBookSize(1361.93941)).toBe('1,361.94');
    expect(formatBookSize(13.61571)).toBe('13.6157');
    expect(formatBookSize(12_345_678)).toBe('12.35M');
  });

  it("a cheap token's deep book prints whole sizes", () => {
    expect(getBookSizeDecimals([1.5, 999.9])).toBe(4);
    expect(getBookSizeDecimals([1.5, 1361.9])).toBe(2);
    expect(getBookSizeDecimals([2682.89, 536_577.83])).toBe(0);
    expect(formatBookSize(536_577.83, 0)).toBe('536,578');
  });
});

describe('OrderBook', () => {
  it('shows asks above rising upward, the mid and spread, bids below', async () => {
    api.tradingApi.getOrderBook.mockResolvedValue(BOOK);
    renderSpot(<OrderBook pair={SOL_USDC} />);
    const asks = await screen.findAllByTestId('book-ask');
    // Rendered nearest-first inside a column-reverse box: on screen the highest ask is on top.
    expect(asks.map((row) => row.textContent)).toEqual(['150.101.00001.0000', '150.203.00004.0000']);
    expect(screen.getByTestId('book-asks')).toHaveClass('flex-col-reverse');
    expect(screen.getByTestId('book-mid')).toHaveTextContent('150.00');
    expect(screen.getByTestId('book-mid')).toHaveTextContent('Spread 0.20 · 13.3 bps');
    expect(screen.getAllByTestId('book-bid').map((row) => row.textContent)).toEqual([
      '149.901.00001.0000',
      '149.802.00003.0000',
    ]);
    expect(api.tradingApi.getOrderBook).toHaveBeenCalledWith('SOL/USDC', expect.anything());
  });

  it('keeps the price and size decimals of a market between refreshes', async () => {
    // The first book needs three decimals to tell 150.101 from 150.104; the refresh would need two.
    api.tradingApi.getOrderBook.mockResolvedValue({
      ...BOOK,
      sells: [
        { price: 150.101, amount: 1 },
        { price: 150.104, amount: 1500 },
      ],
    });
    const { queryClient } = renderSpot(<OrderBook pair={SOL_USDC} />);
    await screen.findAllByTestId('book-ask');
    const firstAsk = () => screen.getAllByTestId('book-ask')[0]!;
    expect(firstAsk().children[1]!.textContent).toBe('150.101');

    api.tradingApi.getOrderBook.mockResolvedValue(BOOK);
    await act(() => queryClient.refetchQueries());
    await waitFor(() => expect(firstAsk().children[1]!.textContent).toBe('150.100'));
    expect(screen.getByTestId('book-mid')).toHaveTextContent('150.000');
    // Sizes keep one number of decimals down the column, whatever the refresh holds.
    const sizes = screen.getAllByTestId('book-ask').map((row) => row.children[2]!.textContent);
    expect(sizes).toEqual(['1.00', '3.00']);
  });

  it('hands a clicked price to the order form', async () => {
    api.tradingApi.getOrderBook.mockResolvedValue(BOOK);
    const onPickPrice = vi.fn();
    renderSpot(<OrderBook pair={SOL_USDC} onPickPrice={onPickPrice} />);
    const bids = await screen.findAllByTestId('book-bid');
    await userEvent.setup().click(bids[0]!);
    expect(onPickPrice).toHaveBeenCalledWith(149.9);
  });

  it('says when the book is unavailable', async () => {
    api.tradingApi.getOrderBook.mockRejectedValue(new Error('down'));
    renderSpot(<OrderBook pair={SOL_USDC} />);
    expect(
      await within(screen.getByTestId('order-book')).findByText('Order book unavailable'),
    ).toBeInTheDocument();
  });

  it('shows a clear "Not tradable" state for an untradable pair and never polls its book', async () => {
    api.tradingApi.getTradable.mockImplementation(async (pairs: string[]) => ({
      pairs: pairs.map((pair) => ({
        pair,
        tradable: false,
        reason: `Trading pair ${pair} is not available`,
      })),
    }));
    renderSpot(<OrderBook pair={SOL_USDC} />);
    expect(await screen.findByText('Not tradable')).toBeInTheDocument();
    expect(screen.getByText(/cannot be traded here: Trading pair .* is not available/)).toBeInTheDocument();
    expect(api.tradingApi.getOrderBook).not.toHaveBeenCalled();
  });
});
