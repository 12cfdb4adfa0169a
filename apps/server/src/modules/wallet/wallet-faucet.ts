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
import type { Relay } from '../relay/relay.service';
import { fromBaseUnits, signingWalletOf, solToLamports, toBaseUnits, type WalletOwner } from './wallet-owner';
import type { WalletRepository } from './wallet.repository';

const USDC_DECIMALS = getTokenDecimals(USDC_MINT);

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

  /** Mints USDC to the recipient with the faucet minter (fee payer too) and waits for confirmation. */
  async function mintUsdc(
    minter: TransactionPartialSigner,
    recipient: string,
    amount: number,
  ): Promise<string> {
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
    await deps.relay.sendServerSigned(built.base64, built.signature!, built.lastValidBlockHeight);
    return built.signature!;
  }

  return {
    /**
     * POST /wallet/fund (test networks only): a confirmed SOL airdrop and, on the embedded cluster,
     * USDC minted by the treasury. `amount_usdc` defaults to 1000 where USDC can be minted and to
     * 0 elsewhere, so a plain request still works on an external test cluster; an explicit USDC
     * amount there is refused before anything is sent. One call takes one rate-limit slot.
     */
    async fund(owner: WalletOwner, request: TFundWalletWithUsdcRequest): Promise<TFundWalletWithUsdcResult> {
      if (deps.network === 'mainnet') throw new AppError('WALLET__FAUCET_MAINNET');
      const walletAddress = signingWalletOf(owner);
      const amountSol = request.amount_sol ?? FAUCET_DEFAULT_SOL;
      const minter = deps.faucetMinter;
      const amountUsdc = request.amount_usdc ?? (minter ? FAUCET_DEFAULT_USDC : 0);
      if (amountUsdc > 0 && !minter) throw new AppError('WALLET__FAUCET_UNAVAILABLE');
      await takeFaucetGrant(owner.id, walletAddress, { sol: amountSol, usdc: amountUsdc });
      // The airdrop first: the faucet may refuse it (its reserve), and then nothing is minted either
      // (minting alongside would land USDC, at the treasury's cost, after answering the refusal).
      const signature = await chain.requestAirdrop(walletAddress, solToLamports(amountSol));
      const usdcSignature =
        minter && amountUsdc > 0 ? await mintUsdc(minter, walletAddress, amountUsdc) : null;
      const [lamportsHeld, tokens] = await Promise.all([
        chain.getBalance(walletAddress),
        chain.getTokenBalances(walletAddress),
      ]);
      const sol_balance = fromBaseUnits(lamportsHeld, SOL_DECIMALS);
      const usdc = tokens.get(USDC_MINT);
      return {
        wallet_address: walletAddress,
        amount_sol: amountSol,
        signature,
        sol_balance,
        amount_usdc: usdcSignature ? amountUsdc : 0,
        usdc_signature: usdcSignature,
        usdc_balance: usdc ? fromBaseUnits(usdc.amount, usdc.decimals) : 0,
      };
    },
  };
}
