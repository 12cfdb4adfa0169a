import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

import {
  fail,
  makeSearchResult,
  ok,
  renderMarket,
  stubApi,
  type MarketRoute,
} from '../../market/test/market-test-utils';
import { TokenSearch } from './token-search';

const BONK = makeSearchResult({ symbol: 'BONK', name: 'Bonk' });
const FIDA = makeSearchResult({
  symbol: 'FIDA',
  name: 'Bonfida',
  address: 'EchesyfXePKdLtoiZSL8pBe8Myagyy8ZRqsACNCFGnvp',
  market_cap: 137246241.78,
  price: 0.2287437363,
  current_price: 0.2287437363,
});
const BOME = makeSearchResult({
  symbol: 'BOME',
  name: 'BOOK OF MEME',
  address: 'ukHH6c7mMyiWCf1b9pnWe25TSpkDDt3H5pQZgZ74J82',
  market_cap: 78670278.45,
  price: 0.001140148963,
});
const BOBA = makeSearchResult({
  symbol: 'BOBA',
  name: 'Boba Network',
  address: '0x42bbfa2e77757c645eeaad1655e0911a7553efbc',
  chain_id: 'ethereum',
  dex_id: 'uniswap',
  market_cap: 12000000,
});

let clock = Date.UTC(2031, 0, 1);

