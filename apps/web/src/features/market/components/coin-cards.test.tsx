import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

import { createFakeRealtime } from '../../../test/fake-websocket';
import { ok, renderMarket, stubApi } from '../test/market-test-utils';
import { CoinCards } from './coin-cards';

const COINS = {
  btc: { price: 91301.68285, change_24h: -3.27 },
  eth: { price: 2948.187932, change_24h: 1.05 },
  sol: { price: 185.827408, change_24h: -3.46 },
};

function history(symbol: string) {
  return ok({
    symbol,
    interval: '1H',
    points: [0, 1, 2].map((index) => ({
      timestamp: new Date(index * 3_600_000).toISOString(),
      time: index * 3600,
      price: String(100 + index),
      volume: 1,
    })),
  });
}

function stubCoins(coins: unknown = COINS) {
  return stubApi((path) => {
    if (path === '/market/dashboard-coins') return ok(coins);
    const match = /^\/market\/data\/(\w+)\/history/.exec(path);
    if (match) return history(match[1]!);
    return undefined;
  });
}

beforeEach(() => {
  for (const fn of Object.values(sonner.toast)) fn.mockClear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('dashboard coin cards', () => {
  it('shows BTC, ETH and SOL with price and 24 h change, green or red', async () => {
    stubCoins();
    renderMarket(<CoinCards />);
    expect(await screen.findByText('$91,301.68')).toBeInTheDocument();
    expect(screen.getByText('$2,948.19')).toBeInTheDocument();
    expect(screen.getByText('$185.83')).toBeInTheDocument();
    const btc = within(screen.getByTestId('coin-card-btc'));
    expect(btc.getByText('-3.27%')).toHaveClass('text-down');
    expect(within(screen.getByTestId('coin-card-eth')).getByText('+1.05%')).toHaveClass('text-up');
    expect(btc.getByText('BTC/SOL')).toBeInTheDocument();
    expect(within(screen.getByTestId('coin-card-sol')).getByText('SOL/USDC')).toBeInTheDocument();
  });

  it('reads prices sent as JSON numbers', async () => {
    stubCoins({
      btc: { price: 91301.68285, change_24h: -3.27 },
      eth: { price: 2948.187932, change_24h: 1.05 },
      sol: { price: 0.5, change_24h: 0 },
    });
    renderMarket(<CoinCards />);
    expect(await screen.findByText('$91,301.68')).toBeInTheDocument();
    expect(screen.getByText('$0.5000')).toBeInTheDocument();
  });

  it('moves with the prices channel', async () => {
    stubCoins();
    const realtime = createFakeRealtime();
    renderMarket(<CoinCards />, { realtime });
    await screen.findByText('$91,301.68');
    const socket = realtime.latest();
    act(() => socket.open());
    expect(socket.sentOfType('subscribe')).toEqual([{ type: 'subscribe', channel: 'prices' }]);
    act(() =>
      socket.receive({
        type: 'channel',
        channel: 'prices',
        data: {
          timestamp: '2030-01-01T00:00:00.000Z',
          prices: {
            BTC: { price: 91400.5, change_24h: -3.1 },
            SOL: { price: 186.5, change_24h: -3.2 },
            BONK: { price: 0.00003, change_24h: 1 },
          },
        },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('coin-price-btc')).toHaveTextContent('$91,400.50'));
    expect(screen.getByTestId('coin-price-sol')).toHaveTextContent('$186.50');
    expect(screen.getByTestId('coin-price-eth')).toHaveTextContent('$2,948.19');
  });

  it('sets the dashboard pair on click: BTC/SOL, ETH/SOL, SOL/USDC', async () => {
    stubCoins();
    const { store } = renderMarket(<CoinCards />, { route: '/dashboard' });
    await screen.findByText('$91,301.68');
    fireEvent.click(screen.getByTestId('coin-card-eth'));
    expect(store.getSelection('dashboard').pair).toBe('ETH/SOL');
    expect(store.getSelection('trade').pair).toBe('SOL/USDC');
    expect(sonner.toast.success).toHaveBeenCalledWith('Switched to Ethereum', expect.anything());
    await waitFor(() => expect(screen.getByTestId('coin-card-eth')).toHaveAttribute('aria-pressed', 'true'));
  });

  it('polls every 120 s only while the socket is down', async () => {
    vi.useFakeTimers();
    const { paths } = stubCoins();
    // No pongs come from the fake server: keep the heartbeat out of this test.
    const realtime = createFakeRealtime({ pingIntervalMs: 3_600_000 });
    renderMarket(<CoinCards />, { realtime });
    const coinCalls = () => paths.filter((path) => path === '/market/dashboard-coins').length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(coinCalls()).toBe(1);

    act(() => realtime.latest().open());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(240_000);
    });
    expect(coinCalls()).toBe(1);

    act(() => realtime.latest().drop());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(120_000);
    });
    expect(coinCalls()).toBe(2);
  });
});
