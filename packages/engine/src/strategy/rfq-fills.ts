import type { Exact } from '../money/exact';
import type { RfqMarket } from '../spot/rfq-pricing';

// quoteRfqExact's quote amount and fee for the fills of backtests and paper bots, on bare bigints:
// the same products, in the same scales, with every power of ten and constant worked out once per
// market and mid scale, and no intermediate objects (a year of minutes fills ~33,000 times). The
// differential tests hold it to quoteRfqExact: the same quote units and the same fee, digit for digit
// and scale for scale.

const BPS = 10_000n;

const powers: bigint[] = [];
function pow10(k: number): bigint {
  return (powers[k] ??= 10n ** BigInt(k));
}

/** One branch of the impact (linear in the notional, or its cap) at one mid scale. */
export interface Branch {
  /** The price factor 10,000 ± spread (± impact, for the cap) at offScale: buy, sell. */
  readonly buyFactor: bigint;
  readonly sellFactor: bigint;
  /** Scale of the fee and of the total. */
  readonly feeScale: number;
  /** Quote units = total / unitDivisor (rounded), or total × unitMultiplier when the total is coarser. */
  readonly unitDivisor: bigint;
  /** unitDivisor as a double (an estimate's divisor). */
  readonly unitDivisorApprox: number;
  readonly unitMultiplier: bigint;
  /** slippageOf's common scale (the finest of quote units, base × mid and the fee), and the factors
   * bringing base × mid n and the fee n to it. */
  readonly slippageScale: number;
  readonly atMidToSlippage: bigint;
  readonly feeToSlippage: bigint;
}

/** A fill priced with its slippage (slippageOf's figure), all exact. */
export interface PricedQuote {
  readonly quoteAmount: bigint;
  readonly fee: Exact;
  readonly slippage: Exact;
}

/** Everything about a mid scale: the linear impact's scale and multipliers, both branches. */
export interface Plan {
  /** linear impact n × linearToCommon vs capInCommon: the comparison in their common scale. */
  readonly linearToCommon: bigint;
  readonly capInCommon: bigint;
  /** The linear impact n shifted to the linear branch's offScale. */
  readonly linearToOff: bigint;
  readonly linear: Branch;
  readonly cap: Branch;
}

export class RfqFills {
  private readonly plans: (Plan | undefined)[] = [];
  /** rate n × quote USD n: the linear impact's n over base × mid n. */
  readonly impactPerNotional: bigint;
  /** 10^(fee scale + 4) + fee n, and minus it: total n over gross n for a buy and a sell. */
  readonly buyTotal: bigint;
  readonly sellTotal: bigint;
  readonly feeBps: bigint;
  /** roundUnits' quote units and those units at the slippage scale. */
  private roundedQuote = 0n;
  private roundedPaid = 0n;

  constructor(private readonly market: RfqMarket) {
    const { model, quoteUsdPrice } = market;
    this.feeBps = model.venueFeeBps.n;
    this.impactPerNotional = model.impactBpsPerUsd10k.n * quoteUsdPrice.n;
    const feeOne = pow10(model.venueFeeBps.scale + 4);
    this.buyTotal = feeOne + model.venueFeeBps.n;
    this.sellTotal = feeOne - model.venueFeeBps.n;
  }

  /**
   * The quote units a fill of `baseAmount` at `mid` pays (buy, rounded up) or receives (sell, rounded
   * down), and its fee: quoteRfqExact's figures.
   */
  quote(side: 'Buy' | 'Sell', baseAmount: bigint, mid: Exact): { quoteAmount: bigint; fee: Exact } {
    const { quoteAmount, fee } = this.priced(side, baseAmount, mid);
    return { quoteAmount, fee };
  }

  /**
   * quote() and the fill's slippage, slippageOf(side, baseAmount, quoteAmount, mid, fee): the quote
   * units times their scale factor are the total already divided (rounded), and base × mid is
   * already made, so the slippage costs one product and two differences.
   */
  priced(side: 'Buy' | 'Sell', baseAmount: bigint, mid: Exact): PricedQuote {
    const plan = this.plan(mid.scale);
    const atMid = baseAmount * mid.n;
    const linear = this.impactPerNotional === 1n ? atMid : atMid * this.impactPerNotional;
    const useLinear = (plan.linearToCommon === 1n ? linear : linear * plan.linearToCommon) < plan.capInCommon;
    const branch = useLinear ? plan.linear : plan.cap;
    const buy = side === 'Buy';
    let factor = buy ? branch.buyFactor : branch.sellFactor;
    if (useLinear) {
      const impact = plan.linearToOff === 1n ? linear : linear * plan.linearToOff;
      factor = buy ? factor + impact : factor - impact;
    }
    const gross = atMid * factor;
    const total = gross * (buy ? this.buyTotal : this.sellTotal);
    let quoteAmount: bigint;
    // paid: quoteAmount at the slippage scale.
    let paid: bigint;
    if (branch.unitMultiplier !== 1n) {
      // The fee's scale is coarser than quote units: the slippage scale is the quote's.
      quoteAmount = total * branch.unitMultiplier;
      paid = quoteAmount;
    } else {
      // The slippage scale is the fee's (≥ the quote's and base × mid's): paid = quoteAmount × d.
      this.roundUnits(total, branch, buy);
      quoteAmount = this.roundedQuote;
      paid = this.roundedPaid;
    }
    const { fee, slippage } = feeAndSlippageOf(branch, this.feeBps, !buy, gross, paid, atMid);
    return { quoteAmount, fee, slippage };
  }

