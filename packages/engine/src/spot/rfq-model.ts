import { Dec } from '../money/decimal';
import { add, compare, type Exact, exactOf, mul, shift, sub, ZERO } from '../money/exact';

// The maker's pricing model, shared by the RFQ quote and the order-book ladder so both always agree.
// Internal, except `pricingModel` (re-exported by rfq-pricing.ts for quoteRfqExact's callers).

export type Side = 'Buy' | 'Sell';

const BPS = 10_000n;
const ONE_IN_BPS: Exact = { n: BPS, scale: 0 };

/** The local market maker's pricing parameters (basis points). */
export interface RfqPricing {
  /** Each side pays this much off mid. */
  halfSpreadBps: number;
  /** Venue fee on the notional (after spread and impact), charged in quote tokens, included in the fill price. */
  venueFeeBps: number;
  /** Size-based slippage, linear in the USD notional: this many bps per $10,000. */
  impactBpsPerUsd10k: number;
  /** Cap of the impact. */
  maxImpactBps: number;
}

/** A validated {@link RfqPricing}, in the forms the arithmetic needs. */
export interface PricingModel {
  readonly halfSpreadBps: Exact;
  readonly venueFeeBps: Exact;
  readonly impactBpsPerUsd10k: Exact;
  readonly maxImpactBps: Exact;
}

/** The exact value of a trade, in whole quote tokens. */
export interface TradeValue {
  /** base × mid × (1 ± (spread + impact)), before the venue fee. */
  readonly gross: Exact;
  /** gross × fee. */
  readonly fee: Exact;
  /** What the trader pays (Buy: gross + fee) or receives (Sell: gross − fee). */
  readonly total: Exact;
}

function bpsField(pricing: RfqPricing, field: keyof RfqPricing): number {
  const value = pricing[field];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`pricing.${field} must be a finite number ≥ 0, got ${String(value)}`);
  }
  return value;
}

/**
 * Validates a pricing. The spread plus the largest impact, and the fee, must each stay below
 * 100 %, so a sell always receives a positive price.
 */
export function pricingModel(pricing: RfqPricing): PricingModel {
  const halfSpread = bpsField(pricing, 'halfSpreadBps');
  const fee = bpsField(pricing, 'venueFeeBps');
  const rate = bpsField(pricing, 'impactBpsPerUsd10k');
  const maxImpact = bpsField(pricing, 'maxImpactBps');
  const model: PricingModel = {
    halfSpreadBps: exactOf(halfSpread),
    venueFeeBps: exactOf(fee),
    impactBpsPerUsd10k: exactOf(rate),
    maxImpactBps: exactOf(maxImpact),
  };
  if (!new Dec(maxImpact).plus(halfSpread).lt(10_000)) {
    throw new RangeError('pricing.halfSpreadBps + pricing.maxImpactBps must be below 10000');
  }
  if (fee >= 10_000) throw new RangeError('pricing.venueFeeBps must be below 10000');
  return model;
}

/** Size-based impact in bps, exact: linear in the USD notional, capped. Monotone in the notional. */
export function impactBps(notionalUsd: Exact, model: PricingModel): Exact {
  const linear = shift(mul(model.impactBpsPerUsd10k, notionalUsd), -4);
  return compare(linear, model.maxImpactBps) < 0 ? linear : model.maxImpactBps;
}

/** The exact value of trading `base` whole tokens at `mid` with the given impact. */
export function tradeValue(
  side: Side,
  base: Exact,
  mid: Exact,
  impact: Exact,
  model: PricingModel,
): TradeValue {
  const offMid = add(model.halfSpreadBps, impact);
  const priceFactor = side === 'Buy' ? add(ONE_IN_BPS, offMid) : sub(ONE_IN_BPS, offMid);
  const gross = shift(mul(mul(base, mid), priceFactor), -4);
  const fee = shift(mul(gross, model.venueFeeBps), -4);
  return { gross, fee, total: side === 'Buy' ? add(gross, fee) : sub(gross, fee) };
}

/** The fee-inclusive price of the smallest size (no impact), exact. */
export function bestPrice(side: Side, mid: Exact, model: PricingModel): Exact {
  return tradeValue(side, { n: 1n, scale: 0 }, mid, ZERO, model).total;
}

export { assertDecimals } from '../money/decimal';

export function assertPositive(value: Dec, name: string): void {
  if (!value.isFinite() || !value.gt(0)) {
    throw new RangeError(`${name} must be a finite number > 0, got ${value.toString()}`);
  }
}

export function assertPositiveUnits(units: bigint, name: string): void {
  if (units <= 0n) throw new RangeError(`${name} must be > 0, got ${units}`);
}
