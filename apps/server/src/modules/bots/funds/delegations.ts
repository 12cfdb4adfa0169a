import { getTransferSolInstruction } from '@solana-program/system';
import {
  getApproveCheckedInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getRevokeInstruction,
  getSyncNativeInstruction,
} from '@solana-program/token';
import { address, createNoopSigner, getTransactionDecoder, type Instruction } from '@solana/kit';
import { BOT_FEE_FLOAT_LAMPORTS, SOL_DECIMALS, WRAPPED_SOL_MINT, type TDelegation } from '@solterm/contracts';
import { fromBaseUnits, RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS, solSpendCheck } from '@solterm/engine';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error';
import {
  associatedTokenAddress,
  buildTransaction,
  LAMPORTS_PER_SIGNATURE,
  type ChainService,
} from '../../chain/chain.service';
import type { Relay, TicketKind } from '../../relay/relay.service';
import { walletTransactionErrorOf } from '../../trading/trading.service';
import { provenWalletOf, unwrapSolInstruction, type WalletOwner } from '../../wallet/wallet.service';
import type { BotFundsRepository, DelegationRow } from './bot-funds.repository';
import type { BotWallet } from './bot-wallet';

const MAX_DELEGATIONS_LISTED = 50;
const sol = (lamports: bigint) => fromBaseUnits(lamports, SOL_DECIMALS).toFixed();

/** What a delegation ticket remembers: which delegation, approved or revoked when it lands. */
const ZDelegationPayload = z.object({
  delegationId: z.string(),
  action: z.enum(['approve', 'revoke']),
});
type DelegationPayload = z.infer<typeof ZDelegationPayload>;

