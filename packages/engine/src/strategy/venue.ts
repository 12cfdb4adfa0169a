import { Dec } from '../money/decimal';
import { exactOf, type Exact } from '../money/exact';
import { DEFAULT_RFQ_PRICING, pricingModel, type RfqPricing } from '../spot/rfq-pricing';
import { RfqFastQuotes } from './rfq-fast';
import { RfqFills, type PricedQuote } from './rfq-fills';

// Where the strategy runtime's fills are priced (the live venue's RFQ arithmetic, or a fixed fee and
// slippage for backtests), what each fill paid off the mid, and the largest buy a budget allows.

/** What the venue charged for one fill. */
export interface VenueFill {
  /** Quote base units paid (buy) or received (sell), fees included. */
  readonly quoteAmount: bigint;
  /** The venue's fee, whole quote tokens (inside `quoteAmount`). */
  readonly fee: Exact;
}

/** Where the runtime's fills are priced: the live maker's RFQ pricing, in backtests and paper bots alike. */
export interface VenuePort {
  /** Prices `baseAmount` at `mid` (quote per whole base, > 0); null when the venue refuses it. */
  fill(side: 'Buy' | 'Sell', baseAmount: bigint, mid: Exact): VenueFill | null;
  /** fill() and its slippageOf in one computation, when the venue can (the RFQ venue). */
  priced?(side: 'Buy' | 'Sell', baseAmount: bigint, mid: Exact): PricedQuote | null;
  /** priced()'s quote units on doubles where they are certain (the RFQ venue, with priced()). */
  readonly fastQuotes?: RfqFastQuotes;
}

/**
 * The local maker's RFQ pricing and fees (`quoteRfqExact`, the live venue's numbers) as a venue port,
 * computed by RfqFills (the same figures on bare bigints).
 */
export function rfqVenue(options: {
  baseDecimals: number;
  quoteDecimals: number;
  /** USD per whole quote token (the impact's notional). */
  quoteUsdPrice: Dec;
  pricing?: RfqPricing;
}): VenuePort {
  const market = {
    baseDecimals: options.baseDecimals,
    quoteDecimals: options.quoteDecimals,
    quoteUsdPrice: exactOf(options.quoteUsdPrice),
    model: pricingModel(options.pricing ?? DEFAULT_RFQ_PRICING),
  };
  const fills = new RfqFills(market);
  return {
    fastQuotes: new RfqFastQuotes(fills),
    fill(side, baseAmount, mid) {
      const quote = fills.quote(side, baseAmount, mid);
      return quote.quoteAmount > 0n ? quote : null;
    },
    priced(side, baseAmount, mid) {
      const priced = fills.priced(side, baseAmount, mid);
      return priced.quoteAmount > 0n ? priced : null;
    },
  };
}

/** The largest fee or slippage a fixed cost model takes, bps (10 %). */
export const MAX_COST_BPS = 1000;

/**
 * A venue that charges a fixed fee and slippage on every fill (the backtest's `costs.model: 'fixed'`):
 * `base × mid × (1 ± slippage)` before the fee, the fee on that, as the live venue's RFQ arithmetic
 * with the slippage as its half spread and no size impact. Exact; quote units rounded against the trader.
 */
export function fixedCostVenue(options: {
  baseDecimals: number;
  quoteDecimals: number;
  feeBps: number;
  slippageBps: number;
}): VenuePort {
  for (const [name, bps] of [
    ['feeBps', options.feeBps],
    ['slippageBps', options.slippageBps],
  ] as const) {
    if (!Number.isFinite(bps) || bps < 0 || bps > MAX_COST_BPS) {
      throw new RangeError(`${name} must be between 0 and ${MAX_COST_BPS}, got ${bps}`);
    }
  }
  return rfqVenue({
    baseDecimals: options.baseDecimals,
    quoteDecimals: options.quoteDecimals,
    quoteUsdPrice: new Dec(0),
    pricing: {
      halfSpreadBps: options.slippageBps,
      venueFeeBps: options.feeBps,
      impactBpsPerUsd10k: 0,
      maxImpactBps: 0,
    },
  });
}

/**
 * What a fill paid off the mid besides the fee, whole quote tokens, exact: spread, size impact and the
 * rounding to quote base units (all against the trader, so ≥ 0). By construction
 * buy: quoteAmount = base × mid + slippage + fee; sell: quoteAmount = base × mid − slippage − fee.
 */
export function slippageOf(
  side: 'Buy' | 'Sell',
  baseAmount: bigint,
  quoteAmount: bigint,
  mid: Exact,
  fee: Exact,
  decimals: { baseDecimals: number; quoteDecimals: number },
): Exact {
  // sub(sub(paid, atMid), fee) for a buy, sub(sub(atMid, paid), fee) for a sell, in their scales.
  const midScale = decimals.baseDecimals + mid.scale;
  const first = Math.max(decimals.quoteDecimals, midScale);
  const scale = Math.max(first, fee.scale);
  const paid = up(quoteAmount, scale - decimals.quoteDecimals);
  const atMid = up(baseAmount * mid.n, scale - midScale);
  const n = (side === 'Buy' ? paid - atMid : atMid - paid) - up(fee.n, scale - fee.scale);
  return { n, scale };
}

const powers: bigint[] = [];
/** `n × 10^k` (k ≥ 0). */
function up(n: bigint, k: number): bigint {
  return k === 0 ? n : n * (powers[k] ??= 10n ** BigInt(k));
}

/**
 * Base units that `budget` quote units buy at `mid` before costs: ⌊budget / mid⌋ in base units.
 */
function baseForBudget(budget: bigint, mid: Exact, baseDecimals: number, quoteDecimals: number): bigint {
  if (mid.n <= 0n || budget <= 0n) return 0n;
  return up(budget, baseDecimals + mid.scale) / up(mid.n, quoteDecimals);
}

/**
 * The largest buy whose fill (fees and slippage included) costs at most `budget` quote units, and its
 * fill; null when not even one base unit fits or the venue refuses. A fill's cost grows with its size
 * and is at least its value at the mid, so the answer lies below ⌊budget / mid⌋: found by steps in
 * proportion to the overshoot, then by halving (quote units round up, so many sizes cost the same).
 */
export function buyWithin(
  venue: VenuePort,
  budget: bigint,
  mid: Exact,
  decimals: { baseDecimals: number; quoteDecimals: number },
): { baseAmount: bigint; fill: VenueFill } | null {
  let hi = baseForBudget(budget, mid, decimals.baseDecimals, decimals.quoteDecimals);
  if (hi <= 0n) return null;
  const top = venue.fill('Buy', hi, mid);
  if (!top) return null;
  if (top.quoteAmount <= budget) return { baseAmount: hi, fill: top };
  // Invariant: `hi` does not fit; `best` (lo) fits, or lo = 0.
  let lo = 0n;
  let best: { baseAmount: bigint; fill: VenueFill } | null = null;
  let guess = (hi * budget) / top.quoteAmount;
  for (let round = 0; round < 256 && hi - lo > 1n; round += 1) {
    if (guess <= lo || guess >= hi) guess = lo + (hi - lo) / 2n;
    const fill = venue.fill('Buy', guess, mid);
    if (!fill) return best;
    if (fill.quoteAmount <= budget) {
      lo = guess;
      best = { baseAmount: guess, fill };
      guess = lo + (hi - lo) / 2n;
    } else {
      hi = guess;
      guess = (guess * budget) / fill.quoteAmount;
    }
  }
  return best;
}
