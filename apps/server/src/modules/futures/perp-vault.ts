import {
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToCheckedInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { address, createNoopSigner, type KeyPairSigner } from '@solana/kit';
import { USDC_MINT } from '@solterm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { associatedTokenAddress, buildTransaction, type ChainService } from '../chain/chain.service';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/app-error';
import type { Relay, ServerSendOutcome, ServerTicketKind } from '../relay/relay.service';

const ZFundingPayload = z.object({
  collateral: z.string().regex(/^\d+$/),
  insurance: z.string().regex(/^\d+$/),
});
export type FundingPayload = z.infer<typeof ZFundingPayload>;

export const USDC_DECIMALS = 6;
const VAULT_MIN_LAMPORTS = 1_000_000_000n;
const VAULT_TOP_UP_LAMPORTS = 10_000_000_000n;

/**
 * The venue's USDC vault on chain: one token account owned by the vault key. Deposits are transfers
 * the user's wallet signs into it; withdrawals are transfers the vault key signs to the owner's
 * wallet, the only destination there is.
 */
export function createPerpVault(deps: {
  chain: ChainService;
  relay: Relay;
  vault: KeyPairSigner;
  /** The USDC mint authority (the embedded cluster's treasury): funds the maker and the insurance fund. */
  minter?: KeyPairSigner;
  /** Give the vault key SOL for its fees from the faucet when it runs low (test networks only). */
  fundFees: boolean;
  log: FastifyBaseLogger;
}) {
  const { chain, vault } = deps;
  const mint = address(USDC_MINT);
  let credit: ((tx: Db, funding: FundingPayload) => Promise<void>) | undefined;

  /** The vault key's own account upkeep (its USDC account, idempotent): nothing to settle. */
  const upkeepKind: ServerTicketKind<{ purpose: string }> = {
    kind: 'perp_vault_upkeep',
    payload: z.object({ purpose: z.string() }),
  };
  /**
   * USDC minted into the vault for the venue's own books (maker collateral, insurance): credited
   * to them when — and only when — the mint lands, in the same database transaction.
   */
  const fundingKind: ServerTicketKind<FundingPayload> = {
    kind: 'perp_vault_funding',
    payload: ZFundingPayload,
    async onLanded({ tx, payload }) {
      if (!credit) throw new Error('the perp vault funding handler is not set');
      await credit(tx, payload);
    },
  };
  deps.relay.server.registerKind(upkeepKind);
  deps.relay.server.registerKind(fundingKind);

  /** A ticket that had to land for the caller to go on: anything else is an error (settled later). */
  function landedOrThrow(sent: ServerSendOutcome): string {
    if (sent.status === 'landed') return sent.signature;
    if (sent.status === 'failed') throw new AppError('CHAIN__TRANSACTION_FAILED');
    throw new AppError('CHAIN__CONFIRMATION_TIMEOUT');
  }

  async function sendAsVault(instructions: Parameters<typeof buildTransaction>[0]['instructions']) {
    const built = await buildTransaction({
      feePayer: vault.address,
      instructions,
      lifetime: await chain.getLatestBlockhash(),
      coSigners: [vault],
    });
    return landedOrThrow(
      await deps.relay.server.send({ kind: upkeepKind, payload: { purpose: 'usdc_account' }, built }),
    );
  }

  return {
    address: vault.address as string,
    tokenAccount: () => associatedTokenAddress(vault.address, USDC_MINT),

    /** USDC base units the vault holds on chain. */
    async balance(): Promise<bigint> {
      const account = await chain.getTokenAccount(await associatedTokenAddress(vault.address, USDC_MINT));
      return account?.amount ?? 0n;
    },

    /** Tops up the vault key's SOL for fees (test networks) and opens its USDC account. */
    async ensureReady(): Promise<void> {
      if (deps.fundFees && (await chain.getBalance(vault.address)) < VAULT_MIN_LAMPORTS) {
        await chain.requestAirdrop(vault.address, VAULT_TOP_UP_LAMPORTS);
      }
      const ata = await associatedTokenAddress(vault.address, USDC_MINT);
      if (!(await chain.getTokenAccount(ata))) {
        await sendAsVault([
          getCreateAssociatedTokenIdempotentInstruction({ payer: vault, ata, owner: vault.address, mint }),
        ]);
      }
    },

    /** Whether new USDC can be minted into the vault (the embedded cluster). */
    canMint: () => deps.minter !== undefined,

    /** Credits a landed funding mint to the venue's books (set once by the keeper, before it runs). */
    onFunded(handler: (tx: Db, funding: FundingPayload) => Promise<void>): void {
      credit = handler;
    },

    /** Whether a funding mint was sent and its outcome is not known yet (never mint twice). */
    async fundingInFlight(): Promise<boolean> {
      return (await deps.relay.server.unsettled()).some((ticket) => ticket.kind === fundingKind.kind);
    },

    /**
     * Mints USDC into the vault for the venue's own money (maker collateral, insurance) as a relay
     * server ticket; the books are credited by `onFunded` when it lands. Answers whether it landed.
     */
    async mint(funding: { collateral: bigint; insurance: bigint }): Promise<ServerSendOutcome> {
      const minter = deps.minter;
      if (!minter) throw new Error('no USDC mint authority: the vault cannot be funded here');
      const ata = await associatedTokenAddress(vault.address, USDC_MINT);
      const built = await buildTransaction({
        feePayer: minter.address,
        instructions: [
          getMintToCheckedInstruction({
            mint,
            token: ata,
            mintAuthority: minter,
            amount: funding.collateral + funding.insurance,
            decimals: USDC_DECIMALS,
          }),
        ],
        lifetime: await chain.getLatestBlockhash(),
        coSigners: [minter],
      });
      return deps.relay.server.send({
        kind: fundingKind,
        payload: { collateral: funding.collateral.toString(), insurance: funding.insurance.toString() },
        built,
      });
    },

    /** The instructions of a deposit the wallet signs: its USDC into the vault. */
    async depositInstructions(wallet: string, amount: bigint) {
      const payer = createNoopSigner(address(wallet));
      const [source, destination] = await Promise.all([
        associatedTokenAddress(wallet, USDC_MINT),
        associatedTokenAddress(vault.address, USDC_MINT),
      ]);
      return [
        getTransferCheckedInstruction({
          source,
          mint,
          destination,
          authority: payer,
          amount,
          decimals: USDC_DECIMALS,
        }),
      ];
    },

    /** The wallet's USDC account, if it has one (a withdrawal never opens one at the vault's cost). */
    async walletUsdc(wallet: string) {
      return chain.getTokenAccount(await associatedTokenAddress(wallet, USDC_MINT));
    },

    /**
     * Builds and signs a withdrawal of `amount` to `wallet`'s USDC account: the signature is known
     * before sending, so it can be stored first and the outcome read from the chain after a crash.
     */
    async buildWithdrawal(wallet: string, amount: bigint) {
      const [source, destination] = await Promise.all([
        associatedTokenAddress(vault.address, USDC_MINT),
        associatedTokenAddress(wallet, USDC_MINT),
      ]);
      return buildTransaction({
        feePayer: vault.address,
        instructions: [
          getTransferCheckedInstruction({
            source,
            mint,
            destination,
            authority: vault,
            amount,
            decimals: USDC_DECIMALS,
          }),
        ],
        lifetime: await chain.getLatestBlockhash(),
        coSigners: [vault],
      });
    },
  };
}

export type PerpVault = ReturnType<typeof createPerpVault>;
