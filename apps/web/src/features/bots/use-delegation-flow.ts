import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { BOT_MESSAGES, type TDelegation } from '@solterm/contracts';
import { queryKeys } from '../../lib/query-keys';
import { decodeBase64, encodeBase64 } from '../trading';
import { isUserRejection, useWallet, WalletError } from '../wallet';
import { botFundsApi } from './bots-api';

/** Where a delegation (or its revocation) is: the modal cannot close while creating or signing. */
export type DelegationStage = 'idle' | 'creating' | 'signing' | 'submitting';

/** The spec's delegation messages (part 2 §8) for a wallet that failed to sign. */
function signingError(error: unknown): Error {
  if (isUserRejection(error)) return new Error(BOT_MESSAGES.delegationRejected);
  if (error instanceof WalletError && error.code === 'NOT_CONNECTED') {
    return new Error(BOT_MESSAGES.delegationWalletIssue);
  }
  if (error instanceof Error && /not support/i.test(error.message)) {
    return new Error(BOT_MESSAGES.delegationSigningUnsupported);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Approving and revoking a delegation with the connected wallet: the server builds the
 * transaction, the wallet signs it, the server executes it through its relay.
 */
export function useDelegationFlow() {
  const wallet = useWallet();
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<DelegationStage>('idle');

  async function signAndSubmit(delegation: TDelegation) {
    setStage('signing');
    let signed: Uint8Array;
    try {
      signed = await wallet.signTransaction(decodeBase64(delegation.unsigned_transaction!));
    } catch (error) {
      throw signingError(error);
    }
    setStage('submitting');
    const result = await botFundsApi.submitDelegation(delegation.delegation_id, encodeBase64(signed));
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.bots.delegations }),
      queryClient.invalidateQueries({ queryKey: queryKeys.bots.balance }),
      // The wallet's wrapped SOL moved (wrapped, or unwrapped by a revoke).
      queryClient.invalidateQueries({ queryKey: queryKeys.wallet.all }),
    ]);
    return result;
  }

  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (!wallet.connected) throw new Error(BOT_MESSAGES.delegationWalletRequired);
    try {
      return await work();
    } finally {
      setStage('idle');
    }
  }

  return {
    stage,
    /** Creates a delegation of `amount` SOL, has the wallet sign it and submits it. */
    approve: (amount: number) =>
      run(async () => {
        setStage('creating');
        return signAndSubmit(await botFundsApi.createDelegation(amount));
      }),
    /**
     * Builds the SPL revoke of an active delegation (with `unwrap`, in the same transaction the
     * closeAccount that returns the unused wrapped SOL as SOL), has the wallet sign it and submits it.
     */
    revoke: (delegationId: string, unwrap = false) =>
      run(async () => {
        setStage('creating');
        return signAndSubmit(await botFundsApi.revoke(delegationId, unwrap));
      }),
  };
}
