import type {
  TChartFill,
  TFuturesAccount,
  TFuturesAccountTick,
  TFuturesLeverageRequest,
  TFuturesOrder,
  TFuturesOrderRequest,
  TFuturesPosition,
  TFuturesTpslRequest,
  TFuturesTrade,
} from '@solterm/contracts';
import { Dec, lotsOf, notionalOf, PERP_DEFAULT_LEVERAGE, type PerpExchange } from '@solterm/engine';
import { AppError } from '../../lib/app-error';
import type { ChainService } from '../chain/chain.service';
import type { Db } from '../../db/database';
import type { Relay } from '../relay/relay.service';
import { provenWalletOf, type WalletOwner, type WithdrawalLock } from '../wallet/wallet.service';
import type { FuturesRepository, PerpOrderRow, RecordedEffect } from './futures.repository';
import { MAKER_ACCOUNT, type PerpCommand } from './perp-commands';
import type { Applied, PerpLedger } from './perp-ledger';
import { findPerpMarket, type PerpMarket } from './perp-markets';
import { createPerpWire } from './perp-wire';
import { fillToWire, orderToWire, positionsOf, tradeToChartFill, tradeToWire } from './futures-wire';
import { createFuturesCollateral } from './futures-collateral';
import { asAppError, positiveDecimal } from './futures-errors';
import { createLeverageAction, leverageSettingsOf } from './futures-leverage';
import { createTriggerActions } from './futures-triggers';
import type { PerpVault } from './perp-vault';

const MAX_LISTED = 50;

/** Who an account is read for: the user, and the wallet the account is shown with. */
type AccountHolder = Pick<WalletOwner, 'id' | 'solanaWalletAddress'>;

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
  const { ledger, repo, vault } = deps;
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

  const collateral = createFuturesCollateral(deps, wire);

  function walletOf(owner: WalletOwner): string {
    return provenWalletOf(owner, 'FUTURES__WALLET_REQUIRED');
  }

  function marketOf(symbol: string): PerpMarket {
    const market = findPerpMarket(symbol);
    if (!market) throw new AppError('FUTURES__MARKET_UNSUPPORTED');
    return market;
  }

  async function account(owner: AccountHolder): Promise<TFuturesAccount> {
    const exchange = await ledger.read();
    const held = exchange.accounts.get(owner.id);
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
    if (!held) {
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
    const equity = exchange.equityOf(held);
    let notional = 0n;
    for (const [symbol, position] of held.positions) {
      const market = findPerpMarket(symbol)!;
      notional += notionalOf(position.size, exchange.market(symbol).oracle, market.sizeDecimals);
    }
    return {
      ...base,
      initialized: true,
      collateral: wire.usdc(held.collateral),
      equity: wire.usdc(equity),
      unrealized_pnl: wire.usdc(equity - held.collateral),
      initial_margin: wire.usdc(exchange.initialRequirementOf(held)),
      maintenance_margin: wire.usdc(exchange.maintenanceOf(held)),
      free_collateral: wire.usdc(exchange.freeCollateralOf(held)),
      leverage: equity > 0n ? new Dec(notional.toString()).div(equity.toString()).toFixed(2) : '0.00',
      open_orders: held.orders.size + exchange.triggersOf(owner.id).length,
      open_positions: held.positions.size,
      leverage_settings: leverageSettingsOf(exchange, held),
    };
  }

  const setLeverage = createLeverageAction({ run, read: () => ledger.read(), wire, now: deps.now });
  const triggers = createTriggerActions({
    run,
    read: () => ledger.read(),
    wire,
    now: deps.now,
    syncMarket: deps.syncMarket,
  });

  /** A waiting trigger order's live size (a position TP/SL follows its position). */
  function withLiveSize(exchange: PerpExchange, row: PerpOrderRow): TFuturesOrder {
    const trigger =
      row.status === 'Open' && row.triggerPrice !== null ? exchange.findTrigger(Number(row.id)) : undefined;
    return orderToWire(row, trigger?.size);
  }

  return {
    wire,
    depositKind: collateral.depositKind,
    /** The replicated venue (reads for jobs and tests). */
    ledger,
    /** The vault key's address (it pays the fees of withdrawals). */
    vaultAddress: vault.address,

    /** GET /futures/account: collateral, equity and margins marked to the oracle, transfers in flight. */
    account,

    /** Deposits and withdrawals (futures-collateral.ts). */
    initialize: collateral.initialize,
    deposit: collateral.deposit,
    withdraw: collateral.withdraw,

    async placeOrder(owner: WalletOwner, request: TFuturesOrderRequest) {
      walletOf(owner);
      const market = marketOf(request.symbol);
      if (request.type !== undefined) {
        // A stop market or take profit market order: it waits for the oracle (futures-triggers.ts).
        return { order: orderToWire(await triggers.placeTrigger(owner.id, market, request)), fills: [] };
      }
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

    /** POST /futures/position/tpsl: the position's take profit and stop loss (futures-triggers.ts). */
    async setTpsl(owner: WalletOwner, request: TFuturesTpslRequest): Promise<TFuturesPosition> {
      walletOf(owner);
      return triggers.setTpsl(owner.id, marketOf(request.symbol), request);
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
      const rows = await repo.orders(owner.id, limit);
      const exchange = await ledger.read();
      return rows.map((row) => withLiveSize(exchange, row));
    },

    async positions(owner: Pick<WalletOwner, 'id'>): Promise<TFuturesPosition[]> {
      return positionsOf(await ledger.read(), owner.id);
    },

    /** What the user's `futures-account:<userId>` channel carries: the account and its positions. */
    async accountTick(owner: AccountHolder): Promise<TFuturesAccountTick> {
      return { account: await account(owner), positions: positionsOf(await ledger.read(), owner.id) };
    },

    async trades(owner: WalletOwner, limit = MAX_LISTED): Promise<TFuturesTrade[]> {
      return (await repo.trades(owner.id, limit)).map(tradeToWire);
    },

    /** The user's fills in `symbol`'s market in a window, newest first, as chart markers read them. */
    async chartFills(
      userId: string,
      symbol: string,
      window: { from: Date; to: Date },
      limit: number,
    ): Promise<TChartFill[]> {
      const market = findPerpMarket(symbol);
      if (!market) return [];
      return (await repo.tradesInWindow(userId, market.symbol, window, limit)).map(tradeToChartFill);
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
