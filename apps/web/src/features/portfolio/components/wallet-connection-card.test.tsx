import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

import { makeUser } from '../../../test/test-utils';
import { ok, stubApi } from '../../market/test/market-test-utils';
import {
  LOCAL_CONNECTED,
  makeAuth,
  makeTrader,
  makeWallet,
  renderTradingWidget,
} from '../../trading/test/trading-test-utils';
import { WalletError } from '../../wallet/wallet-errors';
import { WalletConnectionCard } from './wallet-connection-card';

const PHANTOM_ADDRESS = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';

beforeEach(() => {
  for (const fn of Object.values(sonner.toast)) fn.mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('WalletConnectionCard', () => {
  it('shows the connected wallet with its short address and disconnects', async () => {
    stubApi((path) => (path === '/health' ? ok({ status: 'ok', network: 'localnet' }) : undefined));
    const wallet = makeWallet();
    renderTradingWidget(<WalletConnectionCard />, { wallet });

    const card = screen.getByRole('region', { name: 'Wallet connection' });
    expect(within(card).getByTestId('connected-wallet-name')).toHaveTextContent('Local wallet');
    expect(within(card).getByTestId('connected-wallet-address')).toHaveTextContent('7xKX...gAsU');
    expect(within(card).getByRole('button', { name: 'Copy wallet address' })).toBeInTheDocument();

    fireEvent.click(within(card).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(wallet.disconnect).toHaveBeenCalledOnce());
  });

  it('offers Solana wallets to connect, with Install for a missing one', () => {
    stubApi(() => undefined);
    renderTradingWidget(<WalletConnectionCard />, { wallet: makeWallet({ connected: null }) });
    expect(screen.getByRole('button', { name: 'Connect Local wallet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Install Phantom' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect Solflare' })).toBeInTheDocument();
  });

  it('says "Connection cancelled by user" when the wallet prompt is rejected', async () => {
    stubApi(() => undefined);
    const wallet = makeWallet({
      connected: null,
      connect: vi.fn().mockRejectedValue({ code: 4001, message: 'User rejected the request.' }),
    });
    renderTradingWidget(<WalletConnectionCard />, { wallet });
    fireEvent.click(screen.getByRole('button', { name: 'Connect Solflare' }));
    await waitFor(() =>
      expect(sonner.toast.error).toHaveBeenCalledWith('Connection cancelled by user', expect.anything()),
    );
  });

  it('asks for the extension when it gave no account', async () => {
    stubApi(() => undefined);
    const wallet = makeWallet({
      connected: null,
      connect: vi.fn().mockRejectedValue(new WalletError('NO_ACCOUNTS')),
    });
    renderTradingWidget(<WalletConnectionCard />, { wallet });
    fireEvent.click(screen.getByRole('button', { name: 'Connect Solflare' }));
    await waitFor(() =>
      expect(sonner.toast.error).toHaveBeenCalledWith(
        'Wallet is not connected. Please connect your wallet extension first.',
        expect.anything(),
      ),
    );
  });

  it('still reports a connection when the backend sync fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubApi((path) =>
      path.startsWith('/auth/wallet-challenge') ? { status: 400, body: { success: false } } : undefined,
    );
    const phantom = {
      ...LOCAL_CONNECTED,
      address: PHANTOM_ADDRESS,
      kind: 'phantom' as const,
      name: 'Phantom',
      walletType: 'phantom' as const,
    };
    const base = makeWallet();
    const wallet = makeWallet({
      connected: null,
      connect: vi.fn().mockResolvedValue(phantom),
      wallets: base.wallets.map((item) => (item.kind === 'phantom' ? { ...item, installed: true } : item)),
    });
    renderTradingWidget(<WalletConnectionCard />, { wallet, auth: makeAuth(makeUser()) });

    fireEvent.click(screen.getByRole('button', { name: 'Connect Phantom' }));

    await waitFor(() =>
      expect(sonner.toast.success).toHaveBeenCalledWith(
        'Phantom connected locally. Backend sync may be needed.',
        expect.anything(),
      ),
    );
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('links a connected wallet to the account', async () => {
    const { paths } = stubApi((path, method) => {
      if (path.startsWith('/auth/wallet-challenge'))
        return ok({ message: 'Sign in to solterm: nonce', expires_at: '' });
      if (path === '/auth/connect-wallet-to-user' && method === 'POST') return ok(makeTrader());
      return undefined;
    });
    const auth = makeAuth(makeUser());
    renderTradingWidget(<WalletConnectionCard />, { wallet: makeWallet({ connected: null }), auth });

    fireEvent.click(screen.getByRole('button', { name: 'Connect Local wallet' }));

    await waitFor(() =>
      expect(sonner.toast.success).toHaveBeenCalledWith(
        'Local wallet connected successfully!',
        expect.anything(),
      ),
    );
    expect(paths).toContain('/auth/connect-wallet-to-user');
    expect(auth.refreshProfile).toHaveBeenCalled();
  });

  it('needs a non-empty manual address and sends it without a format check', async () => {
    const { fetchMock } = stubApi((path) =>
      path === '/auth/connect-wallet-to-user' ? ok(makeUser()) : undefined,
    );
    renderTradingWidget(<WalletConnectionCard />, { wallet: makeWallet({ connected: null }) });

    fireEvent.click(screen.getByRole('button', { name: 'Enter an address manually' }));
    const form = screen.getByRole('form', { name: 'Manual wallet address' });
    fireEvent.change(within(form).getByLabelText('Wallet address'), { target: { value: '   ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Please enter a wallet address')).toBeInTheDocument();

    fireEvent.change(within(form).getByLabelText('Wallet address'), { target: { value: ' my-address ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(sonner.toast.success).toHaveBeenCalledWith(
        'Wallet address saved (watch-only)',
        expect.anything(),
      ),
    );
    const call = fetchMock.mock.calls.find(([input]) =>
      String(input).endsWith('/auth/connect-wallet-to-user'),
    )!;
    expect(JSON.parse(String(call[1]?.body))).toEqual({
      wallet_address: 'my-address',
      wallet_type: 'manual',
    });
  });
});
