import { REDIRECT_AFTER_LOGIN_MS } from '@solterm/contracts';
import { useCallback, useState } from 'react';
import { api } from '../../lib/api-client';
import { notify } from '../../lib/toast';
import { useDelayedNavigate } from '../../lib/use-delayed-navigate';
import { useAuth } from '../auth';
import { useWallet } from './wallet-context';
import { getWalletErrorMessage } from './wallet-errors';
import { WALLET_CATALOG, type WalletKind } from './wallet-kinds';
import {
  connectManualWallet,
  linkWalletToUser,
  signInWithWallet,
  type SigningWallet,
} from './wallet-sign-in';

export const WALLET_SIGN_IN_TARGET = '/dashboard';

export type WalletSignInAction = WalletKind | 'manual';

/**
 * The wallet page's flows: sign in with a wallet (connect, sign the server's challenge, POST
 * /auth/connect-wallet, completeLogin, toast, go to /dashboard after 1 s), link a wallet to the
 * logged-in account, and the watch-only manual address.
 */
export function useWalletSignIn() {
  const wallet = useWallet();
  const { completeLogin, refreshProfile } = useAuth();
  const navigateLater = useDelayedNavigate();
  const [pending, setPending] = useState<WalletSignInAction | null>(null);

  // Spec part 1 §9: /dashboard 1 s after a wallet connect.
  const redirectSoon = useCallback(
    () => navigateLater(WALLET_SIGN_IN_TARGET, REDIRECT_AFTER_LOGIN_MS),
    [navigateLater],
  );

  const connectSigningWallet = useCallback(
    async (kind: WalletKind): Promise<SigningWallet> => {
      const connected = await wallet.connect(kind);
      return {
        address: connected.address,
        walletType: connected.walletType,
        signMessage: wallet.signMessage,
        getChainId: wallet.getChainId,
      };
    },
    [wallet],
  );

  const signIn = useCallback(
    async (kind: WalletKind): Promise<boolean> => {
      setPending(kind);
      try {
        const signer = await connectSigningWallet(kind);
        const result = await signInWithWallet(api, signer);
        completeLogin(result);
        notify.success(`${WALLET_CATALOG[kind].name} connected successfully!`);
        redirectSoon();
        return true;
      } catch (error) {
        notify.error(getWalletErrorMessage(error, kind));
        return false;
      } finally {
        setPending(null);
      }
    },
    [connectSigningWallet, completeLogin, redirectSoon],
  );

  const linkToAccount = useCallback(
    async (kind: WalletKind): Promise<boolean> => {
      setPending(kind);
      try {
        const signer = await connectSigningWallet(kind);
        await linkWalletToUser(api, signer);
        await refreshProfile().catch(() => null);
        notify.success(`${WALLET_CATALOG[kind].name} connected to your account`);
        return true;
      } catch (error) {
        notify.error(getWalletErrorMessage(error, kind));
        return false;
      } finally {
        setPending(null);
      }
    },
    [connectSigningWallet, refreshProfile],
  );

  const connectManual = useCallback(
    async (address: string, chainId: string): Promise<boolean> => {
      setPending('manual');
      try {
        const result = await connectManualWallet(api, address, chainId);
        completeLogin(result);
        notify.success('Wallet address connected (watch-only)');
        redirectSoon();
        return true;
      } catch (error) {
        notify.error(getWalletErrorMessage(error, null));
        return false;
      } finally {
        setPending(null);
      }
    },
    [completeLogin, redirectSoon],
  );

  return { pending, signIn, linkToAccount, connectManual };
}
