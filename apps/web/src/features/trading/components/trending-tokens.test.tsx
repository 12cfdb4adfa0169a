import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

import { orderPrefillStore, useOrderPrefill } from '../order-prefill';
import { ok, renderMarket, stubApi } from '../../market/test/market-test-utils';
import { TrendingTokens } from './trending-tokens';
import { useTradingSelection } from '../../market/hooks/use-trading-selection';

const GOAT = {
  symbol: 'GOAT',
  name: 'Goatseus Maximus',
  address: 'CzLSujWBLFsSjncfkh59rUFqvafWcY5tzedWJSuypump',
  age: '2y 1mo',
  created_at: '2024-10-11T00:00:00.000Z',
  total_volume: 25680929.3,
  market_cap: 43144413.49,
  holders: 78901,
  price_change_24h: -11.96,
  price: 0.04314484494,
  market_cap_rank: 38,
  score: 0,
  thumb: 'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E',
  liquidity_usd: 3461889.53,
  pair_address: 'BxwpiviT4NABYRagL6EFiv9MGQBxPFkQovfJe7HmwkQJ',
  dex_id: 'raydium',
  chain_id: 'solana',
  decimals: 6,
};

afterEach(() => {
  vi.unstubAllGlobals();
  orderPrefillStore.set(null);
});

/** What the /trade page reads: the selected pair and the order prefill left for it. */
function TradeProbe() {
  const selection = useTradingSelection();
  const prefill = useOrderPrefill();
  return prefill && prefill.pair === selection.pair ? (
    <p data-testid="order-intent">
      Prefilled from {prefill.origin}: {prefill.side} {prefill.pair.split('/')[0]}
    </p>
  ) : null;
}

describe('trending tokens', () => {
  it('lists the trending fields', async () => {
    stubApi((path) =>
      path === '/trending/enhanced'
        ? ok([GOAT, { ...GOAT, symbol: 'BOME', score: 1, price_change_24h: 3.5, holders: null }])
        : undefined,
    );
    renderMarket(<TrendingTokens />, { route: '/trade' });
    const rows = await screen.findAllByTestId('trending-row');
    expect(rows).toHaveLength(2);
    const goat = within(rows[0]!);
    expect(goat.getByText('1')).toBeInTheDocument();
    expect(goat.getByText('GOAT')).toBeInTheDocument();
    expect(goat.getByText(/Rank #38/)).toBeInTheDocument();
    expect(goat.getByText('$0.0431')).toBeInTheDocument();
    expect(goat.getByText('-11.96%')).toHaveClass('text-down');
    expect(goat.getByText('$25.68M')).toBeInTheDocument();
    expect(goat.getByText('$43.14M')).toBeInTheDocument();
    expect(goat.getByText('78.9K')).toBeInTheDocument();
    expect(goat.getByText('2y 1mo')).toBeInTheDocument();
    expect(rows[0]!.querySelector('img')).toHaveAttribute('src', GOAT.thumb);
    expect(within(rows[1]!).getByText('+3.50%')).toHaveClass('text-up');
  });

  it('Buy switches to TOKEN/SOL and prefills the order panel', async () => {
    stubApi((path) => (path === '/trending/enhanced' ? ok([GOAT]) : undefined));
    const { store } = renderMarket(
      <>
        <TradeProbe />
        <TrendingTokens />
      </>,
      { route: '/trade' },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Buy GOAT with SOL' }));
    expect(store.getSelection('trade')).toMatchObject({ pair: 'GOAT/SOL', baseAddress: GOAT.address });
    expect(sonner.toast.success).toHaveBeenCalledWith('Switched to Goatseus Maximus', expect.anything());
    expect(orderPrefillStore.get()).toMatchObject({
      side: 'Buy',
      pair: 'GOAT/SOL',
      origin: 'Trending Tokens',
    });
    expect(await screen.findByTestId('order-intent')).toHaveTextContent(
      'Prefilled from Trending Tokens: Buy GOAT',
    );
  });

  it('marks a token that cannot be traded here before anyone clicks Buy', async () => {
    // Given the server says BOME/SOL is not tradable (live venue, unknown token) and GOAT/SOL is
    const { paths } = stubApi((path) => {
      if (path === '/trending/enhanced')
        return ok([GOAT, { ...GOAT, symbol: 'BOME', name: 'BOOK OF MEME', score: 1, address: null }]);
      if (path.startsWith('/trading/tradable')) {
        return ok({
          pairs: [
            { pair: 'BOME/SOL', tradable: false, reason: 'Trading pair BOME/SOL is not available' },
            { pair: 'GOAT/SOL', tradable: true, reason: null },
          ],
        });
      }
      return undefined;
    });
    renderMarket(<TrendingTokens />, { route: '/trade' });

    // Then BOME shows "Not tradable" instead of a Buy button, with the reason; GOAT keeps its Buy
    const notTradable = await screen.findByTestId('not-tradable');
    expect(notTradable).toHaveTextContent('Not tradable');
    expect(notTradable).toHaveAttribute('title', 'Trading pair BOME/SOL is not available');
    expect(screen.queryByRole('button', { name: 'Buy BOME with SOL' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Buy GOAT with SOL' })).toBeEnabled();
    // And the table asked once, for every row's TOKEN/SOL pair
    expect(paths.filter((path) => path.startsWith('/trading/tradable'))).toEqual([
      `/trading/tradable?pairs=${encodeURIComponent('BOME/SOL,GOAT/SOL')}`,
    ]);
  });

  it('shows an empty state', async () => {
    stubApi((path) => (path === '/trending/enhanced' ? ok([]) : undefined));
    renderMarket(<TrendingTokens />);
    expect(await screen.findByText('Nothing is trending right now')).toBeInTheDocument();
  });
});
