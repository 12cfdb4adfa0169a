import { randomUUID } from 'node:crypto';
import { address } from '@solana/kit';
import {
  FUTURES_INIT_MIN_DEPOSIT_USDC,
  FUTURES_MIN_DEPOSIT_USDC,
  type TFuturesCollateralRequest,
  type TFuturesDeposit,
} from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { Db } from '../../db/database';
import { buildTransaction } from '../chain/chain.service';
import {
  landedAnswer,
  pendingAnswer,
  type IdempotentAnswer,
  type ServerTicketKind,
  type TicketKind,
} from '../relay/relay.service';
import { payoutWalletOf, provenWalletOf, type WalletOwner } from '../wallet/wallet.service';
import type { RecordedEffect } from './futures.repository';
import type { FuturesServiceDeps } from './futures.service';
import { futuresErrorOf, positiveDecimal } from './futures-errors';
import type { createPerpWire } from './perp-wire';

type PerpWire = ReturnType<typeof createPerpWire>;

const USDC_UNITS = 1_000_000n;

/** A deposit ticket remembers its transfer row and amount; the vault credits it when it lands. */
const ZDepositPayload = z.object({ transferId: z.string(), amount: z.string().regex(/^\d+$/) });
type DepositPayload = z.infer<typeof ZDepositPayload>;

/** A withdrawal ticket remembers its transfer row and the amount debited for it. */
const ZWithdrawPayload = z.object({ transferId: z.string().uuid(), amount: z.string().regex(/^\d+$/) });
type WithdrawPayload = z.infer<typeof ZWithdrawPayload>;

const unitsOf = (amount: Dec) =>
  BigInt(amount.times(USDC_UNITS.toString()).toDecimalPlaces(0, Dec.ROUND_DOWN).toFixed());

/**
 * Collateral in and out of the futures vault (part 2 §7): deposits the wallet signs, credited when
 * they land (relay ticket `perp_deposit`), and withdrawals the vault sends (relay server ticket
 * `perp_withdraw`), debited first and credited back only when the chain says they failed.
 */
