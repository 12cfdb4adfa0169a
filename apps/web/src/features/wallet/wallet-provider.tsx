import { getWallets } from '@wallet-standard/app';
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { api } from '../../lib/api-client';
import { getStoredToken } from '../../lib/storage-keys';
import { USER_LOGGED_OUT_EVENT } from '../auth';
import { useNetwork } from '../network';
import { registerLocalWallet } from './local-wallet/local-wallet';
import { createMetaMaskConnector, createStandardConnector } from './wallet-connectors';
import { WalletContext, type WalletContextValue } from './wallet-context';
import { WalletManager } from './wallet-manager';
import { WALLET_API_PATHS } from './wallet-sign-in';

function createBrowserWalletManager(): WalletManager {
  // The Local wallet announces itself through the Wallet Standard protocol like any extension.
  registerLocalWallet();
  const registry = getWallets();
  return new WalletManager({
    connectors: {
      metamask: createMetaMaskConnector(window),
      phantom: createStandardConnector('phantom', registry),
      solflare: createStandardConnector('solflare', registry),
      local: createStandardConnector('local', registry),
    },
    storage: window.localStorage,
    // Off until the server says the network is not mainnet (the app assumes mainnet until then).
    localWalletEnabled: false,
    // Only a session can be told; without a token the call would be a 401 that ends nothing.
    notifyBackendDisconnect: async () => {
      if (getStoredToken()) await api.post(WALLET_API_PATHS.disconnect, {});
    },
    onWalletsChanged: (listener) => {
      const offRegister = registry.on('register', listener);
      const offUnregister = registry.on('unregister', listener);
      return () => {
        offRegister();
        offUnregister();
      };
    },
  });
}

/**
 * Provides {@link useWallet}: wallet discovery, connection, signing and the spec's restore on load.
 * Mount it inside the QueryClientProvider (it reads the network mode) and the AuthProvider's window.
 */
export function WalletProvider({ children }: { children: ReactNode }) {
  const [manager] = useState(createBrowserWalletManager);
  const state = useSyncExternalStore(manager.subscribe, manager.getState);

  const { isTestNetwork } = useNetwork();

  useEffect(() => manager.start(), [manager]);

  // The Local wallet is offered on non-mainnet networks only.
  useEffect(() => manager.setLocalWalletEnabled(isTestNetwork), [manager, isTestNetwork]);

  // Logout already cleared wallet_address / wallet_type; the page's connection ends with it.
  useEffect(() => {
    const onLoggedOut = () => manager.forget();
    window.addEventListener(USER_LOGGED_OUT_EVENT, onLoggedOut);
    return () => window.removeEventListener(USER_LOGGED_OUT_EVENT, onLoggedOut);
  }, [manager]);

  const value = useMemo<WalletContextValue>(
    () => ({
      wallets: state.wallets,
      connected: state.connected,
      isRestoring: state.isRestoring,
      connect: (kind) => manager.connect(kind),
      disconnect: () => manager.disconnect(),
      signMessage: (message) => manager.signMessage(message),
      signTransaction: (transaction) => manager.signTransaction(transaction),
      getChainId: () => manager.getChainId(),
    }),
    [manager, state],
  );

  return <WalletContext.Provider value={value}>{children}</WalletContext.Provider>;
}
