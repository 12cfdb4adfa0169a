import type { Dec } from '../money/decimal';

// The perpetual-futures kernel's contract (implemented in the futures issue): pure functions of
// USDC base units and decimal prices, shared by the venue, the liquidation job and the web's preview.

export type PerpSide = 'Long' | 'Short';

export interface PerpPosition {
  readonly market: string;
  readonly side: PerpSide;
  /** Base units of the position (always positive; `side` gives the direction). */
  readonly size: bigint;
  readonly entryPrice: Dec;
  /** USDC base units of margin assigned (isolated) or the account's share (cross). */
  readonly margin: bigint;
}

export interface PerpMarketRules {
  readonly maxLeverage: number;
  /** Maintenance margin fraction, tiered from the market's max leverage. */
  readonly maintenanceMarginFraction: Dec;
  readonly takerFeeBps: number;
  readonly makerFeeBps: number;
}

/** Initial margin of an order, in USDC base units, at a leverage of 1 to the market's maximum. */
export type InitialMargin = (notional: bigint, leverage: number, rules: PerpMarketRules) => bigint;
/** The mark price at which a position's equity falls to its maintenance margin. */
export type LiquidationPrice = (position: PerpPosition, rules: PerpMarketRules) => Dec;
/** One funding payment (positive: longs pay shorts), from the mark/oracle premium over the period. */
export type FundingPayment = (
  position: PerpPosition,
  markPrice: Dec,
  oraclePrice: Dec,
  periodHours: number,
) => bigint;
