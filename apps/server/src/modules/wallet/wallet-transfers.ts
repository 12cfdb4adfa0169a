import { getCloseAccountInstruction } from '@solana-program/token';
import { address, createNoopSigner, isAddress, type Instruction } from '@solana/kit';
import {
  SOL_DECIMALS,
  WRAPPED_SOL_MINT,
  type TSolTransferRequest,
  type TTokenTransferRequest,
  type TTransferTransaction,
  type TUnwrapTransaction,
} from '@solterm/contracts';
import {
  RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
  RENT_EXEMPT_WALLET_LAMPORTS,
  solSpendCheck,
} from '@solterm/engine';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import {
  associatedTokenAddress,
  buildTransaction,
  LAMPORTS_PER_SIGNATURE,
  tokenLegInstructions,
  type BlockhashLifetime,
  type ChainService,
} from '../chain/chain.service';
import type { Relay, TicketKind } from '../relay/relay.service';
import { fromBaseUnits, resolveMint, signingWalletOf, toBaseUnits, type WalletOwner } from './wallet-owner';

/**
 * The sender must cover `spend` lamports, and the runtime refuses to leave a wallet holding less
 * than the rent-exempt minimum unless it is emptied completely (the engine's one rent rule).
 */
function requireLamports(held: bigint, spend: bigint): void {
  const check = solSpendCheck(held, spend);
  if (check === 'insufficient') throw new AppError('WALLET__INSUFFICIENT_BALANCE');
  if (check === 'below_rent') throw new AppError('WALLET__SENDER_BELOW_RENT');
}

/** What a transfer ticket remembers: nothing is recorded when it lands beyond the ticket itself. */
const ZTransferPayload = z.object({
  to_address: z.string(),
  mint_address: z.string().nullable(),
  amount_base_units: z.string().regex(/^\d+$/),
});

const transferKind: TicketKind<z.infer<typeof ZTransferPayload>> = {
  kind: 'transfer',
  payload: ZTransferPayload,
  async onLanded() {},
};

/** An unwrap ticket remembers the wrapped-SOL account it closes; nothing else is recorded. */
const ZUnwrapPayload = z.object({ account: z.string(), lamports: z.string().regex(/^\d+$/) });

const unwrapKind: TicketKind<z.infer<typeof ZUnwrapPayload>> = {
  kind: 'unwrap_sol',
  payload: ZUnwrapPayload,
  async onLanded() {},
};

/**
 * The SPL closeAccount of `wallet`'s wrapped-SOL account, its lamports (wrapped SOL and rent) to the
 * wallet itself: the one way wrapped SOL becomes SOL again.
 */
export function unwrapSolInstruction(wallet: string, account: string): Instruction {
  return getCloseAccountInstruction({
    account: address(account),
    destination: address(wallet),
    owner: createNoopSigner(address(wallet)),
  });
}