  /**
   * total / unitDivisor in quote units, up for a buy (ceil), down for a sell (floor), and those units
   * times the divisor. The quotient is estimated on doubles and confirmed by products (floor q when
   * q × d ≤ total < (q + 1) × d), which costs less than a bigint division; a total past the doubles'
   * integers, or not above zero, is divided.
   */
  private roundUnits(total: bigint, branch: Branch, buy: boolean): void {
    const d = branch.unitDivisor;
    if (total > 0n) {
      const ratio = Number(total) / branch.unitDivisorApprox;
      let estimate = Math.floor(ratio);
      // Three roundings off by < 4e-16 relatively: below 2^40 the quotient is within 5e-4 of the
      // ratio, so a ratio that far from a whole number has its floor and is not whole itself.
      const fraction = ratio - estimate;
      if (ratio < SURE_BELOW && fraction > SURE_MARGIN && fraction < 1 - SURE_MARGIN) {
        const q = BigInt(buy ? estimate + 1 : estimate);
        return this.rounded(q, q * d);
      }
      if (estimate >= 0 && estimate < MAX_ESTIMATE) {
        for (;;) {
          const q = BigInt(estimate);
          const back = q * d;
          if (back > total) estimate -= 1;
          else {
            const next = back + d;
            if (next <= total) estimate += 1;
            else if (back === total || !buy) return this.rounded(q, back);
            else return this.rounded(BigInt(estimate + 1), next);
          }
        }
      }
    }
    const q = total / d; // truncates toward zero
    const back = q * d;
    if (back === total) return this.rounded(q, total);
    if (buy ? total > 0n : total < 0n) return this.rounded(buy ? q + 1n : q - 1n, buy ? back + d : back - d);
    return this.rounded(q, back);
  }

  /** roundUnits' answer, in fields (not an object a fill). */
  private rounded(quoteAmount: bigint, paid: bigint): void {
    this.roundedQuote = quoteAmount;
    this.roundedPaid = paid;
  }

  /** The plan of a mid scale (made on its first use). */
  plan(midScale: number): Plan {
    return (this.plans[midScale] ??= this.planFor(midScale));
  }

  private planFor(midScale: number): Plan {
    const { model, quoteUsdPrice, baseDecimals } = this.market;
    const linearScale = model.impactBpsPerUsd10k.scale + baseDecimals + midScale + quoteUsdPrice.scale + 4;
    const cap = model.maxImpactBps;
    const common = Math.max(linearScale, cap.scale);
    const linearOff = Math.max(model.halfSpreadBps.scale, linearScale);
    const capOff = Math.max(model.halfSpreadBps.scale, cap.scale);
    const spreadAt = (scale: number) => model.halfSpreadBps.n * pow10(scale - model.halfSpreadBps.scale);
    const capSpread = spreadAt(capOff) + cap.n * pow10(capOff - cap.scale);
    return {
      linearToCommon: pow10(common - linearScale),
      capInCommon: cap.n * pow10(common - cap.scale),
      linearToOff: pow10(linearOff - linearScale),
      linear: this.branch(midScale, linearOff, spreadAt(linearOff)),
      cap: this.branch(midScale, capOff, capSpread),
    };
  }

  private branch(midScale: number, offScale: number, offMid: bigint): Branch {
    const one = BPS * pow10(offScale);
    const feeScale =
      this.market.baseDecimals + midScale + offScale + 4 + this.market.model.venueFeeBps.scale + 4;
    const unitScale = feeScale - this.market.quoteDecimals;
    const atMidScale = this.market.baseDecimals + midScale;
    const slippageScale = Math.max(this.market.quoteDecimals, atMidScale, feeScale);
    return {
      buyFactor: one + offMid,
      sellFactor: one - offMid,
      feeScale,
      unitDivisor: unitScale >= 0 ? pow10(unitScale) : 1n,
      unitDivisorApprox: unitScale >= 0 ? Number(pow10(unitScale)) : 1,
      unitMultiplier: unitScale >= 0 ? 1n : pow10(-unitScale),
      slippageScale,
      atMidToSlippage: pow10(slippageScale - atMidScale),
      feeToSlippage: pow10(slippageScale - feeScale),
    };
  }
}

/**
 * A fill's fee and slippage (slippageOf's) in its branch's scales: the fee is `gross` (value at the
 * mid × price factor) × fee bps; the slippage ±(`paid` − `atMid` × atMidToSlippage) − fee ×
 * feeToSlippage, `paid` its quote units at the slippage scale. Also the sums of many fills of a
 * branch (FastFillSums), as a buy: the grosses added, and the sells' paid and atMid subtracted.
 */
export function feeAndSlippageOf(
  branch: Branch,
  feeBps: bigint,
  sell: boolean,
  gross: bigint,
  paid: bigint,
  atMid: bigint,
): { fee: Exact; slippage: Exact } {
  const feeN = gross * feeBps;
  const atMidScaled = branch.atMidToSlippage === 1n ? atMid : atMid * branch.atMidToSlippage;
  const feeScaled = branch.feeToSlippage === 1n ? feeN : feeN * branch.feeToSlippage;
  return {
    fee: { n: feeN, scale: branch.feeScale },
    slippage: {
      n: (sell ? atMidScaled - paid : paid - atMidScaled) - feeScaled,
      scale: branch.slippageScale,
    },
  };
}

/** Ratios below 2^40 whose fraction is more than 10^-3 from a whole number have a certain floor. */
const SURE_BELOW = 2 ** 40;
const SURE_MARGIN = 1e-3;

/** Below 2^52: the estimate, its neighbours and their BigInt are exact. */
const MAX_ESTIMATE = 2 ** 52;
