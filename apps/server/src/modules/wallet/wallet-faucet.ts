import {
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToCheckedInstruction,
} from '@solana-program/token';
import { address, type TransactionPartialSigner } from '@solana/kit';
import {
  FAUCET_DEFAULT_SOL,
  FAUCET_DEFAULT_USDC,
  SOL_DECIMALS,
  getTokenDecimals,
  USDC_MINT,
  type TFundWalletWithUsdcRequest,
  type TFundWalletWithUsdcResult,
  type TNetwork,
} from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import { associatedTokenAddress, buildTransaction, type ChainService } from '../chain/chain.service';
import {
  moneyRequestErrorOf,
  landedAnswer,
  pendingAnswer,
  type IdempotentAnswer,
  type Relay,
  type ServerTicketKind,
} from '../relay/relay.service';
import { z } from 'zod';
import { fromBaseUnits, signingWalletOf, solToLamports, toBaseUnits, type WalletOwner } from './wallet-owner';
import type { WalletRepository } from './wallet.repository';

const USDC_DECIMALS = getTokenDecimals(USDC_MINT);

const ZMintPayload = z.object({ recipient: z.string(), amount: z.string().regex(/^\d+$/) });
type MintPayload = z.infer<typeof ZMintPayload>;

export interface WalletFaucetDeps {
  chain: ChainService;
  relay: Relay;
  network: TNetwork;
  /** Faucet calls allowed per user (and per wallet address) within `windowMs`. */
  faucetRateLimit: { max: number; windowMs: number };
  /** Where faucet grants are counted: the database, so the limit survives restarts and processes. */
  faucetGrants: Pick<WalletRepository, 'takeFaucetGrant'>;
  now: () => Date;
  /**
   * The mint authority of the cluster's tokens (the embedded cluster's treasury), which the faucet
   * mints USDC with. Absent on an external RPC: the faucet then only airdrops SOL.
   */
  faucetMinter?: TransactionPartialSigner;
}

/** The localnet faucet: SOL airdrops and USDC minted by the treasury, limited per user and wallet. */
export function createWalletFaucet(deps: WalletFaucetDeps) {
  const { chain } = deps;
  /** Records one faucet grant of the user, or refuses it when the window is full. */
  async function takeFaucetGrant(
    userId: string,
    walletAddress: string,
    amounts: { sol: number; usdc: number },
  ): Promise<void> {
    const at = deps.now();
    const granted = await deps.faucetGrants.takeFaucetGrant({
      userId,
      walletAddress,
      amountSol: amounts.sol,
      amountUsdc: amounts.usdc,
      at,
      since: new Date(at.getTime() - deps.faucetRateLimit.windowMs),
      max: deps.faucetRateLimit.max,
    });
    if (!granted) throw new AppError('WALLET__FAUCET_RATE_LIMITED');
  }

  /** A faucet mint settles nothing of ours: a failed or expired one minted nothing and took nothing. */
  const mintKind: ServerTicketKind<MintPayload> = { kind: 'faucet_mint', payload: ZMintPayload };
  deps.relay.server.registerKind(mintKind);

  /**
   * Mints USDC to the recipient with the faucet minter (fee payer too), as a relay server ticket:
   * answers its signature and whether it landed or is still pending; refuses when it failed.
   */
  async function mintUsdc(
    userId: string,
    minter: TransactionPartialSigner,
    recipient: string,
    amount: number,
  ): Promise<{ signature: string; pending: boolean }> {
    const mint = address(USDC_MINT);
    const token = await associatedTokenAddress(recipient, USDC_MINT);
    // The minter pays the fee and the recipient's token account, and signs as mint authority.
    const built = await buildTransaction({
      feePayer: minter.address,
      instructions: [
        getCreateAssociatedTokenIdempotentInstruction({
          payer: minter,
          ata: token,
          owner: address(recipient),
          mint,
        }),
        getMintToCheckedInstruction({
          mint,
          token,
          mintAuthority: minter,
          amount: toBaseUnits(amount, USDC_DECIMALS),
          decimals: USDC_DECIMALS,
        }),
      ],
      lifetime: await chain.getLatestBlockhash(),
      coSigners: [minter],
    });
    const sent = await deps.relay.server.send({
      kind: mintKind,
      userId,
      payload: { recipient, amount: toBaseUnits(amount, USDC_DECIMALS).toString() },
      built,
    });
    if (sent.status === 'failed') throw new AppError('CHAIN__TRANSACTION_FAILED');
    if (sent.status === 'expired') throw new AppError('CHAIN__CONFIRMATION_TIMEOUT');
    return { signature: sent.signature, pending: sent.status === 'pending' };
  }

  return {
    /**
     * POST /wallet/fund (test networks only): a confirmed SOL airdrop and, on the embedded cluster,
     * USDC minted by the treasury. `amount_usdc` defaults to 1000 where USDC can be minted and to
     * 0 elsewhere, so a plain request still works on an external test cluster; an explicit USDC
     * amount there is refused before anything is sent. One call takes one rate-limit slot.
     */
    async fund(
      owner: WalletOwner,
      request: TFundWalletWithUsdcRequest,
      idempotencyKey?: string,
    ): Promise<IdempotentAnswer> {
      if (deps.network === 'mainnet') throw new AppError('WALLET__FAUCET_MAINNET');
      const walletAddress = signingWalletOf(owner);
      const amountSol = request.amount_sol ?? FAUCET_DEFAULT_SOL;
      const minter = deps.faucetMinter;
      const amountUsdc = request.amount_usdc ?? (minter ? FAUCET_DEFAULT_USDC : 0);
      if (amountUsdc > 0 && !minter) throw new AppError('WALLET__FAUCET_UNAVAILABLE');
      return deps.relay.moneyRequest(
        owner.id,
        idempotencyKey,
        request,
        async () => {
          await takeFaucetGrant(owner.id, walletAddress, { sol: amountSol, usdc: amountUsdc });
          // The airdrop first: the faucet may refuse it (its reserve), and then nothing is minted either
          // (minting alongside would land USDC, at the treasury's cost, after answering the refusal).
          const signature = await chain.requestAirdrop(walletAddress, solToLamports(amountSol));
          const minted =
            minter && amountUsdc > 0 ? await mintUsdc(owner.id, minter, walletAddress, amountUsdc) : null;
          if (minted?.pending) return pendingAnswer(minted.signature);
          const [lamportsHeld, tokens] = await Promise.all([
            chain.getBalance(walletAddress),
            chain.getTokenBalances(walletAddress),
          ]);
          const sol_balance = fromBaseUnits(lamportsHeld, SOL_DECIMALS);
          const usdc = tokens.get(USDC_MINT);
          const result: TFundWalletWithUsdcResult = {
            wallet_address: walletAddress,
            amount_sol: amountSol,
            signature,
            sol_balance,
            amount_usdc: minted ? amountUsdc : 0,
            usdc_signature: minted?.signature ?? null,
            usdc_balance: usdc ? fromBaseUnits(usdc.amount, usdc.decimals) : 0,
          };
          return landedAnswer(result);
        },
        moneyRequestErrorOf,
      );
    },
  };
}
