import type { KeyPairSigner } from '@solana/kit';
import type { TExecutionReceipt, TSpotOrder } from '@solterm/contracts';
import { Dec, limitOrderCrosses } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { ChainService } from '../chain/chain.service';
import { buildTransaction } from '../chain/transaction-builder';
import type { OrderRow, TradingRepository } from './trading.repository';
import { orderToWire, type TradingService } from './trading.service';
import type { VenueToken } from './venues/spot-venue';
import { tokenLegInstructions } from '../chain/token-legs';

export interface LimitKeeperDeps {
  repo: TradingRepository;
  chain: ChainService;
  trading: TradingService;
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

type Settlement = 'fill' | 'cancel';

function tokensOf(order: OrderRow, pair: { base: VenueToken; quote: VenueToken }) {
  return order.escrowLeg === 'base'
    ? { escrowed: pair.base, settled: pair.quote }
    : { escrowed: pair.quote, settled: pair.base };
}

/**
 * The keeper of the local venue's limit orders. A pending order's funds sit in the escrow owner's
 * account; when the maker's price crosses the limit (a buy's limit at or above the ask, a sell's at
 * or below the bid) the keeper sends one transaction in which the escrow pays the maker and the maker
 * pays the trader at the limit price. Cancelling refunds the escrow. An order being settled is marked
 * `Settling:*` with its signature and expiry height first, so a crash mid-settlement is resolved from
 * the chain and an order is never settled twice.
 */
export function createLimitKeeper(deps: LimitKeeperDeps) {
  const { repo, chain, trading } = deps;
  const intervalMs = deps.intervalMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function settlementTransaction(order: OrderRow, kind: Settlement) {
    const pair = await trading.resolvePair(order.symbol);
    const { escrowed, settled } = tokensOf(order, pair);
    const escrowAmount = BigInt(order.escrowAmount!);
    const instructions =
      kind === 'fill'
        ? [
            ...(await tokenLegInstructions({
              token: escrowed,
              from: deps.escrow,
              to: deps.maker.address,
              amount: escrowAmount,
            })),
            ...(await tokenLegInstructions({
              token: settled,
              from: deps.maker,
              to: order.walletAddress,
              amount: BigInt(order.settleAmount!),
              createRecipientAccount: deps.escrow,
            })),
          ]
        : await tokenLegInstructions({
            token: escrowed,
            from: deps.escrow,
            to: order.walletAddress,
            amount: escrowAmount,
            createRecipientAccount: deps.escrow,
          });
    const built = await buildTransaction({
      feePayer: deps.escrow.address,
      instructions,
      lifetime: await chain.getLatestBlockhash(),
      coSigners: kind === 'fill' ? [deps.escrow, deps.maker] : [deps.escrow],
    });
    return {
      pair,
      wireBase64: built.base64,
      // The escrow owner pays the fee and has signed: the transaction id is known before sending.
      signature: built.signature!,
      lastValidBlockHeight: built.lastValidBlockHeight,
    };
  }

  async function finish(
    order: OrderRow,
    kind: Settlement,
    signature: string,
    startedAt: number,
  ): Promise<OrderRow> {
    let finished: OrderRow | undefined;
    if (kind === 'fill') {
      const price = new Dec(order.price!);
      const receipt: TExecutionReceipt = {
        quoted_price: price.toNumber(),
        filled_price: price.toNumber(),
        slippage_bps: 0,
        network_fee_sol: 0,
        venue_fee: 0,
        time_to_land_ms: Math.max(0, Math.round(performance.now() - startedAt)),
        priority_fee_micro_lamports: 0,
      };
      const at = deps.now();
      finished = await repo.fillOrder(
        order.id,
        {
          filledQuantity: order.quantity,
          averageFillPrice: order.price,
          receipt,
          settlementValidUntil: null,
        },
        {
          orderId: order.id,
          userId: order.userId,
          symbol: order.symbol,
          side: order.side,
          orderType: 'Limit',
          quantity: order.quantity,
          price: order.price!,
          txHash: signature,
          receipt,
          createdAt: at,
        },
      );
    } else {
      finished = await repo.transitionOrder(order.id, 'Settling:cancel', 'Cancelled', {
        settlementValidUntil: null,
      });
    }
    const row = finished ?? (await repo.findOrder(order.id))!;
    deps.onOrderChanged?.(row.userId, orderToWire(row));
    return row;
  }

  /** Settles one order on chain (fill or refund). Only one caller wins the Pending → Settling step. */
  async function settle(order: OrderRow, kind: Settlement): Promise<OrderRow | undefined> {
    const startedAt = performance.now();
    const built = await settlementTransaction(order, kind);
    const claimed = await repo.transitionOrder(order.id, 'Pending', `Settling:${kind}`, {
      settlementTxHash: built.signature,
      settlementValidUntil: built.lastValidBlockHeight.toString(),
    });
    if (!claimed) return undefined;
    try {
      await chain.sendAndConfirm(built.wireBase64, built.signature);
    } catch (error) {
      const [status] = await chain.getSignatureStatuses([built.signature]).catch(() => [null]);
      if (!status) {
        // Refused before it reached the chain: back to Pending, nothing moved.
        await repo.transitionOrder(order.id, `Settling:${kind}`, 'Pending', {
          settlementTxHash: null,
          settlementValidUntil: null,
        });
      }
      throw error;
    }
    return finish(claimed, kind, built.signature, startedAt);
  }

  /** Orders left `Settling:*` by a stopped process: finished if their transaction landed, else reverted once it can no longer land. */
  async function resolveSettling(): Promise<void> {
    const settling = await repo.listOrdersByStatus(['Settling:fill', 'Settling:cancel']);
    for (const order of settling) {
      const kind = order.status === 'Settling:fill' ? 'fill' : 'cancel';
      const [status] = await chain.getSignatureStatuses([order.settlementTxHash!]);
      if (status && status.err === null && status.confirmationStatus !== 'processed') {
        await finish(order, kind, order.settlementTxHash!, performance.now());
      } else if (
        status?.err ||
        (!status && (await chain.getBlockHeight()) > BigInt(order.settlementValidUntil ?? '0'))
      ) {
        await repo.transitionOrder(order.id, order.status, 'Pending', {
          settlementTxHash: null,
          settlementValidUntil: null,
        });
      }
    }
  }

  async function fillCrossed(): Promise<number> {
    const pending = (await repo.listOrdersByStatus(['Pending'])).filter(
      (order) => order.orderType === 'Limit',
    );
    let filled = 0;
    const bestBySymbol = new Map<string, { bid: Dec; ask: Dec } | null>();
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
      if (
        !limitOrderCrosses({ side: order.side as 'Buy' | 'Sell', limitPrice: new Dec(order.price!), ...best })
      )
        continue;
      try {
        if (await settle(order, 'fill')) filled++;
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
    await trading.reconcileSent();
    return fillCrossed();
  }

  return {
    escrowAddress: deps.escrow.address,

    /** One pass: resolve interrupted settlements and sends, then fill every crossed order. */
    tick,

    async start(): Promise<void> {
      await topUpEscrow();
      const loop = () => {
        running = tick()
          .then(() => topUpEscrow())
          .catch((error: unknown) => deps.log.error({ err: error }, 'limit keeper pass failed'))
          .finally(() => {
            running = undefined;
            if (timer !== undefined) timer = setTimeout(loop, intervalMs);
          });
      };
      timer = setTimeout(loop, 0);
    },

    async stop(): Promise<void> {
      const current = timer;
      timer = undefined;
      if (current) clearTimeout(current);
      await running;
    },

    /** POST /trading/orders/{id}/cancel: refunds a pending limit order's escrow to the wallet. */
    async cancel(userId: string, orderId: string): Promise<TSpotOrder> {
      const order = await repo.findOrder(orderId);
      if (!order || order.userId !== userId) throw new AppError('TRADING__ORDER_NOT_FOUND');
      if (order.orderType !== 'Limit' || order.status !== 'Pending') {
        throw new AppError('TRADING__ORDER_NOT_CANCELLABLE');
      }
      const cancelled = await settle(order, 'cancel');
      if (!cancelled) throw new AppError('TRADING__ORDER_NOT_CANCELLABLE');
      return orderToWire(cancelled);
    },
  };
}

export type LimitKeeper = ReturnType<typeof createLimitKeeper>;
