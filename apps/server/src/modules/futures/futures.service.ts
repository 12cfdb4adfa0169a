import { randomUUID } from 'node:crypto';
import { address } from '@solana/kit';
import {
  FUTURES_INIT_MIN_DEPOSIT_USDC,
  FUTURES_MIN_DEPOSIT_USDC,
  parseFuturesDecimal,
  type TFuturesAccount,
  type TFuturesCollateralRequest,
  type TFuturesDeposit,
  type TFuturesLeverageRequest,
  type TFuturesOrder,
  type TFuturesOrderRequest,
  type TFuturesPosition,
  type TFuturesTrade,
  type ErrorCode,
} from '@solterm/contracts';
import {
  Dec,
  lotsOf,
  notionalOf,
  PERP_DEFAULT_LEVERAGE,
  PerpError,
  type PerpErrorCode,
} from '@solterm/engine';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { buildTransaction, type ChainService } from '../chain/chain.service';
import type { Db } from '../../db/database';
import {
  isRelayError,
  moneyRequestErrorOf,
  landedAnswer,
  pendingAnswer,
  type IdempotentAnswer,
  type Relay,
  type ServerTicketKind,
  type TicketKind,
} from '../relay/relay.service';
import {
  payoutWalletOf,
  provenWalletOf,
  type WalletOwner,
  type WithdrawalLock,
} from '../wallet/wallet.service';
import type { FuturesRepository, RecordedEffect } from './futures.repository';
import { MAKER_ACCOUNT, type PerpCommand } from './perp-commands';
import type { Applied, PerpLedger } from './perp-ledger';
import { findPerpMarket, type PerpMarket } from './perp-markets';
import { createPerpWire } from './perp-wire';
import { fillToWire, orderToWire, positionsOf, tradeToWire } from './futures-wire';
import { createLeverageAction, leverageSettingsOf } from './futures-leverage';
import type { PerpVault } from './perp-vault';

const USDC_UNITS = 1_000_000n;
const MAX_LISTED = 50;

/** Engine refusals as the API's errors (spec §5 and §8 wording). */
const PERP_ERRORS: Record<PerpErrorCode, ErrorCode> = {
  MARKET_UNKNOWN: 'FUTURES__MARKET_UNSUPPORTED',
  MARKET_NO_PRICE: 'FUTURES__NO_MARKET_PRICE',
  SIZE_INVALID: 'FUTURES__AMOUNT_OR_PRICE_INVALID',
  SIZE_BELOW_MIN: 'FUTURES__BELOW_MIN_ORDER_SIZE',
  PRICE_INVALID: 'FUTURES__AMOUNT_OR_PRICE_INVALID',
  PRICE_OUT_OF_BAND: 'FUTURES__PRICE_OUT_OF_BAND',
  LEVERAGE_INVALID: 'FUTURES__LEVERAGE_INVALID',
  LEVERAGE_MISMATCH: 'FUTURES__LEVERAGE_MISMATCH',
  LEVERAGE_UNDERMARGINED: 'FUTURES__LEVERAGE_UNDERMARGINED',
  INSUFFICIENT_MARGIN: 'FUTURES__INSUFFICIENT_MARGIN',
  POST_ONLY_WOULD_CROSS: 'FUTURES__POST_ONLY_WOULD_CROSS',
  REDUCE_ONLY_NO_POSITION: 'FUTURES__REDUCE_ONLY_NO_POSITION',
  NO_LIQUIDITY: 'FUTURES__NO_LIQUIDITY',
  ORDER_NOT_FOUND: 'FUTURES__ORDER_NOT_FOUND',
  AMOUNT_INVALID: 'FUTURES__AMOUNT_OR_PRICE_INVALID',
  INSUFFICIENT_COLLATERAL: 'FUTURES__INSUFFICIENT_FREE_COLLATERAL',
  ACCOUNT_UNKNOWN: 'FUTURES__NOT_INITIALIZED',
};

/** Refusals whose engine message names the account's figures (its leverage, the market). */
const SPECIFIC: ReadonlySet<PerpErrorCode> = new Set(['LEVERAGE_MISMATCH', 'LEVERAGE_UNDERMARGINED']);

function asAppError(error: unknown): unknown {
  if (!(error instanceof PerpError)) return error;
  const code = PERP_ERRORS[error.code];
  if (!SPECIFIC.has(error.code)) return new AppError(code);
  return new AppError(
    code,
    code === 'FUTURES__LEVERAGE_MISMATCH' ? `Order failed: ${error.message}` : error.message,
  );
}

