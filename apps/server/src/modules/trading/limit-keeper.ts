import type { KeyPairSigner } from '@solana/kit';
import { WRAPPED_SOL_MINT, type TSpotOrder } from '@solterm/contracts';
import {
  Dec,
  limitFill,
  limitOrderCrosses,
  settlementOf,
  settlingState,
  type LimitFill,
  type OrderState,
  type Settlement,
} from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { associatedTokenAddress, type ChainService } from '../chain/chain.service';
import type { RecurringJob } from '../../jobs/scheduler';
import {
  RelayError,
  type Relay,
  type ServerTicketKind,
  type SettledServerTicket,
} from '../relay/relay.service';
import type { OrderRow, TradingRepository } from './trading.repository';
import { orderToWire } from './trading-wire';
import type { TradingService } from './trading.service';
import { buildSettlement, recordSettlement, tokensOf } from './limit-settlement';
import type { VenueToken } from './venues/spot-venue';
import { createTriggerPass, isEscrowedOrder } from './trigger-keeper';

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

/** A settlement's record found the order no longer Pending: another caller settles it. */
class OrderNotClaimed extends Error {}

const ESCROW_MIN_LAMPORTS = 1_000_000_000n;
const ESCROW_TOP_UP_LAMPORTS = 10_000_000_000n;

/**
 * The keeper of the local venue's limit orders. A pending order's funds sit in the escrow owner's
 * account; when the maker's price for the order's size crosses the limit (a buy's limit at or above
 * the ask, a sell's at or below the bid) the keeper sends one transaction in which the escrow pays the
 * maker and the maker pays the trader at the maker's price — better than the limit when the market is
 * (price improvement), the rest of a buy's escrow refunded in the same transaction. Cancelling refunds
 * the escrow. Fills and refunds are relay server tickets (`limit_fill`, `limit_refund`): the order
 * is marked `Settling:*` in the transaction that records its ticket, and only the ticket's one
 * settlement moves it on, so an order is never settled twice.
 */
