import { decimalOfNumber, type Exact, type ExactSum } from '../money/exact';
import { feeAndSlippageOf, type Branch, type RfqFills } from './rfq-fills';

// RfqFills' quote units on doubles, for the fills of a backtest (a year of minutes fills ~12,000
// times): a fill's value at the mid, A = baseAmount × mid n, is an integer below 2^52 (exact in a
// double), and its quote units are the ratio R = A × F × T / D rounded against the trader (up for a
// buy, down for a sell), with F the price factor (the branch's, ± the linear impact A × P), T the
// fee's total factor and D the unit divisor, all exact bigints. quoteUnits computes R on doubles
// with nine roundings, each within u = 2^-53 relatively:
//   1. Number(F's branch factor)  2. Number(P)  3. A × P  4. the factor ± that impact
//   5. A × factor  6. Number(T)  7. × T  8. Number(D) (exact up to 10^22)  9. the division.
// The factor's own error (1–4) stays within 3u: its two terms carry u and 2u, and their sum (a buy)
// or difference (a sell, refused unless the impact is at most 0.25 × the factor, so the difference
// is at least 0.75 × the factor) carries at most (u + 2u × 0.25) / 0.75 = 2u, plus its rounding
// (5 to 9 then add 5u). The bigints make the branch factors (10,000 ± spread ± cap at offScale)
// exactly, so nothing else cancels. That is 8u to first order; 9u ≈ 1.0e-15 relatively covers the
// higher orders and the 0.25 check's own rounding, so below MAX_RATIO = 2^30 the ratio is within
// 2^30 × 1.0e-15 ≈ 1.07e-6 of R. Its fraction, ratio − floor(ratio), is exact (Sterbenz: ratio ≥ 1):
// one more than MARGIN = 1e-5 from 0 and from 1 puts R strictly between the same two whole numbers,
// so floor(R) is the sell's units and, R not being whole, floor(R) + 1 the buy's (its ceiling).
// The branch (linear impact or its cap) is decided the same way, on doubles a few u off, only more
// than BRANCH_MARGIN = 1e-9 (relatively) from the cap. Otherwise, and past any guard, the caller
// prices the fill with bigints.
// The fee and the slippage of a fill are linear in its value at the mid, its square and its quote
// units: FastFillSums adds those up exactly (doubles below 2^53, the overflow in bigints) and makes
// the fees' and slippage's exact sums once, at the end; each fill's own fee and slippage are
// RfqFills.priced's, made when the fill is read.

/** Values at the mid below it are exact in a double, and their square splits in products below 2^53. */
export const MAX_AT_MID = 2 ** 52;
/** Below it the doubles' ratio is within 9u × 2^30 ≈ 1.07e-6 of the exact one (see above). */
const MAX_RATIO = 2 ** 30;
/** A fraction this far from a whole number is past the ratio's error: its floor is certain. */
const MARGIN = 1e-5;
/** The impact's branch is decided on doubles only this far (relatively) from the cap. */
const BRANCH_MARGIN = 1e-9;
const SAFE = Number.MAX_SAFE_INTEGER;
const HALF = 2 ** 26;

interface FastBranch {
  readonly buyFactor: number;
  readonly sellFactor: number;
  readonly unitDivisor: number;
  /** Quote units are the total divided by unitDivisor (not multiplied): the only case priced here. */
  readonly divided: boolean;
}

interface FastPlan {
  readonly usable: boolean;
  /** The linear impact in the comparison's scale per unit of value at the mid, and the cap there. */
  readonly slope: number;
  readonly cap: number;
  /** With no slope (no impact): whether the linear branch is taken (0 < the cap). */
  readonly linearAtZero: boolean;
  /** The linear impact at the branch's offScale per unit of value at the mid. */
  readonly impact: number;
  readonly linear: FastBranch;
  readonly capped: FastBranch;
}

/** feeAndSlippage's constants of a key (RfqFastQuotes.key). */
interface KeyReading {
  readonly branch: Branch;
  readonly linear: boolean;
  /** The linear impact at offScale per unit of value at the mid (0 for the cap), and whether it is 1. */
  readonly perValue: bigint;
  readonly perValueIsOne: boolean;
  /** paidPerUnit's. */
  readonly perUnit: number;
  readonly feeToSlippageIsOne: boolean;
}

/** RfqFills.priced's quote units on doubles, where they are certain. */
export class RfqFastQuotes {
  /** The last quote's key in FastFillSums: its mid scale × 2, plus 1 on the linear branch. */
  key = 0;
  private readonly plans: (FastPlan | undefined)[] = [];
  /** readingFor by key. */
  private readonly readings: (KeyReading | undefined)[] = [];
  private readonly buyTotal: number;
  private readonly sellTotal: number;

  constructor(readonly fills: RfqFills) {
    this.buyTotal = Number(fills.buyTotal);
    this.sellTotal = Number(fills.sellTotal);
  }

