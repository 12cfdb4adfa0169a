import type { KeyPairSigner } from '@solana/kit';
import { WRAPPED_SOL_MINT, type TSpotOrder } from '@solterm/contracts';
import {
  Dec,
  limitFill,
  limitOrderCrosses,
  orderLifecycle,
  settlementOf,
  settlingState,
  type LimitFill,
  type OrderState,
  type Settlement,
} from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import { associatedTokenAddress, type ChainService } from '../chain/chain.service';
import type { RecurringJob } from '../../jobs/scheduler';
import type { Relay } from '../relay/relay.service';
import type { OrderRow, TradingRepository } from './trading.repository';
import { orderToWire } from './trading-wire';
import type { TradingService } from './trading.service';
import { buildSettlement, recordSettlement, tokensOf } from './limit-settlement';
import type { VenueToken } from './venues/spot-venue';

export interface LimitKeeperDeps {
  repo: TradingRepository;
  chain: ChainService;
  trading: TradingService;
  /** Sends the keeper's server-signed settlements (the one landing loop). */
  relay: Relay;
  /** Owner of the escrow accounts; pays the fees of fills and refunds. */
  escrow: KeyPairSigner;
  /** The market maker that takes the other side of a fill. */
  maker: KeyPairSigner;
  /** How often pending limit orders are checked against the market (default 1 s). */
  intervalMs?: number;
  /** Give the escrow owner SOL for fees from the faucet when it runs low (test networks only). */
  fundEscrow?: boolean;
  now: () => Date;
  log: FastifyBaseLogger;
  onOrderChanged?: (userId: string, order: TSpotOrder) => void;
}

const ESCROW_MIN_LAMPORTS = 1_000_000_000n;
const ESCROW_TOP_UP_LAMPORTS = 10_000_000_000n;

/**
 * The keeper of the local venue's limit orders. A pending order's funds sit in the escrow owner's
 * account; when the maker's price for the order's size crosses the limit (a buy's limit at or above
 * the ask, a sell's at or below the bid) the keeper sends one transaction in which the escrow pays the
 * maker and the maker pays the trader at the maker's price — better than the limit when the market is
 * (price improvement), the rest of a buy's escrow refunded in the same transaction. Cancelling refunds the escrow. An order being settled is marked
 * `Settling:*` with its signature and expiry height first, so a crash mid-settlement is resolved from
 * the chain and an order is never settled twice.
 */
