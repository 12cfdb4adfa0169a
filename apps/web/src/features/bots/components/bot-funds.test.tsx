import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TBotBalance } from '@solterm/contracts';
import { RealtimeContext } from '../../../lib/ws-client';
import { createFakeRealtime } from '../../../test/fake-websocket';
import { calledRoutes, renderWithProviders, stubFetch } from '../../../test/test-utils';
import { makeWallet } from '../../trading/test/trading-test-utils';
import { WalletContext } from '../../wallet/wallet-context';
import { useBotRealtime } from '../use-bots';
import { DelegationsPanel } from './delegations-panel';
import { WithdrawModal } from './withdraw-modal';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const balance = (overrides: Partial<TBotBalance> = {}): TBotBalance => ({
  bot_public_key: 'BotKey1111111111111111111111111111111111111',
  balance: 0.01,
  lamports: '10000000',
  withdrawable: 0.009,
  tokens: [],
  allowance: 0.5,
  ...overrides,
});
const ok = (data: unknown) => ({ body: { success: true, data } });

afterEach(() => vi.unstubAllGlobals());

function Realtime({ children }: { children: ReactNode }) {
  useBotRealtime();
  return <>{children}</>;
}

describe('On-chain funds panel', () => {
  it('refreshes the bot key’s balance and allowance on the bot’s pushes, without a reload', async () => {
    let current = balance();
    stubFetch({
      'GET /bot/balance': () => ok(current),
      'GET /delegation/list': ok([]),
    });
    const realtime = createFakeRealtime({ getToken: () => 'jwt' });
    renderWithProviders(
      <RealtimeContext.Provider value={realtime.client}>
        <WalletContext.Provider value={makeWallet()}>
          <Realtime>
            <DelegationsPanel />
          </Realtime>
        </WalletContext.Provider>
      </RealtimeContext.Provider>,
    );
    realtime.client.retain();
    realtime.latest().open();
    const panel = await screen.findByRole('region', { name: 'On-chain funds' });
    expect(await within(panel).findByText('0.010000 SOL')).toBeInTheDocument();
    expect(within(panel).getByText('0.5000 SOL')).toBeInTheDocument();

    // The bot traded: its swaps moved SOL, the allowance and USDC; the push says a candle was done.
    current = balance({
      balance: 0.0259,
      allowance: 0.4812,
      tokens: [{ mint: USDC, symbol: 'USDC', amount: 0.17 }],
    });
    act(() =>
      realtime.latest().receive({
        type: 'bot_timing_update',
        message_type: 'bot_timing_update',
        data: {
          bot_id: 'bot-1',
          current_task: 'Next 1M candle closes at 12:05 UTC',
          estimated_completion: '2026-01-16T12:00:00.000Z',
          total_trades: 1,
          total_pnl: '0.01',
          progress_percentage: 1,
          started_at: '2026-01-15T12:00:00.000Z',
        },
      }),
    );
    expect(await within(panel).findByText('0.025900 SOL')).toBeInTheDocument();
    expect(within(panel).getByText('0.4812 SOL')).toBeInTheDocument();
    expect(within(panel).getByText('0.17 USDC')).toBeInTheDocument();
  });
});

describe('Revoke & unwrap', () => {
  it('asks for the revoke with the unwrap in the same transaction, signed in the wallet', async () => {
    const delegation = {
      delegation_id: 'd1',
      status: 'active',
      unsigned_transaction: null,
      message: '',
      instructions: [],
      amount: 1,
      token_mint: 'So11111111111111111111111111111111111111112',
      wallet_address: 'w',
      bot_public_key: 'b',
      approve_signature: 's',
      revoke_signature: null,
      created_at: '2026-01-15T12:00:00.000Z',
    };
    const fetchMock = stubFetch({
      'GET /bot/balance': ok(balance()),
      'GET /delegation/list': ok([delegation]),
      'DELETE /delegation/revoke/d1?unwrap=true': ok({ ...delegation, unsigned_transaction: 'AAAA' }),
      'POST /delegation/submit': ok({ ...delegation, status: 'revoked', transaction_hash: 'sig' }),
    });
    const wallet = makeWallet();
    renderWithProviders(
      <WalletContext.Provider value={wallet}>
        <DelegationsPanel />
      </WalletContext.Provider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke & unwrap' }));
    await waitFor(() => expect(calledRoutes(fetchMock)).toContain('POST /delegation/submit'));
    expect(calledRoutes(fetchMock)).toContain('DELETE /delegation/revoke/d1?unwrap=true');
    expect(wallet.signTransaction).toHaveBeenCalledTimes(1);
  });
});

describe('Withdraw from Bot', () => {
  it('labels a token’s balance with its own symbol, not SOL', async () => {
    stubFetch({
      'GET /bot/balance': ok(balance({ tokens: [{ mint: USDC, symbol: 'USDC', amount: 6.669379 }] })),
    });
    renderWithProviders(<WithdrawModal isOpen onClose={() => undefined} />);
    const held = await screen.findByTestId('withdraw-held');
    expect(held).toHaveTextContent('0.010000 SOL');
    fireEvent.change(screen.getByLabelText('Token'), { target: { value: USDC } });
    expect(held).toHaveTextContent('6.669379 USDC');
    expect(screen.queryByText(/6\.669379 SOL/)).not.toBeInTheDocument();
  });

  it('shows a refused amount once, under the amount', async () => {
    stubFetch({ 'GET /bot/balance': ok(balance()) });
    renderWithProviders(<WithdrawModal isOpen onClose={() => undefined} />);
    await screen.findByTestId('withdraw-held');
    fireEvent.change(screen.getByLabelText('Amount (SOL)'), { target: { value: '0.00005' } });
    fireEvent.click(screen.getByRole('button', { name: /Withdraw/ }));
    await waitFor(() =>
      expect(
        screen.getAllByText('Minimum withdrawal amount is 0.0001 SOL to cover transaction fees'),
      ).toHaveLength(1),
    );
    // An empty amount, submitted, says so (once) too.
    fireEvent.change(screen.getByLabelText('Amount (SOL)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: /Withdraw/ }));
    expect(screen.getAllByText('Please enter a valid withdrawal amount')).toHaveLength(1);
  });
});