  /**
   * The quote units RfqFills.priced gives a fill whose value at the mid is `atMid` (baseAmount ×
   * mid n, an integer) at a mid of scale `midScale`; −1 when the doubles cannot be sure of them.
   */
  quoteUnits(sell: boolean, atMid: number, midScale: number): number {
    if (!(atMid >= 1 && atMid < MAX_AT_MID)) return -1;
    const plan = (this.plans[midScale] ??= this.planFor(midScale));
    if (!plan.usable) return -1;
    let linear: boolean;
    if (plan.slope === 0) linear = plan.linearAtZero;
    else {
      const x = atMid * plan.slope;
      if (x < plan.cap * (1 - BRANCH_MARGIN)) linear = true;
      else if (x > plan.cap * (1 + BRANCH_MARGIN)) linear = false;
      else return -1;
    }
    const branch = linear ? plan.linear : plan.capped;
    if (!branch.divided) return -1;
    let factor = sell ? branch.sellFactor : branch.buyFactor;
    if (linear) {
      const impact = atMid * plan.impact;
      if (!sell) factor += impact;
      // The difference keeps the bound: it is at least 0.75 × the factor (see above).
      else if (impact <= 0.25 * factor) factor -= impact;
      else return -1;
    }
    const ratio = (atMid * factor * (sell ? this.sellTotal : this.buyTotal)) / branch.unitDivisor;
    if (!(ratio >= 1 && ratio < MAX_RATIO)) return -1;
    const whole = Math.floor(ratio);
    const fraction = ratio - whole;
    if (fraction < MARGIN || fraction > 1 - MARGIN) return -1;
    this.key = midScale * 2 + (linear ? 1 : 0);
    return sell ? whole : whole + 1;
  }

  /**
   * The fee and slippage of a fill quoted here (RfqFills.priced's, exactly): `key` its quote's key,
   * `atMid` its value at the mid, `quoteUnits` its quote units.
   */
  feeAndSlippage(
    key: number,
    sell: boolean,
    atMid: number,
    quoteUnits: number,
  ): { fee: Exact; slippage: Exact } {
    const { fills } = this;
    const reading = (this.readings[key] ??= this.readingFor(key));
    const { branch } = reading;
    const value = BigInt(atMid);
    let factor = sell ? branch.sellFactor : branch.buyFactor;
    if (reading.linear) {
      const impact = reading.perValueIsOne ? value : value * reading.perValue;
      factor = sell ? factor - impact : factor + impact;
    }
    const { perUnit } = reading;
    const paidAtMid = quoteUnits * perUnit;
    if (perUnit > 0 && paidAtMid <= SAFE) {
      // paid − atMid × atMidToSlippage = (quote units × perUnit − atMid) × atMidToSlippage, the
      // difference of two whole doubles below 2^53: exact, one bigint product instead of two.
      const feeN = value * factor * fills.feeBps;
      const feeScaled = reading.feeToSlippageIsOne ? feeN : feeN * branch.feeToSlippage;
      const spread = BigInt(sell ? atMid - paidAtMid : paidAtMid - atMid) * branch.atMidToSlippage;
      return {
        fee: { n: feeN, scale: branch.feeScale },
        slippage: { n: spread - feeScaled, scale: branch.slippageScale },
      };
    }
    const paid = BigInt(quoteUnits) * branch.unitDivisor;
    return feeAndSlippageOf(branch, fills.feeBps, sell, value * factor, paid, value);
  }

  /** What feeAndSlippage reads of a key: its branch, impact per value and paid per unit (made once a key). */
  private readingFor(key: number): KeyReading {
    const plan = this.fills.plan(key >> 1);
    const linear = (key & 1) === 1;
    const branch = linear ? plan.linear : plan.cap;
    const perValue = linear ? this.impactPerValue(key >> 1) : 0n;
    return {
      branch,
      linear,
      perValue,
      perValueIsOne: perValue === 1n,
      perUnit: this.paidPerUnit(branch),
      feeToSlippageIsOne: branch.feeToSlippage === 1n,
    };
  }

  /**
   * unitDivisor / atMidToSlippage of the key's branch as a double when it is a whole number up to
   * 2^53 (the slippage scale is the fee's, finer than base × mid's: it is a power of ten), else 0.
   */
  private paidPerUnit(branch: Branch): number {
    const { unitDivisor, atMidToSlippage } = branch;
    const whole = unitDivisor % atMidToSlippage === 0n ? unitDivisor / atMidToSlippage : 0n;
    return whole > 0n && whole <= BigInt(SAFE) ? Number(whole) : 0;
  }

  /** The linear impact at offScale per unit of value at the mid, exact. */
  private impactPerValue(midScale: number): bigint {
    return this.fills.impactPerNotional * this.fills.plan(midScale).linearToOff;
  }

  private planFor(midScale: number): FastPlan {
    const plan = this.fills.plan(midScale);
    const perNotional = this.fills.impactPerNotional;
    const slope = Number(perNotional * plan.linearToCommon);
    const impact = Number(perNotional * plan.linearToOff);
    return {
      usable: perNotional >= 0n && Number.isFinite(slope) && Number.isFinite(impact),
      slope,
      cap: Number(plan.capInCommon),
      linearAtZero: 0n < plan.capInCommon,
      impact,
      linear: fastBranch(plan.linear),
      capped: fastBranch(plan.cap),
    };
  }
}