beforeEach(() => {
  vi.useFakeTimers();
  clock += 3_600_000;
  vi.setSystemTime(clock);
  for (const fn of Object.values(sonner.toast)) fn.mockClear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets fetches, JSON parsing and React updates finish (fake timers do not run promises by themselves). */
async function settle(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  for (let round = 0; round < 5; round += 1) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
  }
}

function routes(answers: { primary?: MarketRoute; fallback?: MarketRoute }) {
  return stubApi((path) => {
    if (path.startsWith('/trading/dexscreener')) return answers.primary ?? ok([]);
    if (path.startsWith('/trading/solscan')) return answers.fallback ?? ok([]);
    if (path.startsWith('/trading/pair/')) return ok({ price: 1 });
    return undefined;
  });
}

/** The search calls among all calls (results pages also ask GET /trading/tradable). */
function searchPaths(paths: readonly string[]) {
  return paths.filter((path) => /^\/trading\/(dexscreener|solscan)/.test(path));
}

function input() {
  return screen.getByRole('combobox', { name: 'Search tokens' });
}

function type(text: string) {
  fireEvent.focus(input());
  fireEvent.change(input(), { target: { value: text } });
}

describe('top-bar token search', () => {
  it('has the spec placeholder', () => {
    routes({});
    renderMarket(<TokenSearch />);
    expect(input()).toHaveAttribute('placeholder', 'Search tokens (BTC, ETH, SOL...)');
  });

  it('searches 300 ms after the last keystroke, once', async () => {
    const { paths } = routes({ primary: ok([BONK, FIDA, BOME]) });
    renderMarket(<TokenSearch />);
    type('b');
    type('bo');
    await settle(299);
    expect(paths).toEqual([]);
    await settle(1);
    expect(searchPaths(paths)).toEqual(['/trading/dexscreener?query=bo&limit=20']);
    expect(screen.getAllByTestId('search-result').map((row) => row.dataset.symbol)).toEqual([
      'BONK',
      'FIDA',
      'BOME',
    ]);
  });

  it('clears the results under 2 characters, without a call', async () => {
    const { paths } = routes({ primary: ok([BONK, FIDA, BOME]) });
    renderMarket(<TokenSearch />);
    type('bo');
    await settle(300);
    expect(screen.getAllByTestId('search-result')).toHaveLength(3);
    type('b');
    await settle(1000);
    expect(screen.queryByTestId('search-dropdown')).not.toBeInTheDocument();
    expect(searchPaths(paths)).toHaveLength(1);
    // Two characters again searches again.
    type('bo');
    await settle(300);
    expect(searchPaths(paths)).toHaveLength(2);
  });

  it('searches at once on Enter, trimmed, and the pending debounce does not search again', async () => {
    const { paths } = routes({ primary: ok([BONK, FIDA, BOME]) });
    renderMarket(<TokenSearch />);
    type('  bonk  ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await settle();
    expect(searchPaths(paths)).toEqual(['/trading/dexscreener?query=bonk&limit=20']);
    await settle(1000);
    expect(searchPaths(paths)).toHaveLength(1);
  });

  it('ignores Enter on empty or blank text', async () => {
    const { paths } = routes({});
    renderMarket(<TokenSearch />);
    type('   ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await settle(1000);
    expect(paths).toEqual([]);
  });

  it('asks the fallback source when the first gives fewer than 3 results, and merges them', async () => {
    const { paths } = routes({ primary: ok([BONK, FIDA]), fallback: ok([FIDA, BOME]) });
    renderMarket(<TokenSearch />);
    type('bo');
    await settle(300);
    expect(searchPaths(paths)).toEqual([
      '/trading/dexscreener?query=bo&limit=20',
      '/trading/solscan?query=bo&limit=15',
    ]);
    expect(screen.getAllByTestId('search-result').map((row) => row.dataset.symbol)).toEqual([
      'BONK',
      'FIDA',
      'BOME',
    ]);
  });

  it('does not ask the fallback with 3 results or more', async () => {
    const { paths } = routes({ primary: ok([BONK, FIDA, BOME]) });
    renderMarket(<TokenSearch />);
    type('bo');
    await settle(300);
    expect(paths.filter((path) => path.startsWith('/trading/solscan'))).toEqual([]);
  });

  it('shows at most 15 results, largest market cap first, without symbol-less entries', async () => {
    const many = Array.from({ length: 20 }, (_, index) =>
      makeSearchResult({
        symbol: `T${index}`,
        address: `${index}`.padStart(3, '0'),
        market_cap: index * 1000,
      }),
    );
    routes({ primary: ok([...many, makeSearchResult({ symbol: '  ', market_cap: 1e15 })]) });
    renderMarket(<TokenSearch />);
    type('to');
    await settle(300);
    const symbols = screen.getAllByTestId('search-result').map((row) => row.dataset.symbol);
    expect(symbols).toHaveLength(15);
    expect(symbols[0]).toBe('T19');
    expect(symbols[14]).toBe('T5');
  });

  it('shows every field of a result', async () => {
    routes({ primary: ok([BONK, BOBA, BOME]) });
    renderMarket(<TokenSearch />);
    type('bo');
    await settle(300);
    const rows = screen.getAllByTestId('search-result');
    const bonk = rows.find((element) => element.dataset.symbol === 'BONK');
    const boba = rows.find((element) => element.dataset.symbol === 'BOBA');
    const row = within(bonk!);
    expect(row.getByText('BONK')).toBeInTheDocument();
    expect(row.getByText('raydium')).toBeInTheDocument();
    expect(row.getByText('Bonk')).toBeInTheDocument();
    expect(row.getByText('DezX...B263')).toBeInTheDocument();
    expect(row.getByRole('button', { name: /Copy address DezX/ })).toBeInTheDocument();
    expect(row.getByText('$2,567.38M')).toBeInTheDocument();
    expect(row.getByText('$0.000033')).toBeInTheDocument();
    expect(row.getByRole('button', { name: 'Trade BONK/SOL' })).toBeInTheDocument();
    expect(row.getByRole('button', { name: 'Trade BONK/USDC' })).toBeInTheDocument();
    expect(row.getByRole('button', { name: 'Trade BONK/USDT' })).toBeInTheDocument();
    // Solana results carry no chain tag; others do.
    expect(row.queryByText('Solana')).not.toBeInTheDocument();
    expect(within(boba!).getByText('Ethereum')).toBeInTheDocument();
  });

  it('says so when nothing is found', async () => {
    routes({ primary: ok([]), fallback: ok([]) });
    renderMarket(<TokenSearch />);
    type('zzz');
    await settle(300);
    const dropdown = within(screen.getByTestId('search-dropdown'));
    expect(dropdown.getByText('No results found')).toBeInTheDocument();
    expect(dropdown.getByText('Try searching for BTC, ETH, SOL, etc.')).toBeInTheDocument();
  });

  it('shows "Search failed: " before the reason the server gives when no source answers', async () => {
    // The server's 502 MARKET__SEARCH_FAILED carries only the reason; the client adds the prefix.
    routes({
      primary: fail(502, 'DexScreener did not answer within 10 s', 'MARKET__SEARCH_FAILED'),
      fallback: fail(502, 'Jupiter is unavailable (HTTP 500)', 'MARKET__SEARCH_FAILED'),
    });
    renderMarket(<TokenSearch />);
    type('bo');
    await settle(300);
    expect(screen.getByRole('alert')).toHaveTextContent(
      /^Search failed: DexScreener did not answer within 10 s(?!.*Search failed)/,
    );
  });

  it('reads a success:false answer as a failure too', async () => {
    routes({
      primary: { status: 200, body: { success: false, error: 'rate limited' } },
      fallback: { status: 200, body: { success: false, error: 'down' } },
    });
    renderMarket(<TokenSearch />);
    type('bo');
    await settle(300);
    expect(screen.getByRole('alert')).toHaveTextContent('Search failed: rate limited');
  });

  it('keeps the first source results when only the fallback fails', async () => {
    routes({ primary: ok([BONK]), fallback: fail(500, 'boom') });
    renderMarket(<TokenSearch />);
    type('bo');
    await settle(300);
    expect(screen.getAllByTestId('search-result')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('switches the pair to SYMBOL/QUOTE on a quote option, toasts, and clears the search', async () => {
    routes({ primary: ok([BONK, FIDA, BOME]) });
    const { store } = renderMarket(<TokenSearch />, { route: '/dashboard' });
    type('bo');
    await settle(300);
    fireEvent.click(screen.getByRole('button', { name: 'Trade BONK/USDC' }));
    await settle();
    expect(store.getSelection('dashboard')).toMatchObject({
      pair: 'BONK/USDC',
      baseAddress: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
      baseName: 'Bonk',
    });
    expect(store.getSelection('trade').pair).toBe('SOL/USDC');
    expect(sonner.toast.success).toHaveBeenCalledWith('Switched to Bonk', expect.anything());
    expect(screen.queryByTestId('search-dropdown')).not.toBeInTheDocument();
    expect(input()).toHaveValue('');
  });

  it('moves with the arrow keys, picks with Enter (quote SOL) and closes with Escape', async () => {
    routes({ primary: ok([BONK, FIDA, BOME]) });
    const { store } = renderMarket(<TokenSearch />, { route: '/trade' });
    type('bo');
    await settle(300);
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'ArrowUp' });
    const rows = screen.getAllByTestId('search-result');
    expect(rows[1]).toHaveAttribute('aria-current', 'true');

    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(screen.queryByTestId('search-dropdown')).not.toBeInTheDocument();
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(screen.getByTestId('search-dropdown')).toBeInTheDocument();

    fireEvent.keyDown(input(), { key: 'Enter' });
    await settle();
    expect(store.getSelection('trade').pair).toBe('BONK/SOL');
  });

  it('closes on a click outside', async () => {
    routes({ primary: ok([BONK, FIDA, BOME]) });
    renderMarket(
      <div>
        <TokenSearch />
        <p>outside</p>
      </div>,
    );
    type('bo');
    await settle(300);
    expect(screen.getByTestId('search-dropdown')).toBeInTheDocument();
    fireEvent.pointerDown(screen.getByText('outside'));
    expect(screen.queryByTestId('search-dropdown')).not.toBeInTheDocument();
  });

  it('opens /trade when a token is picked on a page without a chart', async () => {
    routes({ primary: ok([BONK, FIDA, BOME]) });
    const { store } = renderMarket(<TokenSearch />, { route: '/bots' });
    type('bo');
    await settle(300);
    fireEvent.click(screen.getByRole('button', { name: 'Trade FIDA/USDT' }));
    await settle();
    expect(screen.getByTestId('location')).toHaveTextContent('/trade');
    expect(store.getSelection('trade').pair).toBe('FIDA/USDT');
  });

  it('marks the results that cannot be traded, asking once per results page, and still switches on a pick', async () => {
    // Given the server says BOBA/SOL (an Ethereum token) cannot be traded and the others can
    const BOME_PAIR = 'ukHH6c7mMyiWCf1b9pnWe25TSpkDDt3H5pQZgZ74J82/SOL';
    const reason = 'Trading pair BOBA/SOL is not available';
    const { paths } = stubApi((path) => {
      if (path.startsWith('/trading/dexscreener')) return ok([BONK, BOBA, BOME]);
      if (path.startsWith('/trading/tradable')) {
        return ok({
          pairs: [
            { pair: 'BOBA/SOL', tradable: false, reason },
            { pair: 'BONK/SOL', tradable: true, reason: null },
            { pair: BOME_PAIR, tradable: true, reason: null },
          ],
        });
      }
      if (path.startsWith('/trading/pair/')) return ok({ price: 1 });
      return undefined;
    });
    const { store } = renderMarket(<TokenSearch />, { route: '/trade' });
    type('bo');
    await settle(300);

    // Then only BOBA carries a muted "Not tradable" tag, with the reason on hover and for screen readers
    const rows = screen.getAllByTestId('search-result');
    const boba = rows.find((row) => row.dataset.symbol === 'BOBA')!;
    const tag = within(boba).getByTestId('not-tradable');
    expect(tag).toHaveTextContent(/^Not tradable/);
    expect(tag).toHaveAttribute('title', reason);
    expect(tag).toHaveTextContent(reason);
    expect(screen.getAllByTestId('not-tradable')).toHaveLength(1);
    // And one request asked for the pair each result opens (a token with its own mint by its mint)
    expect(paths.filter((path) => path.startsWith('/trading/tradable'))).toEqual([
      `/trading/tradable?pairs=${encodeURIComponent(['BOBA/SOL', 'BONK/SOL', BOME_PAIR].join(','))}`,
    ]);
    // And the row still switches the pair with its toast: the tag informs, it does not block
    fireEvent.click(boba);
    await settle();
    expect(store.getSelection('trade').pair).toBe('BOBA/SOL');
    expect(sonner.toast.success).toHaveBeenCalledWith('Switched to Boba Network', expect.anything());
  });

  it('hides nothing when the tradability check fails', async () => {
    const { paths } = stubApi((path) => {
      if (path.startsWith('/trading/dexscreener')) return ok([BONK, BOBA, BOME]);
      if (path.startsWith('/trading/tradable')) return fail(500, 'boom');
      return undefined;
    });
    renderMarket(<TokenSearch />);
    type('bo');
    await settle(300);
    expect(paths.filter((path) => path.startsWith('/trading/tradable'))).toHaveLength(1);
    expect(screen.getAllByTestId('search-result')).toHaveLength(3);
    expect(screen.queryByTestId('not-tradable')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Trade BOBA/SOL' })).toBeEnabled();
  });

  it('offers no SOL/SOL', async () => {
    routes({
      primary: ok([
        makeSearchResult({
          symbol: 'SOL',
          name: 'Solana',
          address: 'So11111111111111111111111111111111111111112',
        }),
      ]),
    });
    renderMarket(<TokenSearch />);
    type('so');
    await settle(300);
    expect(screen.getByRole('button', { name: 'Trade SOL/SOL' })).toBeDisabled();
  });
});
