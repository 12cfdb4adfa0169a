import type { Dec } from '../money/decimal';
import { ceil, exactOf, exactUnits, floor, mul, shift } from '../money/exact';
import { assertDecimals, assertPositive, assertPositiveUnits } from './rfq-model';

export interface LimitEscrowInput {
  side: 'Buy' | 'Sell';
  /** Base units, > 0. */
  baseAmount: bigint;
  /** Whole quote per whole base (> 0). */
  limitPrice: Dec;
  baseDecimals: number;
  quoteDecimals: number;
}

export interface LimitEscrow {
  /** The token the trader locks when placing the order. */
  escrowLeg: 'base' | 'quote';
  /** Base units of the escrow leg the trader locks. */
  escrowAmount: bigint;
  /** Base units of the other leg the trader receives on fill. */
  settleAmount: bigint;
}

/**
 * What a limit order locks and what it settles, in base units. The quote leg `baseAmount × limit`
 * is computed exactly and rounded against the trader: a buy escrows the ceiling, a sell receives the
 * floor. Either way the quote leg is within one quote base unit of `baseAmount × limit`.
 *
 * @throws RangeError for a non-positive amount or limit price, or invalid decimals.
 * @example
 * limitEscrow({ side: 'Buy', baseAmount: 1_500_000_000n, limitPrice: new Dec('100.0000005'),
 *               baseDecimals: 9, quoteDecimals: 6 });
 * // { escrowLeg: 'quote', escrowAmount: 150000001n, settleAmount: 1500000000n }
 */
export function limitEscrow(input: LimitEscrowInput): LimitEscrow {
  const { side, baseAmount, limitPrice, baseDecimals, quoteDecimals } = input;
  assertPositiveUnits(baseAmount, 'baseAmount');
  assertPositive(limitPrice, 'limitPrice');
  assertDecimals(baseDecimals, 'baseDecimals');
  assertDecimals(quoteDecimals, 'quoteDecimals');
  const quoteUnits = shift(mul(exactUnits(baseAmount, baseDecimals), exactOf(limitPrice)), quoteDecimals);
  return side === 'Buy'
    ? { escrowLeg: 'quote', escrowAmount: ceil(quoteUnits), settleAmount: baseAmount }
    : { escrowLeg: 'base', escrowAmount: baseAmount, settleAmount: floor(quoteUnits) };
}

/**
 * Whether a resting limit order fills against the maker's current prices: a buy when the ask is at
 * or below the limit, a sell when the bid is at or above it.
 */
export function limitOrderCrosses(input: {
  side: 'Buy' | 'Sell';
  limitPrice: Dec;
  bid: Dec;
  ask: Dec;
}): boolean {
  return input.side === 'Buy' ? input.ask.lte(input.limitPrice) : input.bid.gte(input.limitPrice);
}

export interface LimitFillInput {
  side: 'Buy' | 'Sell';
  /** Base units the trader locked (see {@link limitEscrow}). */
  escrowAmount: bigint;
  /** Base units of the other leg the limit promises the trader. */
  settleAmount: bigint;
  /** Quote base units the maker asks (Buy) or bids (Sell) for the order's whole size now. */
  makerQuoteAmount: bigint;
}

export interface LimitFill {
  /** Base units of the escrowed leg paid to the maker. */
  toMaker: bigint;
  /** Base units of the other leg the maker pays the trader. */
  toTrader: bigint;
  /** Base units of the escrowed leg returned to the trader (price improvement of a buy). */
  refund: bigint;
}

/**
 * How a crossed limit order fills, with price improvement: at the maker's price when it is better than
 * the limit, as every venue does. A buy pays the maker its ask for the size (never more than the
 * escrowed limit) and gets the rest of the escrow back; a sell gives the whole base escrow and receives
 * the maker's bid (never less than the limit). `toMaker + refund = escrowAmount` exactly. Null when the
 * maker's price for the size does not reach the limit.
 *
 * @example
 * limitFill({ side: 'Buy', escrowAmount: 210_000_000n, settleAmount: 2_000_000_000n, makerQuoteAmount: 200_200_000n });
 * // { toMaker: 200200000n, toTrader: 2000000000n, refund: 9800000n }
 */
export function limitFill(input: LimitFillInput): LimitFill | null {
  const { side, escrowAmount, settleAmount, makerQuoteAmount } = input;
  assertPositiveUnits(escrowAmount, 'escrowAmount');
  assertPositiveUnits(settleAmount, 'settleAmount');
  assertPositiveUnits(makerQuoteAmount, 'makerQuoteAmount');
  if (side === 'Buy') {
    if (makerQuoteAmount > escrowAmount) return null;
    return { toMaker: makerQuoteAmount, toTrader: settleAmount, refund: escrowAmount - makerQuoteAmount };
  }
  if (makerQuoteAmount < settleAmount) return null;
  return { toMaker: escrowAmount, toTrader: makerQuoteAmount, refund: 0n };
}
