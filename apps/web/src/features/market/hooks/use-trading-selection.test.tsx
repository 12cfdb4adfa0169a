import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

import { renderMarket, stubApi } from '../test/market-test-utils';
import { selectionFromPair } from '../trading-state';
import { useSwitchPair, useTradingSelection } from './use-trading-selection';

function Switcher() {
  const selection = useTradingSelection();
  const switchPair = useSwitchPair();
  return (
    <>
      <p data-testid="pair">{selection.pair}</p>
      <button type="button" onClick={() => switchPair(selectionFromPair('BTC/SOL')!)}>
        btc
      </button>
      <button type="button" onClick={() => switchPair(selectionFromPair('ETH/SOL')!)}>
        eth
      </button>
    </>
  );
}

let clock = Date.UTC(2032, 0, 1);

beforeEach(() => {
  vi.useFakeTimers();
  clock += 3_600_000;
  vi.setSystemTime(clock);
  for (const fn of Object.values(sonner.toast)) fn.mockClear();
  stubApi(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('switching pair', () => {
  it('ignores a second switch within 100 ms and shows one toast', () => {
    renderMarket(<Switcher />, { route: '/trade' });
    fireEvent.click(screen.getByText('btc'));
    act(() => vi.advanceTimersByTime(99));
    fireEvent.click(screen.getByText('eth'));
    expect(screen.getByTestId('pair')).toHaveTextContent('BTC/SOL');
    expect(sonner.toast.success).toHaveBeenCalledTimes(1);
    expect(sonner.toast.success).toHaveBeenCalledWith('Switched to Bitcoin', expect.anything());

    act(() => vi.advanceTimersByTime(1));
    fireEvent.click(screen.getByText('eth'));
    expect(screen.getByTestId('pair')).toHaveTextContent('ETH/SOL');
    expect(sonner.toast.success).toHaveBeenLastCalledWith('Switched to Ethereum', expect.anything());
  });

  it('keeps each page context apart', () => {
    const { store } = renderMarket(<Switcher />, { route: '/dashboard' });
    fireEvent.click(screen.getByText('btc'));
    expect(store.getSelection('dashboard').pair).toBe('BTC/SOL');
    expect(store.getSelection('trade').pair).toBe('SOL/USDC');
  });

  it('takes the pair from the pair query parameter, and keeps the parameter in step with switches', async () => {
    vi.useRealTimers();
    const { store } = renderMarket(<Switcher />, { route: '/trade?pair=bonk/sol' });
    await waitFor(() => expect(screen.getByTestId('pair')).toHaveTextContent('BONK/SOL'));
    expect(store.getSelection('trade').baseName).toBe('Bonk');
    fireEvent.click(screen.getByText('eth'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/trade?pair=ETH%2FSOL'));
    expect(screen.getByTestId('pair')).toHaveTextContent('ETH/SOL');
  });

  it('ignores an unreadable pair parameter', () => {
    renderMarket(<Switcher />, { route: '/trade?pair=nonsense' });
    expect(screen.getByTestId('pair')).toHaveTextContent('SOL/USDC');
  });
});