export function createFuturesCollateral(deps: FuturesServiceDeps, wire: PerpWire) {
  const { ledger, repo, vault, chain } = deps;

  const depositKind: TicketKind<DepositPayload> = {
    kind: 'perp_deposit',
    payload: ZDepositPayload,
    async onLanded({ tx, ticket, payload, signature }) {
      await ledger.run(
        { k: 'deposit', account: ticket.userId, amount: payload.amount, at: deps.now().getTime() },
        async (inner) => repo.setTransfer(payload.transferId, 'landed', signature, inner),
        tx,
      );
    },
    async onFailed({ tx, payload, signature }) {
      await repo.setTransfer(payload.transferId, 'failed', signature, tx);
    },
    async afterSettled(ticket) {
      deps.onEffect({
        users: new Set([ticket.userId]),
        fills: [],
        liquidated: [],
        markets: new Set(),
        transfer: 'deposit',
      });
      return null;
    },
  };
  deps.relay.registerKind(depositKind);

  async function deposit(
    owner: WalletOwner,
    request: TFuturesCollateralRequest,
    initialize: boolean,
  ): Promise<TFuturesDeposit> {
    const wallet = provenWalletOf(owner, 'FUTURES__WALLET_REQUIRED');
    const amount = positiveDecimal(request.amount, 'FUTURES__DEPOSIT_INVALID');
    const exchange = await ledger.read();
    const exists = exchange.accounts.has(owner.id);
    if (initialize && exists) throw new AppError('FUTURES__ALREADY_INITIALIZED');
    if (!initialize && !exists) throw new AppError('FUTURES__NOT_INITIALIZED');
    if (initialize && amount.lt(FUTURES_INIT_MIN_DEPOSIT_USDC))
      throw new AppError('FUTURES__INITIAL_DEPOSIT_MINIMUM');
    if (!initialize && amount.lt(FUTURES_MIN_DEPOSIT_USDC)) throw new AppError('FUTURES__DEPOSIT_MINIMUM');
    const units = unitsOf(amount);
    const held = (await vault.walletUsdc(wallet))?.amount ?? 0n;
    if (held < units) throw new AppError('FUTURES__INSUFFICIENT_USDC');
    const built = await buildTransaction({
      feePayer: address(wallet),
      instructions: await vault.depositInstructions(wallet, units),
      lifetime: await chain.getLatestBlockhash(),
    });
    const transfer = await repo.insertTransfer({
      userId: owner.id,
      kind: 'deposit',
      amount: units,
      walletAddress: wallet,
      status: 'pending',
    });
    await deps.relay.register({
      userId: owner.id,
      kind: depositKind,
      walletAddress: wallet,
      messageBytes: built.messageBytes,
      lastValidBlockHeight: built.lastValidBlockHeight,
      payload: { transferId: transfer.id, amount: units.toString() },
    });
    return {
      deposit_id: transfer.id,
      amount: wire.usdc(units),
      vault_address: vault.address,
      unsigned_transaction: built.base64,
      message: `Sign to send ${wire.usdc(units)} USDC to the futures vault (${vault.address}); it is credited to your futures account when it lands.`,
    };
  }

  /**
   * A withdrawal is a relay server ticket: its debit and the ticket commit together, and only the
   * chain's verdict settles it — landed, or credited back once when it failed on chain or its
   * blockhash expired unseen (never on an RPC error, which may hide a transfer that landed).
   */
  async function creditBack(tx: Db, userId: string, payload: WithdrawPayload): Promise<void> {
    await ledger.run(
      { k: 'deposit', account: userId, amount: payload.amount, at: deps.now().getTime() },
      async (inner) => repo.setTransfer(payload.transferId, 'refunded', undefined, inner),
      tx,
    );
  }
  const withdrawKind: ServerTicketKind<WithdrawPayload> = {
    kind: 'perp_withdraw',
    payload: ZWithdrawPayload,
    async onLanded({ tx, payload, signature }) {
      await repo.setTransfer(payload.transferId, 'landed', signature, tx);
    },
    onFailed: ({ tx, ticket, payload }) => creditBack(tx, ticket.userId!, payload),
    onExpired: ({ tx, ticket, payload }) => creditBack(tx, ticket.userId!, payload),
  };
  deps.relay.server.registerKind(withdrawKind);

  /** Debits the withdrawal and sends it in one relay server ticket; answers its outcome. */
  async function sendWithdrawal(owner: WalletOwner, wallet: string, units: bigint) {
    if (!(await vault.walletUsdc(wallet))) {
      throw new AppError(
        'FUTURES__WITHDRAW_INVALID',
        'Your wallet has no USDC account to receive the withdrawal',
      );
    }
    const built = await vault.buildWithdrawal(wallet, units);
    const transferId = randomUUID();
    let effect: RecordedEffect | undefined;
    const sent = await deps.relay.server.send({
      kind: withdrawKind,
      userId: owner.id,
      payload: { transferId, amount: units.toString() },
      built,
      async record(tx) {
        const { recorded } = await ledger.run(
          { k: 'withdraw', account: owner.id, amount: units.toString(), at: deps.now().getTime() },
          async (inner, entry) => {
            await repo.insertTransfer(
              {
                id: transferId,
                userId: owner.id,
                kind: 'withdraw',
                amount: units,
                walletAddress: wallet,
                status: 'sending',
              },
              inner,
            );
            await repo.setTransfer(transferId, 'sending', built.signature!, inner);
            return repo.recordEffect(inner, entry);
          },
          tx,
        );
        effect = recorded;
      },
    });
    if (effect) deps.onEffect(effect);
    switch (sent.status) {
      case 'landed':
        return landedAnswer({
          withdraw_id: transferId,
          amount: wire.usdc(units),
          signature: sent.signature,
          status: 'landed' as const,
        });
      case 'pending':
        return pendingAnswer(sent.signature);
      case 'failed':
        throw new AppError('CHAIN__TRANSACTION_FAILED');
      case 'expired':
        throw new AppError('CHAIN__CONFIRMATION_TIMEOUT');
    }
  }

  return {
    depositKind,
    initialize: (owner: WalletOwner, request: TFuturesCollateralRequest) => deposit(owner, request, true),
    deposit: (owner: WalletOwner, request: TFuturesCollateralRequest) => deposit(owner, request, false),

    /**
     * POST /futures/collateral/withdraw: debits free collateral (refused if the margin of open
     * positions and orders needs it), then the vault sends the USDC to the owner's wallet — the only
     * destination, and not while it is under the wallet-change lock. The transfer is a relay server
     * ticket recorded with the debit before it is sent: an unknown outcome answers pending, and the
     * debit is credited back only when the chain says the transfer failed or expired unseen.
     */
    async withdraw(
      owner: WalletOwner,
      request: TFuturesCollateralRequest,
      idempotencyKey?: string,
    ): Promise<IdempotentAnswer> {
      const wallet = await payoutWalletOf(owner, 'FUTURES__WALLET_REQUIRED', deps.withdrawalLock);
      const amount = positiveDecimal(request.amount, 'FUTURES__WITHDRAW_INVALID');
      const units = unitsOf(amount);
      if (units <= 0n) throw new AppError('FUTURES__WITHDRAW_INVALID');
      return deps.relay.moneyRequest(
        owner.id,
        idempotencyKey,
        request,
        () => sendWithdrawal(owner, wallet, units),
        futuresErrorOf,
      );
    },
  };
}