function fastBranch(branch: Branch): FastBranch {
  return {
    buyFactor: Number(branch.buyFactor),
    sellFactor: Number(branch.sellFactor),
    unitDivisor: branch.unitDivisorApprox,
    divided: branch.unitMultiplier === 1n,
  };
}

/** Slots a key: value at the mid, quote units, and the square's three parts; each for a buy and a sell. */
const SLOTS = 10;
/** Keys: mid scales up to 22 (decimalOfNumber's), two branches each. */
const KEYS = 46;

/**
 * The sums over a run's fast fills that make their fees and slippage, per mid scale and branch: a
 * fill's gross is value × (price factor ± value × impact), its fee gross × fee bps, its slippage
 * ±(quote units × unitDivisor − value × atMidToSlippage) − fee × feeToSlippage, all in the branch's
 * scales.
 */
export class FastFillSums {
  private readonly counts = new Int32Array(KEYS);
  private readonly sums = new Float64Array(KEYS * SLOTS);
  /** What each sum carried past 2^53 (null until one does). */
  private carries: bigint[] | null = null;

  constructor(private readonly fills: RfqFills) {}

  /** A fill of `key` (RfqFastQuotes.key) quoted fast. */
  add(key: number, sell: boolean, atMid: number, quoteUnits: number): void {
    const at = key * SLOTS + (sell ? 1 : 0);
    this.counts[key] = this.counts[key]! + 1;
    const hi = Math.floor(atMid / HALF);
    const lo = atMid - hi * HALF;
    this.plus(at, atMid);
    this.plus(at + 2, quoteUnits);
    this.plus(at + 4, hi * hi);
    this.plus(at + 6, 2 * hi * lo);
    this.plus(at + 8, lo * lo);
  }

  /** The fast fills' fees and slippage added to `fees` and `slippage`, key by key. */
  addTo(fees: ExactSum, slippage: ExactSum): void {
    for (let key = 0; key < KEYS; key += 1) {
      if (this.counts[key] === 0) continue;
      const fill = this.of(key);
      fees.add(fill.fee);
      slippage.add(fill.slippage);
    }
  }

  private of(key: number): { fee: Exact; slippage: Exact } {
    const plan = this.fills.plan(key >> 1);
    const linear = (key & 1) === 1;
    const branch = linear ? plan.linear : plan.cap;
    const at = key * SLOTS;
    const value = (slot: number) => this.total(at + slot * 2);
    const sellValue = (slot: number) => this.total(at + slot * 2 + 1);
    let gross = branch.buyFactor * value(0) + branch.sellFactor * sellValue(0);
    if (linear) {
      const square = (get: (slot: number) => bigint) => (get(2) << 52n) + (get(3) << 26n) + get(4);
      gross += this.fills.impactPerNotional * plan.linearToOff * (square(value) - square(sellValue));
    }
    const paid = branch.unitDivisor * (value(1) - sellValue(1));
    return feeAndSlippageOf(branch, this.fills.feeBps, false, gross, paid, value(0) - sellValue(0));
  }

  private plus(at: number, x: number): void {
    const { sums } = this;
    const sum = sums[at]! + x;
    if (sum <= SAFE) sums[at] = sum;
    else {
      const carries = (this.carries ??= new Array<bigint>(KEYS * SLOTS).fill(0n));
      carries[at] = carries[at]! + BigInt(sums[at]!);
      sums[at] = x;
    }
  }

  private total(at: number): bigint {
    return (this.carries?.[at] ?? 0n) + BigInt(this.sums[at]!);
  }
}

/** A runtime's fast fills: the mid of a close as doubles, its quote, and the sums of those it made. */
export class FastFills {
  readonly sums: FastFillSums;
  /** The last quote's mid n and scale, value at the mid, and key (RfqFastQuotes.key). */
  midN = 0;
  midScale = 0;
  atMid = 0;
  key = 0;
  private readonly parts = new Float64Array(2);

  constructor(readonly quotes: RfqFastQuotes) {
    this.sums = new FastFillSums(quotes.fills);
  }

  /** The quote units of `baseAmount` at the decimal of `close`; −1 when they need bigints. */
  quote(sell: boolean, baseAmount: bigint, close: number): number {
    const { parts } = this;
    if (!decimalOfNumber(close, parts)) return -1;
    // Past 2^53 base units the product is past MAX_AT_MID (mid n ≥ 1), which quoteUnits refuses.
    const atMid = Number(baseAmount) * parts[0]!;
    const units = this.quotes.quoteUnits(sell, atMid, parts[1]!);
    if (units > 0) {
      this.midN = parts[0]!;
      this.midScale = parts[1]!;
      this.atMid = atMid;
      this.key = this.quotes.key;
    }
    return units;
  }

  /** The fill last quoted was made: its fee and slippage into the sums. */
  commit(sell: boolean, quoteUnits: number): void {
    this.sums.add(this.key, sell, this.atMid, quoteUnits);
  }
}
