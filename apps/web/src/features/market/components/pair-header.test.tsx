import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeRealtime } from '../../../test/fake-websocket';
import { fail, ok, renderMarket, stubApi } from '../test/market-test-utils';
import { selectionFromPair, selectionFromToken } from '../trading-state';
import { PairHeader } from './pair-header';

afterEach(() => vi.unstubAllGlobals());

function pairAnswer(price: number, change = 10.22) {
  return ok({
    pair: 'X/Y',
    base: 'X',
    quote: 'Y',
    base_mint: null,
    quote_mint: null,
    price,
    base_price_usd: 0.00003331267673,
    quote_price_usd: 185.8468233,
    change_24h: change,
    timestamp: '2030-01-01T00:00:00.000Z',
    source: 'simulator',
  });
}

describe('pair header: the precision table', () => {
  it.each([
    [1.792480288e-7, '1.79e-7 SOL'],
    [0.0099, '0.009900 SOL'],
    [0.5, '0.5000 SOL'],
    [491.3183, '491.32 SOL'],
  ])('shows a pair price of %s as %s', async (price, shown) => {
    stubApi((path) => (path.startsWith('/trading/pair/') ? pairAnswer(price) : undefined));
    renderMarket(<PairHeader selection={selectionFromPair('BONK/SOL')!} />);
    await waitFor(() => expect(screen.getByTestId('pair-price')).toHaveTextContent(shown));
    expect(screen.getByText('+10.22%')).toHaveClass('text-up');
    expect(screen.getByText('$0.000033')).toBeInTheDocument();
  });

  it('shows a stablecoin-quoted price in its quote token, apart from the base token in USD', async () => {
    // USDC at $0.9996: BTC/USDC is 91,301.68 USDC while BTC is $91,265.16, the coin card's figure.
    stubApi((path) =>
      path.startsWith('/trading/pair/')
        ? ok({
            pair: 'BTC/USDC',
            base: 'BTC',
            quote: 'USDC',
            base_mint: null,
            quote_mint: null,
            price: 91301.68285,
            base_price_usd: 91265.16217,
            quote_price_usd: 0.9996,
            change_24h: -3.27,
            timestamp: '2030-01-01T00:00:00.000Z',
            source: 'simulator',
          })
        : undefined,
    );
    renderMarket(<PairHeader selection={selectionFromPair('BTC/USDC')!} />);
    await waitFor(() => expect(screen.getByTestId('pair-price')).toHaveTextContent(/^91,301\.68 USDC$/));
    expect(screen.getByText('BTC in USD').nextElementSibling).toHaveTextContent('$91,265.16');
    expect(screen.getByText('-3.27%')).toHaveClass('text-down');
  });

  it('shows 0.00 and "USD price not available" when every source fails', async () => {
    const { paths } = stubApi((path) =>
      path.startsWith('/trading/pair/') || path.startsWith('/market/')
        ? fail(404, 'Token not found')
        : undefined,
    );
    renderMarket(
      <PairHeader selection={selectionFromToken({ symbol: 'NOPE', name: 'Nope', address: null }, 'SOL')} />,
    );
    expect(await screen.findByText('USD price not available')).toBeInTheDocument();
    expect(screen.getByTestId('pair-price')).toHaveTextContent('0.00 SOL');
    expect(paths).toEqual(['/trading/pair/NOPE%2FSOL', '/market/dashboard-coins', '/market/data/NOPE']);
  });

  it('follows the pair live from its one-minute candles, keeping the 24 h change consistent', async () => {
    stubApi((path) => (path.startsWith('/trading/pair/') ? pairAnswer(100, 25) : undefined));
    const realtime = createFakeRealtime();
    renderMarket(<PairHeader selection={selectionFromPair('SOL/USDC')!} />, { realtime });
    await waitFor(() => expect(screen.getByTestId('pair-price')).toHaveTextContent('100.00 USDC'));
    const socket = realtime.latest();
    act(() => socket.open());
    expect(socket.sentOfType('subscribe')).toEqual([{ type: 'subscribe', channel: 'candles:SOL/USDC:1' }]);
    act(() =>
      socket.receive({
        type: 'channel',
        channel: 'candles:SOL/USDC:1',
        data: {
          pair: 'SOL/USDC',
          interval: '1M',
          candle: { time: 1, open: 100, high: 120, low: 99, close: 120, volume: 5 },
          closed: false,
        },
      }),
    );
    expect(screen.getByTestId('pair-price')).toHaveTextContent('120.00 USDC');
    // 24 h ago the price was 100 / 1.25 = 80; 120 is +50 %.
    expect(screen.getByText('+50.00%')).toBeInTheDocument();
    expect(screen.getByTestId('live-indicator')).toHaveTextContent('Live');
  });
});
