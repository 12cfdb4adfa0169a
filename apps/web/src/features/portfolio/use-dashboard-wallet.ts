import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { WALLET_MESSAGES } from '@solterm/contracts';
import { api, getErrorMessage } from '../../lib/api-client';
import { notify } from '../../lib/toast';
import { useAuth } from '../auth';
import { queryKeys } from '../../lib/query-keys';
import {
  type ConnectedWallet,
  getLocalWallet,
  linkWalletToUser,
  useWallet,
  WALLET_API_PATHS,
  WALLET_CATALOG,
  type WalletKind,
} from '../wallet';
import { getDashboardConnectErrorMessage, validateDashboardWalletAddress } from './dashboard-wallet';

export type DashboardWalletAction = WalletKind | 'manual' | 'sync' | 'disconnect';

/**
 * The dashboard wallet card's flows (spec part 1 §4 "Wallet", §8): connect the extension (local
 * storage and walletStateChanged come with it), then tell the backend by linking the wallet to the
 * account with a signed challenge; a failed sync still leaves the wallet connected locally, with a
 * success toast saying so. Also: a manually typed address and disconnect.
 */
export function useDashboardWallet() {
  const wallet = useWallet();
  const { user, refreshProfile } = useAuth();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<DashboardWalletAction | null>(null);

  const syncToAccount = useCallback(
    async (connected: ConnectedWallet): Promise<boolean> => {
      try {
        await linkWalletToUser(api, {
          address: connected.address,
          walletType: connected.walletType,
          signMessage: wallet.signMessage,
          getChainId: wallet.getChainId,
        });
        await refreshProfile().catch(() => null);
        void queryClient.invalidateQueries({ queryKey: queryKeys.wallet.all });
        return true;
      } catch (error) {
        console.warn('Wallet connected locally; linking it to the account failed', error);
        return false;
      }
    },
    [wallet.signMessage, wallet.getChainId, refreshProfile, queryClient],
  );

  const connect = useCallback(
    async (kind: WalletKind): Promise<void> => {
      const name = WALLET_CATALOG[kind].name;
      setPending(kind);
      try {
        let connected: ConnectedWallet;
        try {
          // The Local wallet needs a key first; the dashboard creates one rather than failing.
          if (kind === 'local' && !getLocalWallet().address) getLocalWallet().create();
          connected = await wallet.connect(kind);
        } catch (error) {
          notify.error(getDashboardConnectErrorMessage(error, name));
          return;
        }
        if (user?.solana_wallet_address === connected.address) {
          notify.success(`${name} connected`);
          return;
        }
        const isSynced = await syncToAccount(connected);
        if (isSynced) notify.success(`${name} connected successfully!`);
        else notify.success(WALLET_MESSAGES.connectedLocallyOnly(name));
      } finally {
        setPending(null);
      }
    },
    [wallet, user?.solana_wallet_address, syncToAccount],
  );

  /** Links the page's connected wallet to the account (after a failed sync). */
  const sync = useCallback(async (): Promise<void> => {
    const connected = wallet.connected;
    if (!connected) return;
    setPending('sync');
    try {
      if (await syncToAccount(connected)) notify.success(`${connected.name} linked to your account`);
      else notify.error(WALLET_MESSAGES.backendConnectFailed);
    } finally {
      setPending(null);
    }
  }, [wallet.connected, syncToAccount]);

  /** A typed address (no format check), saved on the account as a watch-only `manual` wallet. */
  const connectManual = useCallback(
    async (address: string): Promise<string | null> => {
      const problem = validateDashboardWalletAddress(address);
      if (problem) return problem;
      setPending('manual');
      try {
        await api.post(WALLET_API_PATHS.connectToUser, {
          wallet_address: address.trim(),
          wallet_type: 'manual',
        });
        await refreshProfile().catch(() => null);
        void queryClient.invalidateQueries({ queryKey: queryKeys.wallet.all });
        notify.success('Wallet address saved (watch-only)');
        return null;
      } catch (error) {
        const message = getErrorMessage(error, WALLET_MESSAGES.connectionFailed);
        notify.error(message);
        return message;
      } finally {
        setPending(null);
      }
    },
    [refreshProfile, queryClient],
  );

  /** Extension disconnect, backend disconnect, local data cleared; errors are ignored (spec §4). */
  const disconnect = useCallback(async (): Promise<void> => {
    setPending('disconnect');
    try {
      await wallet.disconnect();
      await refreshProfile().catch(() => null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.wallet.all });
      notify.success('Wallet disconnected');
    } finally {
      setPending(null);
    }
  }, [wallet, refreshProfile, queryClient]);

  return { pending, connect, sync, connectManual, disconnect };
}