/** Unsigned SOL and SPL transfers from the connected wallet, relayed as 'transfer' tickets. */
export function createWalletTransfers(deps: { chain: ChainService; relay: Relay }) {
  const { chain } = deps;
  deps.relay.registerKind(transferKind);
  deps.relay.registerKind(unwrapKind);

  interface PreparedTransfer {
    from: string;
    to: string;
    mint: string | null;
    units: bigint;
    decimals: number;
    instructions: Instruction[];
    lifetime: BlockhashLifetime;
  }

  /** Builds the prepared transfer unsigned (the wallet pays the fee) and records it as a ticket. */
  async function issueTransfer(
    owner: WalletOwner,
    prepared: PreparedTransfer,
  ): Promise<TTransferTransaction> {
    const built = await buildTransaction({
      feePayer: address(prepared.from),
      instructions: prepared.instructions,
      lifetime: prepared.lifetime,
    });
    await deps.relay.register({
      userId: owner.id,
      kind: transferKind,
      walletAddress: prepared.from,
      messageBytes: built.messageBytes,
      lastValidBlockHeight: built.lastValidBlockHeight,
      payload: {
        to_address: prepared.to,
        mint_address: prepared.mint,
        amount_base_units: prepared.units.toString(),
      },
    });
    return {
      unsigned_transaction: built.base64,
      last_valid_block_height: built.lastValidBlockHeight.toString(),
      from_address: prepared.from,
      to_address: prepared.to,
      mint_address: prepared.mint,
      amount: fromBaseUnits(prepared.units, prepared.decimals),
      size_bytes: built.sizeBytes,
    };
  }

  /** The sender and a valid recipient other than the sender. */
  function transferParties(owner: WalletOwner, toAddress: string): { from: string; to: string } {
    const from = signingWalletOf(owner);
    const to = toAddress.trim();
    if (!isAddress(to)) throw new AppError('WALLET__RECIPIENT_INVALID');
    if (to === from) throw new AppError('WALLET__RECIPIENT_IS_SENDER');
    return { from, to };
  }

  return {
    /**
     * POST /wallet/unwrap-sol: the closeAccount of the connected wallet's wrapped-SOL account for it
     * to sign (sent via execute-signed-transaction). Refused while the account is approved to a
     * delegate with allowance left: closing it would end a bot's approval behind its owner's back;
     * revoking can unwrap in the same transaction instead.
     */
    async unwrapSol(owner: WalletOwner): Promise<TUnwrapTransaction> {
      const wallet = signingWalletOf(owner);
      const account = await associatedTokenAddress(wallet, WRAPPED_SOL_MINT);
      const [state, accountLamports, held, lifetime] = await Promise.all([
        chain.getTokenAccount(account),
        chain.getBalance(account),
        chain.getBalance(wallet),
        chain.getLatestBlockhash(),
      ]);
      if (!state || state.owner !== wallet) throw new AppError('WALLET__NOTHING_TO_UNWRAP');
      if (state.delegate !== null && state.delegatedAmount > 0n) {
        throw new AppError('WALLET__WRAPPED_SOL_DELEGATED');
      }
      // The fee is paid before the account's lamports arrive.
      if (held < LAMPORTS_PER_SIGNATURE) throw new AppError('WALLET__INSUFFICIENT_BALANCE');
      const built = await buildTransaction({
        feePayer: address(wallet),
        instructions: [unwrapSolInstruction(wallet, account)],
        lifetime,
      });
      await deps.relay.register({
        userId: owner.id,
        kind: unwrapKind,
        walletAddress: wallet,
        messageBytes: built.messageBytes,
        lastValidBlockHeight: built.lastValidBlockHeight,
        payload: { account, lamports: accountLamports.toString() },
      });
      return {
        unsigned_transaction: built.base64,
        last_valid_block_height: built.lastValidBlockHeight.toString(),
        wallet_address: wallet,
        amount: fromBaseUnits(state.amount, SOL_DECIMALS),
        sol_returned: fromBaseUnits(accountLamports, SOL_DECIMALS),
        size_bytes: built.sizeBytes,
      };
    },

    /**
     * POST /wallet/transfer and /solana/transfer: an unsigned SOL transfer from the connected wallet.
     * The amount is rounded down to whole lamports; the wallet must cover it plus the network fee.
     */
    async transferSol(owner: WalletOwner, request: TSolTransferRequest): Promise<TTransferTransaction> {
      const { from, to } = transferParties(owner, request.to_address);
      const lamportsToSend = toBaseUnits(request.amount, SOL_DECIMALS);
      if (lamportsToSend < 1n) throw new AppError('WALLET__AMOUNT_TOO_SMALL');
      const [held, recipientHeld, lifetime] = await Promise.all([
        chain.getBalance(from),
        chain.getBalance(to),
        chain.getLatestBlockhash(),
      ]);
      requireLamports(held, lamportsToSend + LAMPORTS_PER_SIGNATURE);
      if (recipientHeld === 0n && lamportsToSend < RENT_EXEMPT_WALLET_LAMPORTS) {
        throw new AppError('WALLET__RECIPIENT_BELOW_RENT');
      }
      return issueTransfer(owner, {
        from,
        to,
        mint: null,
        units: lamportsToSend,
        decimals: SOL_DECIMALS,
        instructions: await tokenLegInstructions({
          token: { mint: WRAPPED_SOL_MINT, decimals: SOL_DECIMALS },
          from: createNoopSigner(address(from)),
          to,
          amount: lamportsToSend,
        }),
        lifetime,
      });
    },

    /**
     * POST /solana/transfer-token: an unsigned SPL transfer (mint address or identity-map symbol)
     * from the wallet's associated token account, creating the recipient's if needed; the wallet
     * pays the fee and, for a new recipient account, its rent.
     */
    async transferToken(owner: WalletOwner, request: TTokenTransferRequest): Promise<TTransferTransaction> {
      const { from, to } = transferParties(owner, request.to_address);
      const mint = resolveMint(request.mint_address);
      const [info, held, tokens, recipientAccountLamports, lifetime] = await Promise.all([
        chain.getMintInfo(mint),
        chain.getBalance(from),
        chain.getTokenBalances(from),
        associatedTokenAddress(to, mint).then((account) => chain.getBalance(account)),
        chain.getLatestBlockhash(),
      ]);
      if (!info) throw new AppError('WALLET__TOKEN_NOT_FOUND');
      const units = toBaseUnits(request.amount, info.decimals);
      if (units < 1n) throw new AppError('WALLET__AMOUNT_TOO_SMALL');
      if (units > (tokens.get(mint)?.amount ?? 0n)) throw new AppError('WALLET__INSUFFICIENT_BALANCE');
      const accountRent = recipientAccountLamports === 0n ? RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS : 0n;
      requireLamports(held, LAMPORTS_PER_SIGNATURE + accountRent);
      return issueTransfer(owner, {
        from,
        to,
        mint,
        units,
        decimals: info.decimals,
        // The sender pays the rent of the recipient's token account when it has to be created.
        instructions: await tokenLegInstructions({
          token: { mint, decimals: info.decimals },
          from: createNoopSigner(address(from)),
          to,
          amount: units,
          createRecipientAccount: createNoopSigner(address(from)),
        }),
        lifetime,
      });
    },
  };
}
