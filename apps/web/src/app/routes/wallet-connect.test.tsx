import { ed25519 } from '@noble/curves/ed25519.js';
import { getAddressEncoder, getBase58Encoder, getUtf8Encoder, type Address } from '@solana/kit';
import type { TConnectWalletRequest } from '@solterm/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '../../features/auth/use-auth';
import { getLocalWallet } from '../../features/wallet/local-wallet/local-wallet';
import { WalletProvider } from '../../features/wallet/wallet-provider';
import { createQueryClient } from '../../lib/query-client';
import WalletConnectPage from './wallet-connect';

const CHALLENGE = 'localhost wants you to sign in with your Solana account:\nADDR\n\nNonce: abc123';
const USER = {
  id: 'u1',
  username: 'wallet_abc',
  email: null,
  solana_wallet_address: null,
  wallet_type: 'solana',
  is_watch_only: false,
  has_password: false,
  created_at: '2025-01-01T00:00:00.000Z',
};

function json(data: unknown, status = 200): Response {
  return new Response(
    JSON.stringify(status < 400 ? { success: true, data } : { success: false, error: data }),
    {
      status,
      headers: { 'Content-Type': 'application/json' },
    },
  );
}

/** A fake solterm server: localnet health, a challenge, and a connect-wallet that verifies the ed25519 signature. */
function fakeServer() {
  const connectBodies: TConnectWalletRequest[] = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/api/health')) return json({ status: 'ok', network: 'localnet' });
    if (url.startsWith('/api/auth/wallet-challenge')) return json({ message: CHALLENGE, nonce: 'abc123' });
    if (url === '/api/auth/connect-wallet') {
      const body = JSON.parse(String(init?.body)) as TConnectWalletRequest;
      connectBodies.push(body);
      if (body.wallet_type === 'manual')
        return json({ token: 'watch', user: { ...USER, is_watch_only: true } });
      const isValid = ed25519.verify(
        Uint8Array.from(getBase58Encoder().encode(body.signature!)),
        Uint8Array.from(getUtf8Encoder().encode(body.message!)),
        Uint8Array.from(getAddressEncoder().encode(body.wallet_address as Address)),
      );
      return isValid ? json({ token: 'jwt', user: USER, expires_at: '' }) : json('Invalid signature', 401);
    }
    return json('not found', 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { connectBodies };
}

function renderPage(auth: Partial<AuthContextValue> = {}) {
  const completeLogin = vi.fn();
  const value: AuthContextValue = {
    user: null,
    status: 'anonymous',
    completeLogin,
    logout: async () => {},
    refreshProfile: async () => null,
    expireSession: () => {},
    ...auth,
  };
  const router = createMemoryRouter(
    [
      { path: '/wallet-connect', element: <WalletConnectPage /> },
      { path: '/dashboard', element: <p>Dashboard page</p> },
    ],
    { initialEntries: ['/wallet-connect'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthContext.Provider value={value}>
        <WalletProvider>
          <RouterProvider router={router} />
        </WalletProvider>
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
  return { completeLogin, user: userEvent.setup() };
}

describe('/wallet-connect', () => {
  beforeEach(() => {
    localStorage.clear();
    // The page's Local wallet lives for the whole page; make it re-read the now empty storage.
    getLocalWallet().reload();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('Local wallet: Create, Sign in, completeLogin with the signed challenge, /dashboard after 1 s', async () => {
    const { connectBodies } = fakeServer();
    const { completeLogin, user } = renderPage();

    await user.click(screen.getByRole('tab', { name: 'Wallets' }));
    const card = await screen.findByRole('region', { name: 'Local wallet' });
    expect(within(card).getByRole('button', { name: 'Sign in with Local wallet' })).toBeDisabled();
    await user.click(within(card).getByRole('button', { name: 'Create' }));
    const address = within(card).getByTestId('local-wallet-address').textContent!;
    expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

    await user.click(within(card).getByRole('button', { name: 'Sign in with Local wallet' }));

    await waitFor(() =>
      expect(completeLogin).toHaveBeenCalledWith({ token: 'jwt', user: USER, expires_at: '' }),
    );
    expect(connectBodies[0]).toMatchObject({
      wallet_address: address,
      wallet_type: 'solana',
      message: CHALLENGE,
    });
    expect(localStorage.getItem('wallet_address')).toBe(address);
    expect(localStorage.getItem('wallet_type')).toBe('solana');
    expect(screen.queryByText('Dashboard page')).not.toBeInTheDocument();
    expect(await screen.findByText('Dashboard page', {}, { timeout: 2000 })).toBeInTheDocument();
  });

  it('extension wallets without an extension are disabled with an Install link', async () => {
    fakeServer();
    renderPage();
    for (const name of ['MetaMask', 'Phantom', 'Solflare']) {
      expect(screen.getByRole('button', { name: `Sign in with ${name}` })).toBeDisabled();
      expect(screen.getByRole('link', { name: `Install ${name}` })).toHaveAttribute(
        'href',
        expect.stringMatching(/^https:/),
      );
    }
  });

  it('manual connect opens a watch-only session without a signature', async () => {
    const { connectBodies } = fakeServer();
    const { completeLogin, user } = renderPage();
    await user.click(screen.getByRole('tab', { name: 'Manual Connect' }));
    await user.click(screen.getByRole('button', { name: 'Connect watch-only address' }));
    expect(screen.getByText('Please enter a wallet address')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Wallet address'), '0x52908400098527886E0F7030069857D2E4169EE7');
    await user.click(screen.getByRole('button', { name: 'Connect watch-only address' }));
    await waitFor(() => expect(completeLogin).toHaveBeenCalled());
    expect(connectBodies[0]).toEqual({
      wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
      wallet_type: 'manual',
      chain_id: '0x1',
    });
  });

  it('offers linking to the account when logged in', async () => {
    fakeServer();
    const { user } = renderPage({ user: { ...USER, username: 'alice' }, status: 'authenticated' });
    expect(screen.getByText('Signed in as alice')).toBeInTheDocument();
    const card = await screen.findByRole('region', { name: 'Local wallet' });
    await user.click(within(card).getByRole('button', { name: 'Create' }));
    expect(within(card).getByRole('button', { name: 'Link Local wallet to my account' })).toBeEnabled();
  });

  it('the Sign In (Optional) tab shows the email login form', async () => {
    fakeServer();
    const { user } = renderPage();
    await user.click(screen.getByRole('tab', { name: 'Sign In (Optional)' }));
    expect(screen.getByRole('form', { name: 'Login' })).toBeInTheDocument();
  });
});
