import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DASHBOARD_POLL_MS } from '@solterm/contracts';
import { getErrorMessage } from '../../lib/api-client';
import { followPendingTransaction, isPendingTransaction } from '../../lib/server-transaction';
import { notify } from '../../lib/toast';
import { walletApi } from '../trading/trading-api';
import { invalidateAfterTrade, queryKeys } from '../../lib/query-keys';
import type { WalletAccess } from '../trading/wallet-access';
import { formatTokenAmount } from '../trading/trade-format';
import { WALLET_STATE_CHANGED_EVENT } from '../wallet/wallet-storage';

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