/** A number the user typed: a plain decimal (no sign, exponent, hex or spaces) above 0, or the given refusal. */
function positiveDecimal(input: number | string | undefined, refusal: ErrorCode): Dec {
  const value = parseFuturesDecimal(input);
  if (!value || value.lte(0)) throw new AppError(refusal);
  return value;
}

/** A withdrawal ticket remembers its transfer row and the amount debited for it. */
const ZWithdrawPayload = z.object({ transferId: z.string().uuid(), amount: z.string().regex(/^\d+$/) });
type WithdrawPayload = z.infer<typeof ZWithdrawPayload>;

/** The relay's refusals and engine refusals of a withdrawal, in futures' words. */
function futuresErrorOf(error: unknown): unknown {
  return isRelayError(error) ? moneyRequestErrorOf(error) : asAppError(error);
}

/** A deposit ticket remembers its transfer row and amount; the vault credits it when it lands. */
const ZDepositPayload = z.object({ transferId: z.string(), amount: z.string().regex(/^\d+$/) });
type DepositPayload = z.infer<typeof ZDepositPayload>;

export interface FuturesServiceDeps {
  ledger: PerpLedger;
  repo: FuturesRepository;
  vault: PerpVault;
  chain: ChainService;
  relay: Relay;
  now: () => Date;
  /** Withdrawals to a wallet linked in place of another are refused for a while (auth's lock). */
  withdrawalLock: WithdrawalLock;
  /** After a command committed: push books, trades and account updates. */
  onEffect: (effect: RecordedEffect) => void;
  /** Before an order or a close: bring the market's oracle and the maker's quotes up to the feed. */
  syncMarket?: (symbol: string) => Promise<void>;
}

/**
 * The local perp venue's API (part 2 §7 Futures): accounts funded with USDC held on chain in the
 * vault, orders into the engine's books, positions marked to the oracle. Every change goes through
 * the ledger (one command, logged, in a transaction with what it wrote for the users).
 */