function delegationToWire(row: DelegationRow): TDelegation {
  const amount = BigInt(row.amountLamports);
  return {
    delegation_id: row.id,
    status: row.status as TDelegation['status'],
    unsigned_transaction: row.unsignedTransaction,
    message:
      row.status === 'active' && row.unsignedTransaction
        ? 'Sign to revoke: your bot will not be able to draw any more of your wrapped SOL.'
        : `Approve your bot to trade up to ${sol(amount)} SOL from your wallet. The token program enforces the allowance; you can revoke it at any time.`,
    instructions: row.instructions as string[],
    amount: fromBaseUnits(amount, SOL_DECIMALS).toNumber(),
    token_mint: row.tokenMint,
    wallet_address: row.walletAddress,
    bot_public_key: row.botAddress,
    approve_signature: row.approveSignature,
    revoke_signature: row.revokeSignature,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Delegations: the wallet signs one transaction that approves the user's bot key as SPL delegate of
 * the wallet's wrapped-SOL account for an amount (wrapping SOL into it first when it holds less),
 * and later an SPL revoke. Both are relay tickets: executed like any signed transaction, and
 * recorded when they land.
 */
export function createDelegations(deps: {
  repo: BotFundsRepository;
  chain: ChainService;
  relay: Relay;
  wallet: BotWallet;
  now: () => Date;
  /** After a revocation landed: the user's on-chain runs stop (the bot can draw nothing more). */
  onRevoked: (userId: string) => Promise<void>;
}) {
  const { repo, chain, relay } = deps;

  const kind: TicketKind<DelegationPayload> = {
    kind: 'bot_delegation',
    payload: ZDelegationPayload,
    async onLanded({ tx, ticket, payload, signature, at }) {
      if (payload.action === 'approve')
        await repo.activate(tx, payload.delegationId, ticket.userId, signature, at);
      else {
        await repo.revokeAll(tx, ticket.userId, signature, at);
        deps.wallet.forgetSigner(ticket.userId);
      }
    },
  };
  relay.registerKind(kind);

  /** The connected Solana wallet that signs the delegation. */
  function walletOf(owner: WalletOwner): string {
    return provenWalletOf(owner, 'BOTS__WALLET_REQUIRED');
  }

  /** Builds `instructions` for `wallet` to sign and registers them as the delegation's ticket. */
  async function issue(
    userId: string,
    wallet: string,
    instructions: Instruction[],
    payload: DelegationPayload,
  ) {
    const built = await buildTransaction({
      feePayer: address(wallet),
      instructions,
      lifetime: await chain.getLatestBlockhash(),
    });
    await relay.register({
      userId,
      kind,
      walletAddress: wallet,
      messageBytes: built.messageBytes,
      lastValidBlockHeight: built.lastValidBlockHeight,
      payload,
    });
    return built.base64;
  }

  /** The approval's instructions and their plain descriptions, from what the chain holds now. */
  async function approval(wallet: string, bot: string, amount: bigint) {
    const account = await associatedTokenAddress(wallet, WRAPPED_SOL_MINT);
    const [held, wrapped, botLamports] = await Promise.all([
      chain.getBalance(wallet),
      chain.getTokenAccount(account),
      chain.getBalance(bot),
    ]);
    const payer = createNoopSigner(address(wallet));
    const mint = address(WRAPPED_SOL_MINT);
    const instructions: Instruction[] = [];
    const lines: string[] = [];
    const float = botLamports < BOT_FEE_FLOAT_LAMPORTS ? BOT_FEE_FLOAT_LAMPORTS - botLamports : 0n;
    if (float > 0n) {
      instructions.push(
        getTransferSolInstruction({ source: payer, destination: address(bot), amount: float }),
      );
      lines.push(
        `Send ${sol(float)} SOL to your bot (${bot}) for its network fees; it stays yours and comes back with Withdraw`,
      );
    }
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata: account, owner: address(wallet), mint }),
    );
    if (!wrapped) lines.push('Open your wrapped-SOL account');
    const wrap = amount - (wrapped?.amount ?? 0n);
    if (wrap > 0n) {
      instructions.push(
        getTransferSolInstruction({ source: payer, destination: account, amount: wrap }),
        getSyncNativeInstruction({ account }),
      );
      lines.push(`Wrap ${sol(wrap)} SOL into your wrapped-SOL account (it stays in your wallet)`);
    }
    instructions.push(
      getApproveCheckedInstruction({
        source: account,
        mint,
        delegate: address(bot),
        owner: payer,
        amount,
        decimals: SOL_DECIMALS,
      }),
    );
    lines.push(
      `Approve your bot to move up to ${sol(amount)} wrapped SOL out of that account — nothing else`,
    );
    const spend =
      float +
      (wrap > 0n ? wrap : 0n) +
      (wrapped ? 0n : RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS) +
      LAMPORTS_PER_SIGNATURE;
    if (solSpendCheck(held, spend) !== 'ok') throw new AppError('DELEGATION__INSUFFICIENT_SOL');
    return { instructions, lines };
  }

  return {
    /**
     * POST /delegation/create and /delegation/create-transaction: a pending delegation of `amount`
     * lamports with the transaction the wallet signs.
     */
    async create(owner: WalletOwner, amount: bigint): Promise<TDelegation> {
      const wallet = walletOf(owner);
      const bot = await deps.wallet.addressOf(owner.id);
      const { instructions, lines } = await approval(wallet, bot, amount);
      const at = deps.now();
      const row = await repo.insertDelegation({
        userId: owner.id,
        walletAddress: wallet,
        botAddress: bot,
        tokenMint: WRAPPED_SOL_MINT,
        amountLamports: amount.toString(),
        status: 'pending',
        instructions: lines,
        createdAt: at,
        updatedAt: at,
      });
      const unsigned = await issue(owner.id, wallet, instructions, {
        delegationId: row.id,
        action: 'approve',
      });
      await repo.setUnsigned(row.id, unsigned, lines, at);
      return delegationToWire({ ...row, unsignedTransaction: unsigned });
    },

    /** The spelled-out variant's checks: the caller's own wallet, bot key and wrapped SOL only. */
    async checkTransactionRequest(
      owner: WalletOwner,
      request: { wallet_address: string; token_mint: string; bot_public_key: string },
    ): Promise<void> {
      if (request.wallet_address !== walletOf(owner)) throw new AppError('DELEGATION__WALLET_MISMATCH');
      if (request.token_mint !== WRAPPED_SOL_MINT) throw new AppError('DELEGATION__TOKEN_UNSUPPORTED');
      if (request.bot_public_key !== (await deps.wallet.addressOf(owner.id))) {
        throw new AppError('DELEGATION__BOT_KEY_MISMATCH');
      }
    },

    /**
     * POST /delegation/submit: the signed approval or revocation, executed through the relay. The
     * transaction must be the one this delegation last built (byte for byte, signatures aside).
     */
    async submit(owner: WalletOwner, delegationId: string, signed: string) {
      const row = await repo.delegation(owner.id, delegationId);
      if (!row) throw new AppError('DELEGATION__NOT_FOUND');
      if (!row.unsignedTransaction) throw new AppError('TRADING__ALREADY_EXECUTED');
      const decode = (wire: string) => {
        try {
          return getTransactionDecoder().decode(Buffer.from(wire, 'base64'));
        } catch {
          throw new AppError('TRADING__TRANSACTION_INVALID');
        }
      };
      const expected = decode(row.unsignedTransaction).messageBytes;
      const got = decode(signed).messageBytes;
      if (Buffer.compare(Buffer.from(expected), Buffer.from(got)) !== 0) {
        throw new AppError('TRADING__TRANSACTION_MODIFIED');
      }
      const revoking = row.status === 'active';
      const result = await relay
        .execute({ id: owner.id, solanaWalletAddress: row.walletAddress }, signed)
        .catch((error: unknown) => {
          throw walletTransactionErrorOf(error);
        });
      if (revoking) {
        deps.wallet.forgetSigner(owner.id);
        await deps.onRevoked(owner.id);
      }
      const after = (await repo.delegation(owner.id, delegationId))!;
      return { ...delegationToWire(after), transaction_hash: result.transaction_hash };
    },

    /** GET /delegation/list: newest first. */
    async list(owner: { id: string }): Promise<TDelegation[]> {
      return (await repo.delegationsOf(owner.id, MAX_DELEGATIONS_LISTED)).map(delegationToWire);
    },

    /**
     * DELETE /delegation/revoke/{id}: the SPL revoke for the approving wallet to sign (submitted
     * like the approval); once it lands the bot can move nothing more.
     */
    async revoke(owner: { id: string }, delegationId: string, unwrap = false): Promise<TDelegation> {
      const row = await repo.delegation(owner.id, delegationId);
      if (!row) throw new AppError('DELEGATION__NOT_FOUND');
      if (row.status !== 'active') throw new AppError('DELEGATION__NOT_ACTIVE');
      const account = await associatedTokenAddress(row.walletAddress, WRAPPED_SOL_MINT);
      const lines = ['Revoke your bot’s approval on your wrapped-SOL account (it can draw nothing more)'];
      const instructions: Instruction[] = [
        getRevokeInstruction({ source: account, owner: createNoopSigner(address(row.walletAddress)) }),
      ];
      // The approval's unused wrapped SOL would otherwise stay wrapped: closing the account after the
      // revoke returns it (and the account's rent) to the wallet as SOL.
      if (unwrap && (await chain.getTokenAccount(account))) {
        instructions.push(unwrapSolInstruction(row.walletAddress, account));
        lines.push('Unwrap: close your wrapped-SOL account; its SOL and rent come back to your wallet');
      }
      const unsigned = await issue(owner.id, row.walletAddress, instructions, {
        delegationId: row.id,
        action: 'revoke',
      });
      await repo.setUnsigned(row.id, unsigned, lines, deps.now());
      return delegationToWire({ ...row, unsignedTransaction: unsigned, instructions: lines });
    },

    /** The user's active delegation, when the chain still names their bot as delegate with allowance. */
    async approvedAllowance(owner: { id: string; solanaWalletAddress: string | null }): Promise<bigint> {
      const active = await repo.activeDelegation(owner.id);
      if (!active) return 0n;
      return deps.wallet.allowanceOf(active.walletAddress, active.botAddress);
    },
  };
}

export type Delegations = ReturnType<typeof createDelegations>;
