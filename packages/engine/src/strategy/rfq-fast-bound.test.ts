import { describe, expect, it } from 'vitest';
import { Dec } from '../money/decimal';
import { exactOf } from '../money/exact';
import { pricingModel, type RfqMarket } from '../spot/rfq-pricing';
import { RfqFastQuotes } from './rfq-fast';
import { RfqFills } from './rfq-fills';
import { seededRandom } from './random';

// RfqFastQuotes' error bound (rfq-fast.ts' header) where it is tight: factors, totals and divisors
// that are not exact as doubles (15-digit spreads and fees, spreads around and past 5,000 bps, 18
// decimals), exact fractions a hair inside and outside MARGIN from a whole number, and ratios at the
// 2^30 guard. Where the doubles answer, the quote units, fee and slippage are RfqFills.priced's
// (the bigints, held to quoteRfqExact by rfq-fills.test.ts); where the bound says they must refuse,
// they do.

const MAX_RATIO = 2 ** 30;
const MARGIN = 1e-5;
/** The ratio's error below MAX_RATIO, 9u × 2^30 (rfq-fast.ts). */
const ERROR = 9 * 2 ** -53 * MAX_RATIO;

const spreads = [
  0, 1.23456789012345, 123.456789012345, 4999.12345678901, 4999.99999999999, 5000, 5000.5, 7500.25, 9999.999,
];
const fees = [0, 0.75, 0.123456789012345, 33.3333333333333, 9999.99999];
const rates = [0, 0.000123456789, 2.5, 1000];
const caps = [0, 0.5, 1234.56789012345];
const usds = ['0', '1', '1.00031234567891', '0.000001234567'];
const decimals = [0, 6, 9, 18];

type Pick = <T>(list: readonly T[]) => T;

function marketOf(pick: Pick, impact: boolean): RfqMarket | null {
  const halfSpreadBps = pick(spreads);
  const maxImpactBps = pick(caps);
  if (halfSpreadBps + maxImpactBps >= 10_000) return null;
  const pricing = {
    halfSpreadBps,
    venueFeeBps: pick(fees),
    impactBpsPerUsd10k: impact ? pick(rates) : 0,
    maxImpactBps,
  };
  return {
    baseDecimals: pick(decimals),
    quoteDecimals: pick(decimals),
    quoteUsdPrice: exactOf(new Dec(pick(usds))),
    model: pricingModel(pricing),
  };
}

/** R = total / unitDivisor of a fill, exactly: its whole part and remainder (RfqFills.priced's). */
function exactRatio(fills: RfqFills, sell: boolean, atMid: bigint, midScale: number) {
  const plan = fills.plan(midScale);
  const linearValue = atMid * fills.impactPerNotional;
  const linear = linearValue * plan.linearToCommon < plan.capInCommon;
  const branch = linear ? plan.linear : plan.cap;
  let factor = sell ? branch.sellFactor : branch.buyFactor;
  if (linear) factor += (sell ? -1n : 1n) * linearValue * plan.linearToOff;
  const total = atMid * factor * (sell ? fills.sellTotal : fills.buyTotal);
  const d = branch.unitDivisor;
  return { divided: branch.unitMultiplier === 1n, whole: total / d, remainder: total % d, d };
}

/** The fraction of R, as a double (within 1e-15 of it). */
const fractionOf = (r: { remainder: bigint; d: bigint }) => Number((r.remainder * 10n ** 18n) / r.d) / 1e18;

const text = (x: { n: bigint; scale: number }) => `${x.n}e-${x.scale}`;

/** Quotes a fill fast; where answered, expects RfqFills.priced's units, fee and slippage. */
function checked(quotes: RfqFastQuotes, sell: boolean, atMid: number, midScale: number): number {
  const units = quotes.quoteUnits(sell, atMid, midScale);
  if (units < 0) return units;
  const priced = quotes.fills.priced(sell ? 'Sell' : 'Buy', BigInt(atMid), { n: 1n, scale: midScale });
  expect(BigInt(units)).toBe(priced.quoteAmount);
  const { fee, slippage } = quotes.feeAndSlippage(quotes.key, sell, atMid, units);
  expect(text(fee)).toBe(text(priced.fee));
  expect(text(slippage)).toBe(text(priced.slippage));
  return units;
}