export function createLimitKeeper(deps: LimitKeeperDeps) {
  const { repo, chain, trading } = deps;
  const intervalMs = deps.intervalMs ?? 1000;
  /** Orders this process is settling right now (their claims are live, not left by a crash). */
  const inFlight = new Set<string>();

  /**
   * Whether the wallet can receive `token` without anyone opening an account for it: SOL always (the
   * legs are at least the rent-exempt minimum), a token when the wallet's associated account exists.
   * The escrow never pays rent for a wallet's account: the wallet could close it and repeat.
   */
  async function canReceive(order: OrderRow, token: VenueToken): Promise<boolean> {
    if (token.mint === WRAPPED_SOL_MINT) return true;
    return chain.accountExists(await associatedTokenAddress(order.walletAddress, token.mint));
  }

  async function finish(
    order: OrderRow,
    kind: Settlement,
    signature: string,
    startedAt: number,
  ): Promise<OrderRow> {
    const finished = await recordSettlement(deps, order, kind, signature, startedAt);
    const row = finished ?? (await repo.findOrder(order.id))!;
    deps.onOrderChanged?.(row.userId, orderToWire(row));
    return row;
  }

  /** Settles one order on chain (fill or refund). Only one caller wins the Pending → Settling step. */
  async function settle(order: OrderRow, kind: Settlement, fill?: LimitFill): Promise<OrderRow | undefined> {
    const startedAt = performance.now();
    const built = await buildSettlement(deps, order, kind, fill);
    const claimed = await repo.transitionOrder(order.id, 'Pending', settlingState(kind), {
      settlementTxHash: built.signature,
      settlementValidUntil: built.lastValidBlockHeight.toString(),
      settlementTransaction: built.wireBase64,
      ...(fill
        ? { fillMakerAmount: fill.toMaker.toString(), fillTraderAmount: fill.toTrader.toString() }
        : {}),
    });
    if (!claimed) return undefined;
    inFlight.add(order.id);
    try {
      await deps.relay.sendServerSigned(built.wireBase64, built.signature, built.lastValidBlockHeight);
    } catch (error) {
      const [status] = await chain.getSignatureStatuses([built.signature]).catch(() => [null]);
      if (!status) {
        // Refused before it reached the chain: back to Pending, nothing moved.
        await repo.transitionOrder(
          order.id,
          settlingState(kind),
          orderLifecycle.next(settlingState(kind), 'revert'),
          {
            settlementTxHash: null,
            settlementValidUntil: null,
            settlementTransaction: null,
            fillMakerAmount: null,
            fillTraderAmount: null,
          },
        );
      }
      throw error;
    } finally {
      inFlight.delete(order.id);
    }
    return finish(claimed, kind, built.signature, startedAt);
  }

  /**
   * Resolves an order whose settlement was claimed but not recorded (a stopped process, or a send that
   * never reached the chain), from the chain at once: landed → recorded; failed, or past its expiry
   * height unseen → back to Pending (it can never land); still valid → the claimed transaction itself
   * is sent again (the same signature, so it settles at most once) and recorded when it lands.
   * Returns the order as it is afterwards.
   */
  async function reconcileSettling(order: OrderRow): Promise<OrderRow> {
    const state = order.status as OrderState;
    const kind: Settlement = settlementOf(state) ?? 'cancel';
    const signature = order.settlementTxHash!;
    const backToPending = async () =>
      (await repo.transitionOrder(order.id, state, orderLifecycle.next(state, 'revert'), {
        settlementTxHash: null,
        settlementValidUntil: null,
        settlementTransaction: null,
        fillMakerAmount: null,
        fillTraderAmount: null,
      })) ?? (await repo.findOrder(order.id))!;
    const [status] = await chain.getSignatureStatuses([signature]);
    if (status && status.err === null && status.confirmationStatus !== 'processed') {
      return finish(order, kind, signature, performance.now());
    }
    if (status?.err) return backToPending();
    if (!status && (await chain.getBlockHeight()) > BigInt(order.settlementValidUntil ?? '0')) {
      return backToPending();
    }
    if (!order.settlementTransaction) return order;
    try {
      await deps.relay.sendServerSigned(
        order.settlementTransaction,
        signature,
        BigInt(order.settlementValidUntil ?? '0'),
      );
    } catch (error) {
      deps.log.warn({ err: error, order: order.id }, 'claimed settlement sent again did not land');
      const [after] = await chain.getSignatureStatuses([signature]).catch(() => [null]);
      if (after?.err) return backToPending();
      return (await repo.findOrder(order.id))!;
    }
    return finish(order, kind, signature, performance.now());
  }

  /** Orders left `Settling:*` by a stopped process: each reconciled from the chain. */
  async function resolveSettling(): Promise<void> {
    const settling = await repo.listOrdersByStatus(['Settling:fill', 'Settling:cancel']);
    for (const order of settling) {
      if (inFlight.has(order.id)) continue;
      await reconcileSettling(order).catch((error: unknown) =>
        deps.log.error({ err: error, order: order.id }, 'settlement reconciliation failed'),
      );
    }
  }

  async function fillCrossed(): Promise<number> {
    const pending = (await repo.listOrdersByStatus(['Pending'])).filter(
      (order) => order.orderType === 'Limit',
    );
    let filled = 0;
    const bestBySymbol = new Map<string, { bid: Dec; ask: Dec } | null>();
    const side = (order: OrderRow) => order.side as 'Buy' | 'Sell';
    for (const order of pending) {
      let best = bestBySymbol.get(order.symbol);
      if (best === undefined) {
        best = await trading
          .resolvePair(order.symbol)
          .then((pair) => trading.bestPrices(pair))
          .catch(() => null);
        bestBySymbol.set(order.symbol, best);
      }
      if (!best) continue;
      // The maker's best price first (cheap), then its price for the order's whole size.
      if (!limitOrderCrosses({ side: side(order), limitPrice: new Dec(order.price!), ...best })) continue;
      try {
        const pair = await trading.resolvePair(order.symbol);
        const makerQuoteAmount = await trading.makerQuoteAmount(pair, side(order), BigInt(order.baseAmount));
        if (makerQuoteAmount === null || makerQuoteAmount <= 0n) continue;
        const fill = limitFill({
          side: side(order),
          escrowAmount: BigInt(order.escrowAmount!),
          settleAmount: BigInt(order.settleAmount!),
          makerQuoteAmount,
        });
        if (!fill) continue;
        const { escrowed, settled } = tokensOf(order, pair);
        const [canReceiveFill, canReceiveRefund] = await Promise.all([
          canReceive(order, settled),
          canReceive(order, escrowed),
        ]);
        if (!canReceiveFill) {
          // The wallet closed the account the fill pays into after placing the order: refund the
          // escrow instead (when it can be received) rather than re-open the account at the escrow's cost.
          if (canReceiveRefund) await settle(order, 'cancel');
          continue;
        }
        if (fill.refund > 0n && !canReceiveRefund) continue;
        if (await settle(order, 'fill', fill)) filled++;
      } catch (error) {
        deps.log.error({ err: error, order: order.id }, 'limit order fill failed');
      }
    }
    return filled;
  }

  async function topUpEscrow(): Promise<void> {
    if (!deps.fundEscrow) return;
    if ((await chain.getBalance(deps.escrow.address)) < ESCROW_MIN_LAMPORTS) {
      await chain.requestAirdrop(deps.escrow.address, ESCROW_TOP_UP_LAMPORTS);
    }
  }

  async function tick(): Promise<number> {
    await resolveSettling();
    await deps.relay.reconcileSent();
    return fillCrossed();
  }

  return {
    escrowAddress: deps.escrow.address,

    /** One pass: resolve interrupted settlements and sends, then fill every crossed order. */
    tick,

    /**
     * The keeper as a singleton job: each run tops the escrow owner up (test networks), resolves
     * interrupted settlements and sends, and fills every crossed order.
     */
    job(): RecurringJob {
      return {
        name: 'limit-keeper',
        intervalMs,
        async run() {
          await topUpEscrow();
          await tick();
        },
      };
    },

    /** POST /trading/orders/{id}/cancel: refunds a pending limit order's escrow to the wallet. */
    async cancel(userId: string, orderId: string): Promise<TSpotOrder> {
      let order = await repo.findOrder(orderId);
      if (!order || order.userId !== userId) throw new AppError('TRADING__ORDER_NOT_FOUND');
      const settling = settlementOf(order.status as OrderState) !== null;
      if (order.orderType === 'Limit' && settling && !inFlight.has(order.id)) {
        // A settlement was claimed and never recorded (a crash, a lost send): resolve it from the chain
        // now rather than answer 409 until its blockhash expires.
        order = await reconcileSettling(order);
        if (order.status === 'Cancelled') return orderToWire(order);
      }
      if (order.orderType !== 'Limit' || order.status !== 'Pending') {
        throw new AppError('TRADING__ORDER_NOT_CANCELLABLE');
      }
      const pair = await trading.resolvePair(order.symbol);
      if (!(await canReceive(order, tokensOf(order, pair).escrowed))) {
        throw new AppError('TRADING__TOKEN_ACCOUNT_CLOSED');
      }
      const cancelled = await settle(order, 'cancel');
      if (!cancelled) throw new AppError('TRADING__ORDER_NOT_CANCELLABLE');
      return orderToWire(cancelled);
    },
  };
}

export type LimitKeeper = ReturnType<typeof createLimitKeeper>;