export function createLimitKeeper(deps: LimitKeeperDeps) {
  const { repo, chain, trading } = deps;
  const intervalMs = deps.intervalMs ?? 1000;

  /**
   * Whether the wallet can receive `token` without anyone opening an account for it: SOL always (the
   * legs are at least the rent-exempt minimum), a token when the wallet's associated account exists.
   * The escrow never pays rent for a wallet's account: the wallet could close it and repeat.
   */
  async function canReceive(order: OrderRow, token: VenueToken): Promise<boolean> {
    if (token.mint === WRAPPED_SOL_MINT) return true;
    return chain.accountExists(await associatedTokenAddress(order.walletAddress, token.mint));
  }

  /** A settlement's ticket remembers its order and when it was claimed (for the receipt's time to land). */
  const ZSettlementPayload = z.object({ orderId: z.string().uuid(), claimedAt: z.number().int() });
  type SettlementPayload = z.infer<typeof ZSettlementPayload>;

  /** The chain's verdict on a claimed settlement: landed → recorded; failed or expired unseen → Pending. */
  function settlementKind(name: string, kind: Settlement): ServerTicketKind<SettlementPayload> {
    const changed = (row: OrderRow | undefined) => {
      if (row) deps.onOrderChanged?.(row.userId, orderToWire(row));
    };
    // Only the chain's verdict gives the order back: the escrow then still holds its funds.
    const backToPending = async ({ tx, payload }: SettledServerTicket<SettlementPayload>) =>
      changed(
        await repo.transitionOrder(payload.orderId, 'revert', {
          from: settlingState(kind),
          values: {
            settlementTxHash: null,
            settlementValidUntil: null,
            settlementTransaction: null,
            fillMakerAmount: null,
            fillTraderAmount: null,
          },
          executor: tx,
        }),
      );
    return {
      kind: name,
      payload: ZSettlementPayload,
      async onLanded({ tx, payload, signature, at }) {
        const order = await repo.findOrder(payload.orderId, tx);
        if (!order || order.status !== settlingState(kind) || order.settlementTxHash !== signature) return;
        const timeToLandMs = Math.max(0, at.getTime() - payload.claimedAt);
        changed(await recordSettlement(deps, tx, order, kind, signature, timeToLandMs));
      },
      onFailed: backToPending,
      onExpired: backToPending,
    };
  }
  const fillKind = settlementKind('limit_fill', 'fill');
  const refundKind = settlementKind('limit_refund', 'cancel');
  deps.relay.server.registerKind(fillKind);
  deps.relay.server.registerKind(refundKind);

  /**
   * Settles one order on chain (fill or refund) as a server ticket: the order moves Pending →
   * Settling in the transaction that records the ticket, so only one caller wins it, and only the
   * ticket's settlement (landed, failed, expired) moves it on — an RPC error leaves it Settling.
   * Returns the order as it is afterwards, or undefined when another caller had claimed it.
   */
  async function settle(order: OrderRow, kind: Settlement, fill?: LimitFill): Promise<OrderRow | undefined> {
    const built = await buildSettlement(deps, order, kind, fill);
    let claimed = false;
    let sent;
    try {
      sent = await deps.relay.server.send({
        kind: kind === 'fill' ? fillKind : refundKind,
        userId: order.userId,
        payload: { orderId: order.id, claimedAt: deps.now().getTime() },
        built: {
          base64: built.wireBase64,
          signature: built.signature,
          lastValidBlockHeight: built.lastValidBlockHeight,
        },
        async record(tx) {
          // One-cancels-the-other: an order whose partner is filling or filled never fills too (the
          // pair is locked, so two claims of linked orders queue and the second sees the first).
          if (kind === 'fill') {
            const group = await repo.lockOcoGroup(order, tx);
            const partnerFilling = group.some(
              (row) => row.id !== order.id && (row.status === 'Filled' || row.status === 'Settling:fill'),
            );
            if (partnerFilling) throw new OrderNotClaimed();
          }
          const row = await repo.transitionOrder(order.id, kind === 'fill' ? 'claimFill' : 'claimCancel', {
            values: {
              statusReason: null,
              settlementTxHash: built.signature,
              settlementValidUntil: built.lastValidBlockHeight.toString(),
              settlementTransaction: built.wireBase64,
              ...(fill
                ? { fillMakerAmount: fill.toMaker.toString(), fillTraderAmount: fill.toTrader.toString() }
                : {}),
            },
            executor: tx,
          });
          // Not Pending any more (a concurrent fill or cancel won): roll the ticket back, send nothing.
          if (!row) throw new OrderNotClaimed();
          claimed = true;
        },
      });
    } catch (error) {
      if (error instanceof OrderNotClaimed) return undefined;
      if (error instanceof RelayError && error.code === 'RELAY__SIMULATION_FAILED') {
        // The simulation runs before the claim: a concurrent fill or cancel of this order may have
        // claimed it and moved its escrow meanwhile (the pooled escrow then lacks its funds). That
        // caller settles it, as when its claim wins; only a still-pending order's refusal is a failure.
        if ((await repo.findOrder(order.id))?.status !== 'Pending') return undefined;
        throw new AppError('CHAIN__TRANSACTION_FAILED');
      }
      if (!claimed) throw error;
      // Recorded: whatever failed after, the ticket's reconciliation settles it.
      deps.log.error({ err: error, order: order.id }, 'limit order settlement not settled yet');
      return (await repo.findOrder(order.id))!;
    }
    const row = (await repo.findOrder(order.id))!;
    if (sent.status === 'pending') deps.onOrderChanged?.(row.userId, orderToWire(row));
    if (kind === 'cancel' && sent.status === 'failed') throw new AppError('CHAIN__TRANSACTION_FAILED');
    if (kind === 'cancel' && sent.status === 'expired') throw new AppError('CHAIN__CONFIRMATION_TIMEOUT');
    return sent.status === 'landed' || sent.status === 'pending' ? row : undefined;
  }

  /**
   * Orders claimed `Settling:*` before settlements were server tickets (no ticket records them):
   * their stored transaction becomes a ticket (the same signature, so it still settles at most once),
   * settled like any other — landed, or back to Pending once it failed or expired unseen.
   */
  async function adoptUntracked(): Promise<void> {
    const settling = await repo.listOrdersByStatus(['Settling:fill', 'Settling:cancel']);
    if (settling.length === 0) return;
    const tracked = new Set((await deps.relay.server.unsettled()).map((ticket) => ticket.signature));
    for (const order of settling) {
      const signature = order.settlementTxHash;
      if (!signature || !order.settlementTransaction || tracked.has(signature)) continue;
      try {
        if ((await deps.relay.server.statusOf(order.userId, signature)) !== null) continue;
        await deps.relay.server.send({
          kind: settlementOf(order.status as OrderState) === 'fill' ? fillKind : refundKind,
          userId: order.userId,
          payload: { orderId: order.id, claimedAt: order.updatedAt.getTime() },
          built: {
            base64: order.settlementTransaction,
            signature,
            lastValidBlockHeight: BigInt(order.settlementValidUntil ?? '0'),
          },
          // It may have landed already: its verdict comes from the chain, not a simulation.
          simulate: false,
        });
      } catch (error) {
        deps.log.error({ err: error, order: order.id }, 'untracked settlement not adopted yet');
      }
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

  const triggers = createTriggerPass({ ...deps, settle, canReceive });

  async function topUpEscrow(): Promise<void> {
    if (!deps.fundEscrow) return;
    if ((await chain.getBalance(deps.escrow.address)) < ESCROW_MIN_LAMPORTS) {
      await chain.requestAirdrop(deps.escrow.address, ESCROW_TOP_UP_LAMPORTS);
    }
  }

  async function tick(): Promise<number> {
    await adoptUntracked();
    // Escrows (wallet tickets) interrupted by a crash or a lost answer are settled first, so the
    // fill pass sees the orders they recorded. Settlements are server tickets: the relay module's
    // `relay-server-tickets` job settles those (and `cancel` asks about its own at once).
    await deps.relay.reconcileSent();
    const filled = (await fillCrossed()) + (await triggers.fireTriggered());
    // One-cancels-the-other, once per pass and after the fills: the partner of an order filled in
    // this pass, or in an earlier one (a process killed before refunding it, a fill whose ticket
    // landed since). Until then the partner cannot fill: the fill claim refuses a filled order's partner.
    await triggers.cancelOcoPartners();
    return filled;
  }

  return {
    escrowAddress: deps.escrow.address,

    /** One pass: resolve interrupted wallet sends (escrows), then fill every crossed order. */
    tick,

    /**
     * The keeper as a singleton job: each run tops the escrow owner up (test networks), resolves
     * interrupted wallet sends, and fills every crossed order.
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

    /** POST /trading/orders/{id}/cancel: refunds a pending limit or trigger order's escrow to the wallet. */
    async cancel(userId: string, orderId: string): Promise<TSpotOrder> {
      let order = await repo.findOrder(orderId);
      if (!order || order.userId !== userId) throw new AppError('TRADING__ORDER_NOT_FOUND');
      const settling = settlementOf(order.status as OrderState) !== null;
      if (isEscrowedOrder(order) && settling && order.settlementTxHash) {
        // A settlement whose verdict is not known yet (a crash, a lost answer): ask the chain now
        // rather than answer 409 until the reconcile job does.
        await deps.relay.server.statusOf(order.userId, order.settlementTxHash);
        order = (await repo.findOrder(orderId))!;
        // The refund asked for is still in flight: the cancel stands (it lands, or the order returns).
        if (order.status === 'Cancelled' || order.status === 'Settling:cancel') return orderToWire(order);
      }
      if (!isEscrowedOrder(order) || order.status !== 'Pending') {
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
