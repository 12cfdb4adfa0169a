import type { Decimal } from 'decimal.js';
import { Dec, fromBaseUnits } from '../money/decimal';
import {
  add,
  compare,
  divToDec,
  type Exact,
  exactOf,
  exactUnits,
  mul,
  sign,
  sub,
  ZERO,
} from '../money/exact';
import {
  assertDecimals,
  assertPositive,
  impactBps,
  pricingModel,
  type PricingModel,
  type Side,
  tradeValue,
} from './rfq-model';
import { DEFAULT_RFQ_PRICING, rfqBestPrices, type RfqPricing } from './rfq-pricing';

/** Cumulative USD sizes at which the ladder is cut into levels. */
export const LADDER_NOTIONALS_USD: readonly number[] = Object.freeze([
  250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000, 100_000, 250_000,
]);

/** One level of the maker's ladder. */
export interface LadderLevel {
  /** Marginal price of the level, whole quote per whole base. */
  price: Dec;
  /** Whole base tokens available at this price (incremental, not cumulative). */
  amount: Dec;
}

export interface LadderInput {
  midPrice: Dec;
  /** USD per whole base token: sizes the levels and prices the impact. */
  baseUsdPrice: Dec;
  baseDecimals: number;
  /** Validated for parity with the RFQ; prices are not rounded to quote units. */
  quoteDecimals: number;
  pricing?: RfqPricing;
}

export interface Ladder {
  /** Maker bids (what a trader's sell gets), price descending. */
  buys: LadderLevel[];
  /** Maker asks (what a trader's buy pays), price ascending. */
  sells: LadderLevel[];
  /** Best ask − best bid. */
  spread: Dec;
}

/** A level in exact form: the RFQ value of its size increment, and that increment in base units. */
interface ExactLevel {
  value: Exact;
  units: bigint;
}

/** Orders two levels by price (value / units) exactly. */
function comparePrice(a: ExactLevel, b: ExactLevel): -1 | 0 | 1 {
  return compare(mul(a.value, { n: b.units, scale: 0 }), mul(b.value, { n: a.units, scale: 0 }));
}

function levelsFor(
  side: Side,
  cumulativeUnits: readonly bigint[],
  input: LadderInput,
  model: PricingModel,
): ExactLevel[] {
  const mid = exactOf(input.midPrice);
  const baseUsd = exactOf(input.baseUsdPrice);
  const levels: ExactLevel[] = [];
  let previousUnits = 0n;
  let previousValue = ZERO;
  for (const units of cumulativeUnits) {
    if (units <= previousUnits) continue;
    // Same impact as quoteRfq when quoteUsdPrice × mid = baseUsdPrice.
    const notionalUsd = mul(exactUnits(units, input.baseDecimals), baseUsd);
    const impact = impactBps(notionalUsd, model);
    const value = tradeValue(side, exactUnits(units, input.baseDecimals), mid, impact, model).total;
    levels.push({ value: sub(value, previousValue), units: units - previousUnits });
    previousUnits = units;
    previousValue = value;
  }
  return levels;
}

/**
 * Pools adjacent levels until prices strictly rise along the ladder (asks) or strictly fall (bids).
 * Needed where the impact cap kicks in: past the cap the marginal price steps back toward mid. A
 * pooled level keeps the exact value of its sizes, so sweeping whole levels still costs the RFQ price.
 */
function poolMonotone(levels: readonly ExactLevel[], direction: 1 | -1): ExactLevel[] {
  const pooled: ExactLevel[] = [];
  for (const level of levels) {
    let current = level;
    for (let last = pooled.at(-1); last !== undefined; last = pooled.at(-1)) {
      if (comparePrice(current, last) === direction) break;
      pooled.pop();
      current = { value: add(last.value, current.value), units: last.units + current.units };
    }
    pooled.push(current);
  }
  return pooled;
}

function toLadderLevels(
  levels: readonly ExactLevel[],
  decimals: number,
  rounding: Decimal.Rounding,
): LadderLevel[] {
  const rounded: { price: Dec; units: bigint }[] = [];
  for (const level of levels) {
    const price = divToDec(level.value, exactUnits(level.units, decimals), rounding);
    const last = rounded.at(-1);
    // Two exact prices can round to the same 18 digits: show them as one level.
    if (last !== undefined && last.price.eq(price)) last.units += level.units;
    else rounded.push({ price, units: level.units });
  }
  return rounded.map(({ price, units }) => ({ price, amount: fromBaseUnits(units, decimals) }));
}

/**
 * The local market maker's RFQ pricing shown as an order book. The ladder is cut at the cumulative
 * USD sizes of {@link LADDER_NOTIONALS_USD} (in whole base units, rounded down); each level's price is
 * the marginal price of its size increment, `(value(size_i) − value(size_i−1)) / (size_i − size_i−1)`
 * with the fee-inclusive `quoteRfq` value, so sweeping the first i levels costs (or yields)
 * exactly what the RFQ quotes for size_i before base-unit rounding. Prices are rounded to 18 digits
 * against the trader (asks up, bids down); bid levels whose price would not be positive are dropped.
 *
 * @throws RangeError for a non-positive mid or base USD price, invalid decimals or pricing.
 * @example
 * const { buys, sells, spread } = buildLadder({ midPrice: new Dec(150), baseUsdPrice: new Dec(150),
 *                                               baseDecimals: 9, quoteDecimals: 6 });
 * // sells[0].price ≈ 150.15, buys[0].price ≈ 149.85, sells[0].amount ≈ 1.666666666 (≈ $250)
 */
export function buildLadder(input: LadderInput): Ladder {
  const pricing = input.pricing ?? DEFAULT_RFQ_PRICING;
  const model = pricingModel(pricing);
  assertPositive(input.midPrice, 'midPrice');
  assertPositive(input.baseUsdPrice, 'baseUsdPrice');
  assertDecimals(input.baseDecimals, 'baseDecimals');
  assertDecimals(input.quoteDecimals, 'quoteDecimals');

  // units_i = floor(notional_i / baseUsdPrice × 10^baseDecimals), exactly.
  const usdPerBase = exactOf(input.baseUsdPrice);
  const cumulativeUnits = LADDER_NOTIONALS_USD.map((notionalUsd) => {
    const notional = exactOf(notionalUsd);
    const numerator = notional.n * 10n ** BigInt(input.baseDecimals + usdPerBase.scale);
    return numerator / (usdPerBase.n * 10n ** BigInt(notional.scale));
  });

  const asks = poolMonotone(levelsFor('Buy', cumulativeUnits, input, model), 1);
  const bids = poolMonotone(levelsFor('Sell', cumulativeUnits, input, model), -1).filter(
    (level) => sign(level.value) > 0,
  );
  const sells = toLadderLevels(asks, input.baseDecimals, Dec.ROUND_CEIL);
  const buys = toLadderLevels(bids, input.baseDecimals, Dec.ROUND_FLOOR);

  const bestAsk = sells[0]?.price;
  const bestBid = buys[0]?.price;
  if (bestAsk !== undefined && bestBid !== undefined) return { buys, sells, spread: bestAsk.minus(bestBid) };
  // A base token so expensive that even the largest notional is under one base unit: no levels.
  const best = rfqBestPrices(input.midPrice, pricing);
  return { buys, sells, spread: (bestAsk ?? best.ask).minus(bestBid ?? best.bid) };
}
