import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DASHBOARD_POLL_MS } from '@solterm/contracts';
import { getErrorMessage } from '../../lib/api-client';
import { followPendingTransaction, isPendingTransaction } from '../../lib/server-transaction';
import { notify } from '../../lib/toast';
import { decodeBase64, encodeBase64, tradingApi, type WalletAccess, walletApi } from '../trading';
import { isUserRejection, useWallet, WALLET_STATE_CHANGED_EVENT } from '../wallet';
import { invalidateAfterTrade, queryKeys } from '../../lib/query-keys';
import { formatTokenAmount } from '../../lib/format';

/** Failure text of the faucet when the server gives none (wording ours). */
export const FUND_FAILED_MESSAGE = 'Funding failed. Please try again.';

/**
 * The account wallet's portfolio (GET /wallet/portfolio), only for a Solana wallet, refreshed
 * every 30 s and whenever the wallet changes (walletStateChanged).
 */
export function usePortfolio(access: WalletAccess) {
  const queryClient = useQueryClient();
  const address = access.kind === 'solana' ? access.address : null;

  useEffect(() => {
    const onWalletChanged = () => void queryClient.invalidateQueries({ queryKey: queryKeys.wallet.all });
    window.addEventListener(WALLET_STATE_CHANGED_EVENT, onWalletChanged);
    return () => window.removeEventListener(WALLET_STATE_CHANGED_EVENT, onWalletChanged);
  }, [queryClient]);

  return useQuery({
    queryKey: queryKeys.wallet.portfolio(address),
    queryFn: ({ signal }) => walletApi.getPortfolio(signal),
    enabled: address !== null,
    refetchInterval: DASHBOARD_POLL_MS,
  });
}

/**
 * The test-network faucet (POST /wallet/fund: SOL and USDC to the account wallet): a toast with
 * what arrived, then every balance refetches.
 */
export function useFundWallet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => walletApi.fund(),
    onSuccess: (result) => {
      if (isPendingTransaction(result)) {
        followPendingTransaction(result, 'Funding', () => void invalidateAfterTrade(queryClient));
        return;
      }
      const parts = [`${formatTokenAmount(result.amount_sol, 'SOL')} SOL`];
      if (result.amount_usdc > 0) parts.push(`${formatTokenAmount(result.amount_usdc, 'USDC')} USDC`);
      notify.success(`Funded ${parts.join(' and ')}`);
      void invalidateAfterTrade(queryClient);
    },
    onError: (error) => notify.error(getErrorMessage(error, FUND_FAILED_MESSAGE)),
  });
}

/** Failure text of Unwrap when the server gives none (wording ours). */
export const UNWRAP_FAILED_MESSAGE = 'Unwrapping failed. Please try again.';

/**
 * Unwrap: the server builds the closeAccount of the wallet's wrapped-SOL account, the connected
 * wallet signs it, the relay sends it; its SOL (and the account's rent) come back as SOL.
 */
export function useUnwrapSol() {
  const wallet = useWallet();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      if (!wallet.connected) throw new Error('Connect your wallet to unwrap');
      const built = await walletApi.unwrapSol();
      let signed: Uint8Array;
      try {
        signed = await wallet.signTransaction(decodeBase64(built.unsigned_transaction));
      } catch (error) {
        throw isUserRejection(error) ? new Error('Unwrap cancelled in the wallet') : error;
      }
      await tradingApi.executeSignedTransaction(encodeBase64(signed), `unwrap-${crypto.randomUUID()}`);
      return built;
    },
    onSuccess: (built) => {
      notify.success(`Unwrapped ${formatTokenAmount(built.amount, 'SOL')} wSOL into SOL`);
      void invalidateAfterTrade(queryClient);
    },
    onError: (error) => notify.error(getErrorMessage(error, UNWRAP_FAILED_MESSAGE)),
  });
}
