import { Dec, fromBaseUnits } from '../money/decimal';
import { ceil, exactOf, exactUnits, floor, mul, shift, toDec, type Exact } from '../money/exact';
import {
  assertDecimals,
  assertPositive,
  assertPositiveUnits,
  bestPrice,
  impactBps,
  pricingModel,
  tradeValue,
  type PricingModel,
  type RfqPricing,
} from './rfq-model';

export { pricingModel, type PricingModel } from './rfq-model';

export type { RfqPricing } from './rfq-model';

/** How the local market maker prices a request for quote. All figures are basis points. */
/** 5 bps half spread, 5 bps fee, 1 bp of impact per $10k capped at 250 bps. */
export const DEFAULT_RFQ_PRICING: RfqPricing = Object.freeze({
  halfSpreadBps: 5,
  venueFeeBps: 5,
  impactBpsPerUsd10k: 1,
  maxImpactBps: 250,
});

export interface RfqQuoteInput {
  /** The trader's side on the base token. */
  side: 'Buy' | 'Sell';
  /** Base units, > 0. */
  baseAmount: bigint;
  baseDecimals: number;
  quoteDecimals: number;
  /** Quote tokens per whole base token (> 0). */
  midPrice: Dec;
  /** USD per whole quote token, for the notional of the impact (≥ 0). */
  quoteUsdPrice: Dec;
  pricing?: RfqPricing;
}

export interface RfqQuote {
  /**
   * Quote base units the trader pays (Buy, rounded up) or receives (Sell, rounded down). May be 0n
   * for a dust sell: the caller refuses it.
   */
  quoteAmount: bigint;
  /** Effective whole quote per whole base: quoteAmount / baseAmount in whole tokens. */
  price: Dec;
  /** Venue fee in whole quote tokens (exact fee before the base-unit rounding, to 18 digits). */
  venueFee: Dec;
  priceImpactBps: Dec;
  notionalUsd: Dec;
}

/**
 * Quotes a spot trade against the local market maker. The fill price is
 * `mid × (1 ± (halfSpread + impact)) × (1 ± fee)`; the impact is
 * `min(maxImpact, impactBpsPerUsd10k × notionalUsd / 10 000)` with `notionalUsd = base × mid × quoteUsd`.
 *
 * The quote amount is computed exactly on bigints (no 18-digit rounding at any size) and rounded
 * once, against the trader: up for a buy, down for a sell. So a buy followed by a sell of the same
 * amount never returns more than it cost, and a larger size never gets a better exact price.
 *
 * @throws RangeError for a non-positive amount or mid, a negative quote USD price, invalid decimals
 *   or an invalid pricing.
 * @example
 * quoteRfq({ side: 'Buy', baseAmount: 1_000_000_000n, baseDecimals: 9, quoteDecimals: 6,
 *            midPrice: new Dec(150), quoteUsdPrice: new Dec(1) }).quoteAmount; // 150150263n
 */
export function quoteRfq(input: RfqQuoteInput): RfqQuote {
  const { side, baseAmount, baseDecimals, quoteDecimals, midPrice, quoteUsdPrice } = input;
  const model = pricingModel(input.pricing ?? DEFAULT_RFQ_PRICING);
  assertPositiveUnits(baseAmount, 'baseAmount');
  assertDecimals(baseDecimals, 'baseDecimals');
  assertDecimals(quoteDecimals, 'quoteDecimals');
  assertPositive(midPrice, 'midPrice');
  if (!quoteUsdPrice.isFinite() || quoteUsdPrice.lt(0)) {
    throw new RangeError(`quoteUsdPrice must be a finite number ≥ 0, got ${quoteUsdPrice.toString()}`);
  }
  const quote = quoteRfqExact(side, baseAmount, exactOf(midPrice), {
    baseDecimals,
    quoteDecimals,
    quoteUsdPrice: exactOf(quoteUsdPrice),
    model,
  });
  return {
    quoteAmount: quote.quoteAmount,
    price: fromBaseUnits(quote.quoteAmount, quoteDecimals).div(fromBaseUnits(baseAmount, baseDecimals)),
    venueFee: toDec(quote.fee),
    priceImpactBps: toDec(quote.impactBps),
    notionalUsd: toDec(quote.notionalUsd),
  };
}

/** What {@link quoteRfqExact} needs besides the trade: checked once, reused for every quote. */
export interface RfqMarket {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** USD per whole quote token. */
  readonly quoteUsdPrice: Exact;
  readonly model: PricingModel;
}

/** The exact core of {@link quoteRfq}: no decimal rounding anywhere, quote units rounded against the trader. */
export interface RfqExactQuote {
  readonly quoteAmount: bigint;
  /** Venue fee, whole quote tokens. */
  readonly fee: Exact;
  readonly impactBps: Exact;
  readonly notionalUsd: Exact;
}

/**
 * {@link quoteRfq} on exact values, for callers that quote many times (backtests, paper bots): the
 * same numbers, without validation or decimal conversions. `mid` must be > 0.
 */
export function quoteRfqExact(
  side: 'Buy' | 'Sell',
  baseAmount: bigint,
  mid: Exact,
  market: RfqMarket,
): RfqExactQuote {
  const base = exactUnits(baseAmount, market.baseDecimals);
  const notionalUsd = mul(mul(base, mid), market.quoteUsdPrice);
  const impact = impactBps(notionalUsd, market.model);
  const value = tradeValue(side, base, mid, impact, market.model);
  const totalUnits = shift(value.total, market.quoteDecimals);
  return {
    quoteAmount: side === 'Buy' ? ceil(totalUnits) : floor(totalUnits),
    fee: value.fee,
    impactBps: impact,
    notionalUsd,
  };
}

/**
 * The maker's best prices: what the smallest size pays (spread and fee, no impact), rounded to 18
 * digits against the trader (bid down, ask up).
 *
 * @example
 * rfqBestPrices(new Dec(100)); // { bid: 99.900025, ask: 100.100025 }
 */
export function rfqBestPrices(
  midPrice: Dec,
  pricing: RfqPricing = DEFAULT_RFQ_PRICING,
): { bid: Dec; ask: Dec } {
  const model = pricingModel(pricing);
  assertPositive(midPrice, 'midPrice');
  const mid = exactOf(midPrice);
  return {
    bid: toDec(bestPrice('Sell', mid, model), Dec.ROUND_FLOOR),
    ask: toDec(bestPrice('Buy', mid, model), Dec.ROUND_CEIL),
  };
}
