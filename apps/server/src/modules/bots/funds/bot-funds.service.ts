import type { KeyPairSigner } from '@solana/kit';
import { WRAPPED_SOL_MINT, type TBotBalance, type TDelegation } from '@solterm/contracts';
import type { ChainService } from '../../chain/chain.service';
import { moneyRequestErrorOf, type IdempotentAnswer, type Relay } from '../../relay/relay.service';
import { payoutWalletOf, type WalletOwner, type WithdrawalLock } from '../../wallet/wallet.service';
import type { BotFundsRepository } from './bot-funds.repository';
import { createBotWallet } from './bot-wallet';
import { createDelegations } from './delegations';

/** A user's bot funds (part 2 §7 "Bot funds and delegation"): the key, its balance, withdrawals, delegations. */
export function createBotFundsService(deps: {
  repo: BotFundsRepository;
  chain: ChainService;
  relay: Relay;
  encryptionKey: Uint8Array;
  now: () => Date;
  onRevoked: (userId: string) => Promise<void>;
  /** Withdrawals to a wallet linked in place of another are refused for a while (auth's lock). */
  withdrawalLock: WithdrawalLock;
}) {
  const wallet = createBotWallet(deps);
  const delegations = createDelegations({ ...deps, wallet });

  return {
    /** GET /bot/public-key: the caller's bot address (made on first use). */
    publicKey: (owner: { id: string }): Promise<string> => wallet.addressOf(owner.id),
    balance: (owner: WalletOwner): Promise<TBotBalance> => wallet.balance(owner),
    /**
     * POST /bot/withdraw: only to a connected wallet the owner proved by signature, and not while it
     * is a newly linked one still under the wallet-change lock — a typed ('manual') address, watch-only
     * or EVM wallet, or a locked one is refused before the bot key is touched. Under an
     * Idempotency-Key when the client sent one: a retry with the key answers the first outcome
     * (landed, 202 pending, or refused) and never pays again.
     */
    async withdraw(
      owner: WalletOwner,
      amount: number,
      tokenMint?: string,
      idempotencyKey?: string,
    ): Promise<IdempotentAnswer> {
      const payee = {
        id: owner.id,
        solanaWalletAddress: await payoutWalletOf(owner, 'BOTS__WALLET_REQUIRED', deps.withdrawalLock),
      };
      return deps.relay.moneyRequest(
        owner.id,
        idempotencyKey,
        { amount, token_mint: tokenMint ?? null },
        () =>
          tokenMint === undefined || tokenMint === WRAPPED_SOL_MINT
            ? wallet.withdraw(payee, amount)
            : wallet.withdrawToken(payee, tokenMint, amount),
        moneyRequestErrorOf,
      );
    },
    createDelegation: (owner: WalletOwner, lamports: bigint): Promise<TDelegation> =>
      delegations.create(owner, lamports),
    checkDelegationRequest: delegations.checkTransactionRequest,
    submitDelegation: delegations.submit,
    listDelegations: delegations.list,
    revokeDelegation: delegations.revoke,
    /** Lamports the user's bot may draw now under their active approval. */
    approvedAllowance: (userId: string) =>
      delegations.approvedAllowance({ id: userId, solanaWalletAddress: null }),
    /** The wallet of the user's active approval (where the bot draws from), if any. */
    async approvingWallet(userId: string): Promise<string | null> {
      return (await deps.repo.activeDelegation(userId))?.walletAddress ?? null;
    },
    signerOf: (userId: string): Promise<KeyPairSigner> => wallet.signerOf(userId),
    wallet,
  };
}

export type BotFundsService = ReturnType<typeof createBotFundsService>;
