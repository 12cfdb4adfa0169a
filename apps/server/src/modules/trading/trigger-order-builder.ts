import { randomUUID } from 'node:crypto';
import { address, createNoopSigner } from '@solana/kit';
import { TRIGGER_ORDER_TYPES, type TTriggerOrder, type TUnsignedTransaction } from '@solterm/contracts';
import {
  Dec,
  fromBaseUnits,
  RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
  trailingTrigger,
  triggerCrossed,
  triggerDirection,
  triggerEscrow,
  type SpotTriggerKind,
} from '@solterm/engine';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/app-error';
import {
  buildTransaction,
  LAMPORTS_PER_SIGNATURE,
  MAX_DEFAULT_COMPUTE_UNIT_LIMIT,
  priorityFeeLamports,
} from '../chain/chain.service';
import {
  assertAffordable,
  baseUnitsOf,
  checkedEscrowLegs,
  escrowDepositInstructions,
  registerEscrowTicket,
  type OrderBuilderDeps,
} from './order-builder';
import type { TriggerPayload } from './order-kinds';
import type { TradingPair } from './pairs';
import type { OrderRow, TradingRepository } from './trading.repository';
import { priceNumber } from './trading-wire';

const KIND_WORDS: Record<SpotTriggerKind, string> = {
  TakeProfit: 'take-profit',
  StopLoss: 'stop-loss',
  TrailingStop: 'trailing stop',
};

/**
 * Refuses a take-profit or stop-loss whose trigger the market has already reached (it would fire at
 * once), saying where the trigger must be.
 */
function assertTriggerAhead(
  kind: SpotTriggerKind,
  side: 'Buy' | 'Sell',
  trigger: Dec,
  mid: Dec,
  pair: TradingPair,
) {
  const direction = triggerDirection(kind, side);
  if (!triggerCrossed(direction, trigger, mid)) return;
  const where = direction === 'above' ? 'above' : 'below';
  throw new AppError(
    'TRADING__TRIGGER_WRONG_SIDE',
    `A ${KIND_WORDS[kind]} ${side.toLowerCase()} triggers when the price goes ${where} trigger_price: ` +
      `${pair.text} is at ${priceNumber(mid)}, so trigger_price must be ${where} it`,
  );
}

/** The order `oco_with` names: the user's own open order on the same pair, linked to no other order. */
async function assertOcoTarget(
  repo: TradingRepository,
  userId: string,
  targetId: string,
  pair: TradingPair,
): Promise<OrderRow> {
  const target = await repo.findOrder(targetId);
  // Another user's order reads as no order at all: ids are not probed through this check.
  if (!target || target.userId !== userId) {
    throw new AppError('TRADING__OCO_INVALID', 'oco_with: you have no order with this id');
  }
  if (target.status !== 'Pending') {
    throw new AppError('TRADING__OCO_INVALID', `oco_with: that order is not open (it is ${target.status})`);
  }
  if (target.symbol !== pair.text) {
    throw new AppError(
      'TRADING__OCO_INVALID',
      `oco_with: that order trades ${target.symbol}, not ${pair.text}`,
    );
  }
  const linked = (await repo.ocoLinked([target.id])).filter((row) => row.id !== target.id);
  if (target.ocoWith || linked.length > 0) {
    throw new AppError('TRADING__OCO_INVALID', 'oco_with: that order is already linked to another order');
  }
  return target;
}

/**
 * Take-profit, stop-loss and trailing-stop orders as the escrow transaction the wallet signs: the
 * tokens to sell (or the quote a buy can cost at its slippage bound) move to the escrow owner, as for
 * a limit, and the order is Pending once it lands; the keeper executes it at market when it triggers.
 */
export function createTriggerOrderBuilder(deps: OrderBuilderDeps & { repo: TradingRepository }) {
  const { pairs, chain } = deps;

  async function build(
    userId: string,
    wallet: string,
    order: TTriggerOrder,
    pair: TradingPair,
  ): Promise<TUnsignedTransaction> {
    const escrowAddress = deps.escrowAddress;
    if (!escrowAddress) {
      throw new AppError('TRADING__VENUE_UNAVAILABLE', 'Trigger orders need the local market maker venue');
    }
    const kind = TRIGGER_ORDER_TYPES[order.order_type];
    const baseAmount = baseUnitsOf(order.amount, pair.base.decimals);
    const mid = await pairs.midPriceOf(pair);
    const trailPercent = order.trail_percent === undefined ? null : new Dec(order.trail_percent);
    const trigger = trailPercent
      ? trailingTrigger(order.side, mid, trailPercent)
      : new Dec(order.trigger_price!);
    if (!trailPercent) assertTriggerAhead(kind, order.side, trigger, mid, pair);
    if (order.oco_with) await assertOcoTarget(deps.repo, userId, order.oco_with, pair);
    const escrow = checkedEscrowLegs(
      triggerEscrow({
        side: order.side,
        baseAmount,
        trigger,
        maxSlippageBps: order.max_slippage_bps,
        baseDecimals: pair.base.decimals,
        quoteDecimals: pair.quote.decimals,
      }),
      pair,
      'A trigger order',
    );
    const networkFee =
      LAMPORTS_PER_SIGNATURE +
      priorityFeeLamports(order.priority_fee_micro_lamports, MAX_DEFAULT_COMPUTE_UNIT_LIMIT);
    assertAffordable(
      await pairs.holdingsOf(wallet),
      { token: escrow.escrowToken, amount: escrow.escrowAmount },
      escrow.settleToken,
      networkFee + RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
    );
    const user = createNoopSigner(address(wallet));
    const built = await buildTransaction({
      feePayer: user.address,
      instructions: await escrowDepositInstructions(user, escrowAddress, escrow),
      lifetime: await chain.getLatestBlockhash(),
      priorityFeeMicroLamports: order.priority_fee_micro_lamports,
    });
    const payload: TriggerPayload = {
      orderId: randomUUID(),
      orderType: kind,
      symbol: pair.text,
      side: order.side,
      baseMint: pair.base.mint,
      quoteMint: pair.quote.mint,
      baseDecimals: pair.base.decimals,
      quoteDecimals: pair.quote.decimals,
      baseAmount: baseAmount.toString(),
      quantity: fromBaseUnits(baseAmount, pair.base.decimals).toFixed(),
      triggerPrice: trigger.toFixed(),
      trailPercent: trailPercent?.toFixed() ?? null,
      trailReference: trailPercent ? mid.toFixed() : null,
      maxSlippageBps: order.max_slippage_bps,
      ocoWith: order.oco_with ?? null,
      escrowLeg: escrow.escrowLeg,
      escrowAmount: escrow.escrowAmount.toString(),
      settleAmount: escrow.settleAmount.toString(),
      priorityFeeMicroLamports: order.priority_fee_micro_lamports,
    };
    return registerEscrowTicket(deps.relay, deps.kinds.triggerEscrow, { userId, wallet, built, payload });
  }

  return {
    /** POST /trading/spot/order with a trigger order type, for a wallet that may trade. */
    async buildTriggerOrder(
      userId: string,
      wallet: string,
      order: TTriggerOrder,
    ): Promise<TUnsignedTransaction> {
      const pair = await pairs.resolvePair(order.symbol);
      try {
        return await build(userId, wallet, order, pair);
      } catch (error) {
        // As for limits: the same order twice on one blockhash can compile to an earlier ticket's message.
        if (isUniqueViolation(error)) return build(userId, wallet, order, pair);
        throw error;
      }
    },
  };
}
