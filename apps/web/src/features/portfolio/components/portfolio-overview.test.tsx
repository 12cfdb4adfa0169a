import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

import type { TPortfolio } from '@solterm/contracts';
import { makeUser } from '../../../test/test-utils';
import { fail, ok, stubApi } from '../../market/test/market-test-utils';
import {
  makeAuth,
  makeTrader,
  makeWallet,
  renderTradingWidget,
  WALLET_ADDRESS,
} from '../../trading/test/trading-test-utils';
import { WALLET_STATE_CHANGED_EVENT } from '../../wallet/wallet-storage';
import { PortfolioOverview } from './portfolio-overview';

const PORTFOLIO: TPortfolio = {
  total_value_usd: 1150,
  sol_balance: 1,
  sol_price_usd: 150,
  wallet_address: WALLET_ADDRESS,
  tokens: [
    {
      symbol: 'USDC',
      name: 'USD Coin',
      balance: 1000,
      decimals: 6,
      price_usd: 1,
      value_usd: 1000,
      mint_address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    },
  ],
};

const health = (network: string) => ok({ status: 'ok', network });

beforeEach(() => {
  for (const fn of Object.values(sonner.toast)) fn.mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('PortfolioOverview', () => {
  it("values SOL at the dashboard's one live SOL price (the coin card's), not the portfolio's older one", async () => {
    const coin = (price: number) => ({ price, change_24h: 1.5 });
    stubApi((path) => {
      if (path === '/health') return health('localnet');
      if (path === '/wallet/portfolio') return ok({ ...PORTFOLIO, sol_balance: 2, total_value_usd: 1300 });
      if (path === '/market/dashboard-coins')
        return ok({ btc: coin(97000), eth: coin(3400), sol: coin(151.25) });
      return undefined;
    });
    renderTradingWidget(<PortfolioOverview />);

    // 1,000 USDC + 2 SOL × 151.25 (the coin card's price), not 2 × 150.
    await waitFor(() => expect(screen.getByTestId('portfolio-total')).toHaveTextContent('$1,302.50'));
    expect(screen.getAllByText('$151.25')).toHaveLength(2); // the SOL price figure and the SOL row
    expect(screen.queryByText('$150.00')).not.toBeInTheDocument();
    expect(screen.getByText('≈ $302.50')).toBeInTheDocument();
  });

  it('shows total value, SOL with its USD value and every token', async () => {
    stubApi((path) => {
      if (path === '/health') return health('localnet');
      if (path === '/wallet/portfolio') return ok(PORTFOLIO);
      return undefined;
    });
    renderTradingWidget(<PortfolioOverview />);

    expect(await screen.findByTestId('portfolio-total')).toHaveTextContent('$1,150.00');
    expect(screen.getByTestId('portfolio-sol')).toHaveTextContent('1.0000SOL');
    expect(screen.getByText('≈ $150.00')).toBeInTheDocument();
    const usdc = screen.getByTestId('holding-USDC');
    expect(usdc).toHaveTextContent('USDC');
    expect(within(usdc).getByTestId('holding-balance-USDC')).toHaveTextContent('1,000.00');
    expect(usdc).toHaveTextContent('$1,000.00');
  });

  it('funds the wallet on a test network and refetches', async () => {
    let fundedCalls = 0;
    const { paths } = stubApi((path, method) => {
      if (path === '/health') return health('localnet');
      if (path === '/wallet/portfolio') return ok(PORTFOLIO);
      if (path === '/wallet/fund' && method === 'POST') {
        fundedCalls += 1;
        return ok({
          wallet_address: WALLET_ADDRESS,
          amount_sol: 1,
          signature: 'sig',
          sol_balance: 2,
          amount_usdc: 1000,
          usdc_signature: 'sig2',
          usdc_balance: 2000,
        });
      }
      return undefined;
    });
    renderTradingWidget(<PortfolioOverview />);
    const fund = await screen.findByRole('button', { name: 'Fund wallet with test SOL and USDC' });
    const before = paths.filter((path) => path === '/wallet/portfolio').length;

    fireEvent.click(fund);

    await waitFor(() =>
      expect(sonner.toast.success).toHaveBeenCalledWith(
        'Funded 1.0000 SOL and 1,000.00 USDC',
        expect.anything(),
      ),
    );
    expect(fundedCalls).toBe(1);
    await waitFor(() =>
      expect(paths.filter((path) => path === '/wallet/portfolio').length).toBeGreaterThan(before),
    );
  });

  it('shows wrapped SOL as wSOL worth SOL beside native SOL, and unwraps it with the wallet’s signature', async () => {
    const wsol = {
      symbol: 'wSOL',
      name: 'Wrapped SOL',
      balance: 2.489,
      decimals: 9,
      price_usd: 150,
      value_usd: 373.35,
      mint_address: 'So11111111111111111111111111111111111111112',
    };
    let executed = 0;
    stubApi((path, method) => {
      if (path === '/health') return health('localnet');
      if (path === '/wallet/portfolio') return ok({ ...PORTFOLIO, tokens: [wsol], total_value_usd: 523.35 });
      if (path === '/wallet/unwrap-sol' && method === 'POST')
        return ok({
          unsigned_transaction: 'AAAA',
          last_valid_block_height: '100',
          wallet_address: WALLET_ADDRESS,
          amount: 2.489,
          sol_returned: 2.49103928,
          size_bytes: 200,
        });
      if (path === '/trading/execute-signed-transaction' && method === 'POST') {
        executed += 1;
        return ok({ transaction_hash: 'sig', order: null });
      }
      return undefined;
    });
    const wallet = makeWallet();
    renderTradingWidget(<PortfolioOverview />, { wallet });

    const row = await screen.findByTestId('holding-wSOL');
    expect(row).toHaveTextContent('Wrapped SOL');
    expect(row).toHaveTextContent('$373.35');
    // Native SOL keeps its own row and figure: not hidden behind the wrapped one, not $0.
    expect(screen.getByTestId('holding-SOL')).toHaveTextContent('$150.00');
    expect(screen.getByText('≈ $150.00')).toBeInTheDocument();

    fireEvent.click(within(row).getByRole('button', { name: 'Unwrap' }));
    await waitFor(() =>
      expect(sonner.toast.success).toHaveBeenCalledWith('Unwrapped 2.4890 wSOL into SOL', expect.anything()),
    );
    expect(wallet.signTransaction).toHaveBeenCalledTimes(1);
    expect(executed).toBe(1);
  });

  it('hides Fund on mainnet', async () => {
    stubApi((path) => {
      if (path === '/health') return health('mainnet');
      if (path === '/wallet/portfolio') return ok(PORTFOLIO);
      return undefined;
    });
    renderTradingWidget(<PortfolioOverview />);
    await screen.findByTestId('portfolio-total');
    expect(screen.queryByRole('button', { name: /Fund/ })).not.toBeInTheDocument();
  });

  it('says when no wallet is connected', () => {
    stubApi(() => undefined);
    renderTradingWidget(<PortfolioOverview />, { auth: makeAuth(makeUser()) });
    expect(screen.getByText('No wallet connected')).toBeInTheDocument();
    expect(screen.getByText('No wallet connected. Please connect a wallet first.')).toBeInTheDocument();
  });

  it('refuses wallets that are not Solana wallets', () => {
    stubApi(() => undefined);
    renderTradingWidget(<PortfolioOverview />, {
      auth: makeAuth(
        makeUser({
          solana_wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
          wallet_type: 'metamask',
        }),
      ),
    });
    expect(
      screen.getByText(
        'Portfolio data is only available for Solana wallets. Please connect Phantom or Solflare.',
      ),
    ).toBeInTheDocument();
  });

  it('offers a retry when the portfolio cannot be loaded', async () => {
    let isBroken = true;
    stubApi((path) => {
      if (path === '/health') return health('localnet');
      if (path === '/wallet/portfolio') return isBroken ? fail(400, 'boom') : ok(PORTFOLIO);
      return undefined;
    });
    renderTradingWidget(<PortfolioOverview />, { auth: makeAuth(makeTrader()) });
    expect(await screen.findByText('Failed to load portfolio data. Please try again.')).toBeInTheDocument();

    isBroken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('portfolio-total')).toHaveTextContent('$1,150.00');
  });

  it('refetches when the wallet changes', async () => {
    const { paths } = stubApi((path) => {
      if (path === '/health') return health('localnet');
      if (path === '/wallet/portfolio') return ok(PORTFOLIO);
      return undefined;
    });
    renderTradingWidget(<PortfolioOverview />);
    await screen.findByTestId('portfolio-total');
    const before = paths.filter((path) => path === '/wallet/portfolio').length;

    window.dispatchEvent(new CustomEvent(WALLET_STATE_CHANGED_EVENT));

    await waitFor(() => expect(paths.filter((path) => path === '/wallet/portfolio').length).toBe(before + 1));
  });
});
