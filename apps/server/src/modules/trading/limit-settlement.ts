import type { KeyPairSigner } from '@solana/kit';
import { Dec, executionReceipt, type LimitFill, type Settlement } from '@solterm/engine';
import type { Db } from '../../db/database';
import { buildTransaction, tokenLegInstructions, type ChainService } from '../chain/chain.service';
import type { OrderRow, TradingRepository } from './trading.repository';
import { receiptToWire } from './trading-wire';
import type { TradingService } from './trading.service';
import type { VenueToken } from './venues/spot-venue';

/** What building and recording a limit order's settlement needs. */
export interface SettlementDeps {
  repo: TradingRepository;
  chain: ChainService;
  trading: TradingService;
  /** Owner of the escrow accounts; pays the fees of fills and refunds. */
  escrow: KeyPairSigner;
  /** The market maker that takes the other side of a fill. */
  maker: KeyPairSigner;
  now: () => Date;
}

/** Which token of the pair the order escrowed, and which one it is settled in. */
export function tokensOf(order: OrderRow, pair: { base: VenueToken; quote: VenueToken }) {
  return order.escrowLeg === 'base'
    ? { escrowed: pair.base, settled: pair.quote }
    : { escrowed: pair.quote, settled: pair.base };
}

/** How a fill pays out: as claimed (stored on the order), or the limit's own amounts for older rows. */
export function fillOf(order: OrderRow): LimitFill {
  const escrowAmount = BigInt(order.escrowAmount!);
  const toMaker = order.fillMakerAmount === null ? escrowAmount : BigInt(order.fillMakerAmount);
  return {
    toMaker,
    toTrader: BigInt(order.fillTraderAmount ?? order.settleAmount!),
    refund: escrowAmount - toMaker,
  };
}

/**
 * The settlement transaction of an order, signed by the escrow (and by the maker for a fill): a fill
 * pays the maker from the escrow, the trader from the maker and refunds the rest of the escrow; a
 * cancel refunds the whole escrow.
 */
export async function buildSettlement(
  deps: SettlementDeps,
  order: OrderRow,
  kind: Settlement,
  fill?: LimitFill,
) {
  const pair = await deps.trading.resolvePair(order.symbol);
  const { escrowed, settled } = tokensOf(order, pair);
  const escrowAmount = BigInt(order.escrowAmount!);
  const instructions =
    kind === 'fill' && fill
      ? [
          // The maker's price for the size (better than or at the limit): the escrow pays the maker
          // that, the maker pays the trader, and the rest of the escrow goes back to the trader.
          ...(await tokenLegInstructions({
            token: escrowed,
            from: deps.escrow,
            to: deps.maker.address,
            amount: fill.toMaker,
          })),
          ...(fill.refund > 0n
            ? await tokenLegInstructions({
                token: escrowed,
                from: deps.escrow,
                to: order.walletAddress,
                amount: fill.refund,
              })
            : []),
          ...(await tokenLegInstructions({
            token: settled,
            from: deps.maker,
            to: order.walletAddress,
            amount: fill.toTrader,
          })),
        ]
      : await tokenLegInstructions({
          token: escrowed,
          from: deps.escrow,
          to: order.walletAddress,
          amount: escrowAmount,
        });
  const built = await buildTransaction({
    feePayer: deps.escrow.address,
    instructions,
    lifetime: await deps.chain.getLatestBlockhash(),
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

/**
 * Records a landed settlement, inside `tx` (the settling server ticket's transaction): the fill with
 * its trade and receipt, or the cancel.
 */
export async function recordSettlement(
  deps: SettlementDeps,
  tx: Db,
  order: OrderRow,
  kind: Settlement,
  signature: string,
  timeToLandMs: number,
): Promise<OrderRow | undefined> {
  let finished: OrderRow | undefined;
  if (kind === 'fill') {
    const pair = await deps.trading.resolvePair(order.symbol);
    const fill = fillOf(order);
    const exact = executionReceipt({
      side: order.side as 'Buy' | 'Sell',
      // A limit's own price, or the trigger a trigger order fired at (its slippage is measured from it).
      quotedPrice: new Dec(order.price ?? order.triggerPrice!),
      baseUnits: BigInt(order.baseAmount),
      quoteUnits: order.side === 'Buy' ? fill.toMaker : fill.toTrader,
      baseDecimals: pair.base.decimals,
      quoteDecimals: pair.quote.decimals,
      // The escrow owner pays the settlement's fee, not the trader; the maker's spread is in its price.
      networkFeeLamports: 0n,
      venueFee: new Dec(0),
      timeToLandMs,
      priorityFeeMicroLamports: 0,
    });
    const receipt = receiptToWire(exact, pair.quote.decimals);
    const price = exact.filledPrice;
    const at = deps.now();
    finished = await deps.repo.fillOrder(
      order.id,
      {
        filledQuantity: order.quantity,
        averageFillPrice: price.toFixed(),
        receipt,
        settlementValidUntil: null,
        settlementTransaction: null,
      },
      {
        orderId: order.id,
        userId: order.userId,
        symbol: order.symbol,
        side: order.side,
        orderType: order.orderType,
        quantity: order.quantity,
        price: price.toFixed(),
        txHash: signature,
        receipt,
        createdAt: at,
      },
      tx,
    );
  } else {
    finished = await deps.repo.transitionOrder(order.id, 'cancel', {
      values: { settlementValidUntil: null, settlementTransaction: null },
      executor: tx,
    });
  }
  return finished;
}
