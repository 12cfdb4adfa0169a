import type { ReactElement } from 'react';
import { vi } from 'vitest';
import type { TUser } from '@solterm/contracts';
import { makeUser } from '../../../test/test-utils';
import { AuthContext, type AuthContextValue } from '../../auth/use-auth';
import { renderMarket, type MarketRenderOptions } from '../../market/test/market-test-utils';
import { WalletContext, type WalletContextValue } from '../../wallet/wallet-context';
import { createTradingFormStore, TradingFormStoreContext } from '../trading-form';
import type { ConnectedWallet } from '../../wallet/wallet-manager';

export const WALLET_ADDRESS = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

/** A signed-in user whose account wallet is the Local wallet. */
export function makeTrader(overrides: Partial<TUser> = {}): TUser {
  return makeUser({ solana_wallet_address: WALLET_ADDRESS, wallet_type: 'solana', ...overrides });
}

export const LOCAL_CONNECTED: ConnectedWallet = {
  address: WALLET_ADDRESS,
  walletType: 'solana',
  name: 'Local wallet',
  kind: 'local',
};

/** A wallet context with fakes; signTransaction appends a byte (a stand-in for the signature). */
export function makeWallet(overrides: Partial<WalletContextValue> = {}): WalletContextValue {
  return {
    wallets: [
      {
        kind: 'local',
        name: 'Local wallet',
        walletType: 'solana',
        family: 'solana',
        installed: true,
        icon: null,
        installUrl: null,
      },
      {
        kind: 'phantom',
        name: 'Phantom',
        walletType: 'phantom',
        family: 'solana',
        installed: false,
        icon: null,
        installUrl: 'https://phantom.com/download',
      },
      {
        kind: 'solflare',
        name: 'Solflare',
        walletType: 'solflare',
        family: 'solana',
        installed: true,
        icon: null,
        installUrl: 'https://solflare.com/download',
      },
    ],
    connected: LOCAL_CONNECTED,
    isRestoring: false,
    connect: vi.fn(async () => LOCAL_CONNECTED),
    disconnect: vi.fn(async () => undefined),
    signMessage: vi.fn(async () => new Uint8Array(64)),
    signTransaction: vi.fn(async (wire: Uint8Array) => new Uint8Array([...wire, 1])),
    getChainId: vi.fn(async () => undefined),
    ...overrides,
  };
}

export function makeAuth(user: TUser | null, overrides: Partial<AuthContextValue> = {}): AuthContextValue {
  return {
    user,
    status: user ? 'authenticated' : 'anonymous',
    completeLogin: vi.fn(),
    logout: vi.fn(async () => undefined),
    refreshProfile: vi.fn(async () => user),
    expireSession: vi.fn(),
    ...overrides,
  };
}

/** Renders a dashboard widget with a session, a wallet, a fresh form store and the market providers (see renderMarket). */
export function renderTradingWidget(
  ui: ReactElement,
  {
    auth = makeAuth(makeTrader()),
    wallet = makeWallet(),
    ...options
  }: MarketRenderOptions & { auth?: AuthContextValue; wallet?: WalletContextValue } = {},
) {
  const formStore = createTradingFormStore();
  const result = renderMarket(
    <AuthContext.Provider value={auth}>
      <WalletContext.Provider value={wallet}>
        <TradingFormStoreContext.Provider value={formStore}>{ui}</TradingFormStoreContext.Provider>
      </WalletContext.Provider>
    </AuthContext.Provider>,
    options,
  );
  return { ...result, auth, wallet, formStore };
}