/** The branch a market without impact takes: the linear one (of no impact) when the cap is above 0. */
function branchWithoutImpact(fills: RfqFills, midScale: number) {
  const plan = fills.plan(midScale);
  return plan.capInCommon > 0n ? plan.linear : plan.cap;
}

const inexact = (x: bigint) => BigInt(Number(x)) !== x;

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** x^-1 mod m (gcd(x, m) = 1). */
function inverse(x: bigint, m: bigint): bigint {
  let [r0, r1, s0, s1] = [x % m, m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

describe('RfqFastQuotes at its error bound', () => {
  it('quotes what the bigints do with factors, totals and divisors inexact as doubles', () => {
    const random = seededRandom(7);
    const pick: Pick = (list) => list[Math.floor(random() * list.length)]!;
    let answered = 0;
    let wideSells = 0;
    let inexactDivisor = 0;
    for (let m = 0; m < 150; m += 1) {
      const market = marketOf(pick, true);
      if (market === null) continue;
      const fills = new RfqFills(market);
      const quotes = new RfqFastQuotes(fills);
      const midScale = Math.floor(random() * 23);
      const plan = fills.plan(midScale);
      for (const sell of [false, true])
        for (const branch of [plan.linear, plan.cap]) {
          const factor = sell ? branch.sellFactor : branch.buyFactor;
          const perUnit = factor * (sell ? fills.sellTotal : fills.buyTotal);
          if (perUnit <= 0n || branch.unitMultiplier !== 1n) continue;
          for (const exponent of [29.999, 29, 20, 5]) {
            const target = Number((BigInt(Math.floor(2 ** exponent)) * branch.unitDivisor) / perUnit);
            for (let t = 0; t < 40; t += 1) {
              const atMid = Math.floor(target * (1 + (random() - 0.5) * 1e-3)) + t;
              if (!(atMid >= 1 && atMid < 2 ** 52)) continue;
              if (checked(quotes, sell, atMid, midScale) < 0) continue;
              answered += 1;
              if (
                sell &&
                market.model.halfSpreadBps.n > 5000n * 10n ** BigInt(market.model.halfSpreadBps.scale)
              )
                wideSells += 1;
              if (branch.unitDivisor > 10n ** 22n) inexactDivisor += 1;
            }
          }
        }
    }
    expect(answered).toBeGreaterThan(5000);
    // Sells past a 5,000 bps spread (their factor below half its 10,000 bps), and divisors past 10^22
    // (inexact as doubles), are quoted too.
    expect(wideSells).toBeGreaterThan(200);
    expect(inexactDivisor).toBeGreaterThan(1000);
  });

  it('quotes fractions a hair outside MARGIN from a whole number exactly, and refuses those inside by more than the error', () => {
    const random = seededRandom(11);
    const pick: Pick = (list) => list[Math.floor(random() * list.length)]!;
    // 1e-5 ± 1e-6 and 1 − 1e-5 ± 1e-6 (the bound, 1.07e-6, allows either answer there, if right);
    // past the error inside the band (± 2e-6, and a hair from whole), a refusal.
    const targets = [
      { fraction: 1e-7, refused: true },
      { fraction: MARGIN - 2e-6, refused: true },
      { fraction: MARGIN - 1e-6, refused: false },
      { fraction: MARGIN + 1e-6, refused: false },
      { fraction: 1 - MARGIN - 1e-6, refused: false },
      { fraction: 1 - MARGIN + 1e-6, refused: false },
      { fraction: 1 - MARGIN + 2e-6, refused: true },
      { fraction: 1 - 1e-7, refused: true },
    ];
    expect(MARGIN - 2e-6 + ERROR).toBeLessThan(MARGIN);
    const counts = { refused: 0, answered: 0, inexact: 0 };
    for (let m = 0; m < 1000; m += 1) {
      // No impact: R = A × M / D with M constant, so a fraction r / D' is reached by solving
      // A × M' ≡ r (mod D'), with M' and D' those of M / D in lowest terms.
      const market = marketOf(pick, false);
      if (market === null) continue;
      const fills = new RfqFills(market);
      const quotes = new RfqFastQuotes(fills);
      const midScale = Math.floor(random() * 23);
      const branch = branchWithoutImpact(fills, midScale);
      if (branch.unitMultiplier !== 1n) continue;
      const d = branch.unitDivisor;
      for (const sell of [false, true]) {
        const factor = sell ? branch.sellFactor : branch.buyFactor;
        const total = sell ? fills.sellTotal : fills.buyTotal;
        const perUnit = factor * total;
        if (perUnit <= 0n) continue;
        const g = gcd(perUnit, d);
        const [mReduced, dReduced] = [perUnit / g, d / g];
        if (dReduced < 10n ** 8n) continue;
        const inv = inverse(mReduced, dReduced);
        for (const { fraction, refused } of targets) {
          const first = (BigInt(Math.round(fraction * Number(dReduced))) * inv) % dReduced;
          // The same fraction at ratios up to ~2^10, ~2^20 and ~2^30 (the guard).
          for (const ratio of [2n ** 10n, 2n ** 20n, BigInt(MAX_RATIO)]) {
            const steps = ((ratio * d) / perUnit - first) / dReduced;
            const atMid = first + (steps > 0n ? steps : 0n) * dReduced;
            if (atMid < 1n || atMid >= 2n ** 52n) continue;
            const exact = exactRatio(fills, sell, atMid, midScale);
            if (exact.whole < 1n || exact.whole >= BigInt(MAX_RATIO)) continue;
            expect(Math.abs(fractionOf(exact) - fraction)).toBeLessThan(1e-7);
            const units = checked(quotes, sell, Number(atMid), midScale);
            if (refused) expect(units).toBe(-1);
            counts[units < 0 ? 'refused' : 'answered'] += 1;
            if (units >= 0 && (inexact(d) || inexact(factor) || inexact(total))) counts.inexact += 1;
          }
        }
      }
    }
    expect(counts.refused).toBeGreaterThan(200);
    expect(counts.answered).toBeGreaterThan(150);
    expect(counts.inexact).toBeGreaterThan(20);
  });

  it('refuses ratios at and past 2^30, and quotes those just below exactly', () => {
    const random = seededRandom(13);
    const pick: Pick = (list) => list[Math.floor(random() * list.length)]!;
    let below = 0;
    for (let m = 0; m < 300; m += 1) {
      const market = marketOf(pick, false);
      if (market === null) continue;
      const fills = new RfqFills(market);
      const quotes = new RfqFastQuotes(fills);
      const midScale = Math.floor(random() * 23);
      const branch = branchWithoutImpact(fills, midScale);
      if (branch.unitMultiplier !== 1n) continue;
      for (const sell of [false, true]) {
        const perUnit =
          (sell ? branch.sellFactor : branch.buyFactor) * (sell ? fills.sellTotal : fills.buyTotal);
        if (perUnit <= 0n) continue;
        const atGuard = (BigInt(MAX_RATIO) * branch.unitDivisor) / perUnit;
        for (let k = -40n; k <= 40n; k += 1n) {
          const atMid = atGuard + k;
          if (atMid < 1n || atMid >= 2n ** 52n) continue;
          const exact = exactRatio(fills, sell, atMid, midScale);
          const units = checked(quotes, sell, Number(atMid), midScale);
          if (exact.whole >= BigInt(MAX_RATIO)) expect(units).toBe(-1);
          else if (units >= 0) below += 1;
        }
      }
    }
    expect(below).toBeGreaterThan(100);
  });
});