export function createFuturesService(deps: FuturesServiceDeps) {
  const { ledger, repo, vault, chain } = deps;
  const wire = createPerpWire();

  /** Applies a command, writing its effects (and `extra`'s) in its transaction; pushes them after. */
  async function run<X = undefined>(command: PerpCommand, extra?: (tx: Db, applied: Applied) => Promise<X>) {
    try {
      const { applied, recorded } = await ledger.run(command, async (inner, entry) => ({
        effect: await repo.recordEffect(inner, entry),
        extra: extra ? await extra(inner, entry) : (undefined as X),
      }));
      deps.onEffect(recorded.effect);
      return { applied, effect: recorded.effect, extra: recorded.extra };
    } catch (error) {
      throw asAppError(error);
    }
  }

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
      deps.onEffect({ users: new Set([ticket.userId]), fills: [], liquidated: [], markets: new Set() });
      return null;
    },
  };
  deps.relay.registerKind(depositKind);

  function walletOf(owner: WalletOwner): string {
    return provenWalletOf(owner, 'FUTURES__WALLET_REQUIRED');
  }

  function marketOf(symbol: string): PerpMarket {
    const market = findPerpMarket(symbol);
    if (!market) throw new AppError('FUTURES__MARKET_UNSUPPORTED');
    return market;
  }

  async function deposit(
    owner: WalletOwner,
    request: TFuturesCollateralRequest,
    initialize: boolean,
  ): Promise<TFuturesDeposit> {
    const wallet = walletOf(owner);
    const amount = positiveDecimal(request.amount, 'FUTURES__DEPOSIT_INVALID');
    const exchange = await ledger.read();
    const exists = exchange.accounts.has(owner.id);
    if (initialize && exists) throw new AppError('FUTURES__ALREADY_INITIALIZED');
    if (!initialize && !exists) throw new AppError('FUTURES__NOT_INITIALIZED');
    if (initialize && amount.lt(FUTURES_INIT_MIN_DEPOSIT_USDC))
      throw new AppError('FUTURES__INITIAL_DEPOSIT_MINIMUM');
    if (!initialize && amount.lt(FUTURES_MIN_DEPOSIT_USDC)) throw new AppError('FUTURES__DEPOSIT_MINIMUM');
    const units = BigInt(amount.times(USDC_UNITS.toString()).toDecimalPlaces(0, Dec.ROUND_DOWN).toFixed());
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
  const setLeverage = createLeverageAction({ run, read: () => ledger.read(), wire, now: deps.now });

  return {
    wire,
    depositKind,
    /** The replicated venue (reads for jobs and tests). */
    ledger,
    /** The vault key's address (it pays the fees of withdrawals). */
    vaultAddress: vault.address,

    async account(owner: WalletOwner): Promise<TFuturesAccount> {
      const exchange = await ledger.read();
      const account = exchange.accounts.get(owner.id);
      const pending = await repo.pendingTransfers(owner.id);
      const base = {
        wallet_address: owner.solanaWalletAddress,
        vault_address: vault.address,
        pending_transfers: pending.map((row) => ({
          id: row.id,
          kind: row.kind as 'deposit' | 'withdraw',
          amount: wire.usdc(BigInt(row.amount)),
          status: row.status,
        })),
      };
      if (!account) {
        const zero = wire.usdc(0n);
        return {
          ...base,
          initialized: false,
          collateral: zero,
          equity: zero,
          unrealized_pnl: zero,
          initial_margin: zero,
          maintenance_margin: zero,
          free_collateral: zero,
          leverage: '0.00',
          open_orders: 0,
          open_positions: 0,
          leverage_settings: leverageSettingsOf(exchange, undefined),
        };
      }
      const equity = exchange.equityOf(account);
      let notional = 0n;
      for (const [symbol, position] of account.positions) {
        const market = findPerpMarket(symbol)!;
        notional += notionalOf(position.size, exchange.market(symbol).oracle, market.sizeDecimals);
      }
      return {
        ...base,
        initialized: true,
        collateral: wire.usdc(account.collateral),
        equity: wire.usdc(equity),
        unrealized_pnl: wire.usdc(equity - account.collateral),
        initial_margin: wire.usdc(exchange.initialRequirementOf(account)),
        maintenance_margin: wire.usdc(exchange.maintenanceOf(account)),
        free_collateral: wire.usdc(exchange.freeCollateralOf(account)),
        leverage: equity > 0n ? new Dec(notional.toString()).div(equity.toString()).toFixed(2) : '0.00',
        open_orders: account.orders.size,
        open_positions: account.positions.size,
        leverage_settings: leverageSettingsOf(exchange, account),
      };
    },

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
      const units = BigInt(amount.times(USDC_UNITS.toString()).toDecimalPlaces(0, Dec.ROUND_DOWN).toFixed());
      if (units <= 0n) throw new AppError('FUTURES__WITHDRAW_INVALID');
      return deps.relay.moneyRequest(
        owner.id,
        idempotencyKey,
        request,
        async () => {
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
        },
        futuresErrorOf,
      );
    },

    async placeOrder(owner: WalletOwner, request: TFuturesOrderRequest) {
      walletOf(owner);
      const market = marketOf(request.symbol);
      const amount = positiveDecimal(request.amount, 'FUTURES__AMOUNT_OR_PRICE_INVALID');
      const limit = request.order_type === 'Limit';
      if (limit && request.price === undefined) throw new AppError('FUTURES__AMOUNT_AND_PRICE_REQUIRED');
      const price = limit ? positiveDecimal(request.price, 'FUTURES__AMOUNT_OR_PRICE_INVALID') : undefined;
      if (request.leverage !== undefined && request.leverage > market.maxLeverage)
        throw new AppError('FUTURES__LEVERAGE_INVALID');
      const size = lotsOf(amount, market.sizeDecimals);
      if (size < market.minSize && !request.reduce_only) throw new AppError('FUTURES__BELOW_MIN_ORDER_SIZE');
      // A limit price off the tick is rounded in the trader's favour (a buy down, a sell up).
      const side = request.side === 'Long' ? 'buy' : 'sell';
      const units = price ? wire.priceToTick(price, market, side === 'buy' ? 'down' : 'up') : undefined;
      if (units !== undefined && units <= 0n) throw new AppError('FUTURES__AMOUNT_OR_PRICE_INVALID');
      await deps.syncMarket?.(market.symbol);
      // No account: the engine refuses with ACCOUNT_UNKNOWN (FUTURES__NOT_INITIALIZED). Without a
      // leverage the order is at the account's setting (recorded on the order row).
      const venue = await ledger.read();
      const held = venue.accounts.get(owner.id);
      const { applied, effect } = await run({
        k: 'order',
        v: 2,
        account: owner.id,
        market: market.symbol,
        side,
        type: limit ? 'limit' : 'market',
        size: size.toString(),
        price: units?.toString(),
        leverage: request.leverage ?? (held ? venue.leverageOf(held, market.symbol) : PERP_DEFAULT_LEVERAGE),
        reduceOnly: request.reduce_only,
        postOnly: request.post_only,
        ioc: request.ioc,
        at: deps.now().getTime(),
      });
      if (applied.effect.k !== 'order' || !effect.placed) throw new Error('unexpected effect');
      return {
        order: orderToWire(effect.placed),
        fills: applied.effect.result.fills.map((fill) => fillToWire(fill, owner.id)),
      };
    },

    /** POST /futures/leverage: the account's leverage in a market (see futures-leverage.ts). */
    async setLeverage(owner: WalletOwner, request: TFuturesLeverageRequest) {
      walletOf(owner);
      const market = marketOf(request.symbol);
      if (request.leverage > market.maxLeverage) throw new AppError('FUTURES__LEVERAGE_INVALID');
      return setLeverage(owner.id, market, request.leverage);
    },

    async cancelOrder(owner: WalletOwner, orderId: number): Promise<TFuturesOrder> {
      await run({ k: 'cancel', account: owner.id, orderId, at: deps.now().getTime() });
      const [row] = await repo.ordersByIds([BigInt(orderId)]);
      return orderToWire(row!);
    },

    /**
     * POST /futures/position/close: a reduce-only market order for the whole position, at the book
     * (no further than 8 % from the oracle). `exit_price` is ignored: the close trades at the market.
     */
    async closePosition(owner: WalletOwner, positionId: string) {
      walletOf(owner);
      const exchange = await ledger.read();
      const market = findPerpMarket(positionId);
      const position = market ? exchange.accounts.get(owner.id)?.positions.get(market.symbol) : undefined;
      if (!market || !position) throw new AppError('FUTURES__POSITION_NOT_FOUND');
      await deps.syncMarket?.(market.symbol);
      const size = position.size < 0n ? -position.size : position.size;
      const { applied } = await run({
        k: 'order',
        v: 2,
        account: owner.id,
        market: market.symbol,
        side: position.size > 0n ? 'sell' : 'buy',
        type: 'market',
        size: size.toString(),
        leverage: exchange.leverageOf(exchange.accounts.get(owner.id)!, market.symbol),
        reduceOnly: true,
        postOnly: false,
        ioc: true,
        at: deps.now().getTime(),
      }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'FUTURES__NO_LIQUIDITY') {
          throw new AppError(
            'FUTURES__NO_LIQUIDITY',
            'Failed to close position: no liquidity within 8% of the oracle price',
          );
        }
        throw error;
      });
      if (applied.effect.k !== 'order') throw new Error('unexpected effect');
      const fills = applied.effect.result.fills;
      return {
        position_id: market.symbol,
        realized_pnl: wire.usdc(fills.reduce((sum, fill) => sum + fill.takerRealized, 0n)),
        fills: fills.map((fill) => fillToWire(fill, owner.id)),
      };
    },

    async orders(owner: WalletOwner, limit = MAX_LISTED): Promise<TFuturesOrder[]> {
      return (await repo.orders(owner.id, limit)).map(orderToWire);
    },

    async positions(owner: WalletOwner): Promise<TFuturesPosition[]> {
      return positionsOf(await ledger.read(), owner.id);
    },

    async trades(owner: WalletOwner, limit = MAX_LISTED): Promise<TFuturesTrade[]> {
      return (await repo.trades(owner.id, limit)).map(tradeToWire);
    },

    async saveTrade(owner: WalletOwner, trade: unknown) {
      return { id: await repo.saveTrade(owner.id, trade), saved: true as const };
    },

    /** Exposed for jobs: applies a command (maker quotes, oracle, funding, liquidation). */
    run,

    /** Whether the venue's maker is funded. */
    async makerFunded(): Promise<boolean> {
      return (await ledger.read()).accounts.has(MAKER_ACCOUNT);
    },
  };
}

export type FuturesService = ReturnType<typeof createFuturesService>;
export type { Applied };
