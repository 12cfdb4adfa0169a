import { toBaseUnits } from '../money/decimal';
import { add, exactOf, exactUnits, floor, mul, shift, ZERO, type Exact } from '../money/exact';
import type { PricedQuote } from './rfq-fills';
import type { RiskRules, Sizing } from './strategy';
import { buyWithin, slippageOf, type VenuePort } from './venue';

/** A runtime's sizing, checked, and the amounts it fixes. */
export interface SizingAmounts {
  readonly sizing: Sizing;
  /** fixed_base: base units a lot buys (else 0). */
  readonly baseAmount: bigint;
  /** fixed_quote: quote units a lot spends at most (else 0). */
  readonly budgetUnits: bigint;
  /** percent_equity: the percent, exact (else zero). */
  readonly percent: Exact;
}

/** The sizing of `risk` (fixed_base of its amount without one), checked; throws a RangeError. */
export function sizingAmounts(
  risk: RiskRules,
  decimals: { baseDecimals: number; quoteDecimals: number },
): SizingAmounts {
  if (!Number.isInteger(risk.maxPositions) || risk.maxPositions < 1) {
    throw new RangeError(`maxPositions must be a whole number ≥ 1, got ${risk.maxPositions}`);
  }
  const sizing: Sizing = risk.sizing ?? { mode: 'fixed_base', value: risk.amount };
  if (!sizing.value.isFinite() || !sizing.value.gt(0)) {
    throw new RangeError(`sizing value must be > 0, got ${sizing.value.toString()}`);
  }
  if (sizing.mode === 'percent_equity' && sizing.value.gt(100)) {
    throw new RangeError(`percent_equity sizing must be at most 100, got ${sizing.value.toString()}`);
  }
  const baseAmount = sizing.mode === 'fixed_base' ? toBaseUnits(sizing.value, decimals.baseDecimals) : 0n;
  const budgetUnits = sizing.mode === 'fixed_quote' ? toBaseUnits(sizing.value, decimals.quoteDecimals) : 0n;
  if (sizing.mode === 'fixed_base' && baseAmount <= 0n)
    throw new RangeError(`amount ${sizing.value.toString()} is below one base unit`);
  if (sizing.mode === 'fixed_quote' && budgetUnits <= 0n)
    throw new RangeError(`fixed_quote ${sizing.value.toString()} is below one quote unit`);
  const percent = sizing.mode === 'percent_equity' ? exactOf(sizing.value) : ZERO;
  return { sizing, baseAmount, budgetUnits, percent };
}

/**
 * The buy a fixed_quote or percent_equity sizing makes at `mid` with `cash` quote units and
 * `heldBase` base units in open lots (null: the venue refuses, or not one base unit fits).
 */
export function sizedBuy(
  amounts: Pick<SizingAmounts, 'sizing' | 'budgetUnits' | 'percent'>,
  cash: bigint,
  heldBase: bigint,
  mid: Exact,
  options: { venue: VenuePort; baseDecimals: number; quoteDecimals: number },
): { baseAmount: bigint; fill: PricedQuote } | null {
  let budget = amounts.budgetUnits;
  if (amounts.sizing.mode === 'percent_equity') {
    const lots = heldBase === 0n ? ZERO : mul(exactUnits(heldBase, options.baseDecimals), mid);
    const equity = add(exactUnits(cash, options.quoteDecimals), lots);
    budget = floor(shift(mul(equity, amounts.percent), options.quoteDecimals - 2));
    if (budget > cash) budget = cash;
  }
  const sized = buyWithin(options.venue, budget, mid, options);
  if (!sized) return null;
  const { baseAmount, fill } = sized;
  const slippage = slippageOf('Buy', baseAmount, fill.quoteAmount, mid, fill.fee, options);
  return { baseAmount, fill: { quoteAmount: fill.quoteAmount, fee: fill.fee, slippage } };
}
