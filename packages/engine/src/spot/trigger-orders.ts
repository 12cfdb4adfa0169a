import { Dec } from '../money/decimal';
import { limitEscrow, type LimitEscrow, type LimitFill } from './limit-orders';

/** Take-profit, stop-loss and trailing-stop spot orders: escrowed like limits, executed at market on trigger. */
export type SpotTriggerKind = 'TakeProfit' | 'StopLoss' | 'TrailingStop';

/** Where the market must go for the order to fire: at or above its trigger, or at or below it. */
export type TriggerDirection = 'above' | 'below';

/**
 * A sell's take-profit fires on a rise and its stop on a fall (a trailing sell stop trails below the
 * high); a buy's take-profit fires on a fall and its stop on a rise (a trailing buy stop trails above the low).
 */
export function triggerDirection(kind: SpotTriggerKind, side: 'Buy' | 'Sell'): TriggerDirection {
  const onRise = kind === 'TakeProfit' ? side === 'Sell' : side === 'Buy';
  return onRise ? 'above' : 'below';
}

/** Whether `price` has reached the trigger in the order's direction. */
export function triggerCrossed(direction: TriggerDirection, trigger: Dec, price: Dec): boolean {
  return direction === 'above' ? price.gte(trigger) : price.lte(trigger);
}

/**
 * The trailing reference after seeing `price`: the highest price since placement for a sell, the
 * lowest for a buy. It only ever moves in the trader's favour.
 */
export function nextTrailReference(side: 'Buy' | 'Sell', reference: Dec, price: Dec): Dec {
  return side === 'Sell' ? Dec.max(reference, price) : Dec.min(reference, price);
}

/** A trailing stop's trigger: `trailPercent` below the high (sell) or above the low (buy). */
export function trailingTrigger(side: 'Buy' | 'Sell', reference: Dec, trailPercent: Dec): Dec {
  const offset = trailPercent.div(100);
  return side === 'Sell'
    ? reference.times(new Dec(1).minus(offset))
    : reference.times(new Dec(1).plus(offset));
}

/** The worst price the slippage bound accepts at `trigger`: below it for a sell, above it for a buy. */
export function slippageBound(side: 'Buy' | 'Sell', trigger: Dec, maxSlippageBps: number): Dec {
  const slip = new Dec(maxSlippageBps).div(10_000);
  return side === 'Sell' ? trigger.times(new Dec(1).minus(slip)) : trigger.times(new Dec(1).plus(slip));
}

export interface TriggerEscrowInput {
  side: 'Buy' | 'Sell';
  baseAmount: bigint;
  /** The highest trigger the order can have: a buy's escrow must pay its bound at that trigger. */
  trigger: Dec;
  maxSlippageBps: number;
  baseDecimals: number;
  quoteDecimals: number;
}

/**
 * What a trigger order locks: a sell its base amount, a buy the quote its slippage bound can cost at
 * its trigger (a trailing buy's trigger only falls, so the placement's trigger is its highest). The
 * `settleAmount` is the least a sell receives (or a buy's base amount), as for a limit at the bound.
 */
export function triggerEscrow(input: TriggerEscrowInput): LimitEscrow {
  return limitEscrow({
    side: input.side,
    baseAmount: input.baseAmount,
    limitPrice: slippageBound(input.side, input.trigger, input.maxSlippageBps),
    baseDecimals: input.baseDecimals,
    quoteDecimals: input.quoteDecimals,
  });
}

export interface TriggerFillInput {
  side: 'Buy' | 'Sell';
  baseAmount: bigint;
  /** Units the order escrowed (see {@link triggerEscrow}). */
  escrowAmount: bigint;
  /** The order's trigger now (a trailing stop's current trigger). */
  trigger: Dec;
  maxSlippageBps: number;
  baseDecimals: number;
  quoteDecimals: number;
  /** Quote units the maker asks (Buy) or bids (Sell) for the whole size now. */
  makerQuoteAmount: bigint;
}

/**
 * The market execution of a triggered order at the maker's price for the size, or null when that
 * price is outside the slippage bound around the current trigger (the order is then kept). A buy pays
 * the maker at most its bound and gets the rest of the escrow back; a sell receives at least its bound.
 * `toMaker + refund = escrowAmount` exactly.
 */
export function triggerFill(input: TriggerFillInput): LimitFill | null {
  const { side, baseAmount, escrowAmount, makerQuoteAmount } = input;
  if (makerQuoteAmount <= 0n) return null;
  const bound = triggerEscrow({ ...input, trigger: input.trigger });
  if (side === 'Buy') {
    const worst = bound.escrowAmount < escrowAmount ? bound.escrowAmount : escrowAmount;
    if (makerQuoteAmount > worst) return null;
    return { toMaker: makerQuoteAmount, toTrader: baseAmount, refund: escrowAmount - makerQuoteAmount };
  }
  if (makerQuoteAmount < bound.settleAmount) return null;
  return { toMaker: escrowAmount, toTrader: makerQuoteAmount, refund: 0n };
}
