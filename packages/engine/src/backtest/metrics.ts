import { Dec, fromBaseUnits } from '../money/decimal';

/** The spec's backtest metrics plus Sortino, Calmar, profit factor, expectancy, exposure and fees. */
export interface Performance {
  readonly initialBalance: Dec;
  readonly finalBalance: Dec;
  /** Percent. */
  readonly totalReturn: Dec;
  /** Closed lots (round trips). */
  readonly totalTrades: number;
  readonly winningTrades: number;
  readonly losingTrades: number;
  /** Percent of closed lots that made money. */
  readonly winRate: Dec;
  /** Largest fall from a running peak of the equity curve, percent (≥ 0). */
  readonly maxDrawdown: Dec;
  /** Annualised, from the equity curve's period returns (0 without variation). */
  readonly sharpeRatio: Dec;
  readonly sortinoRatio: Dec;
  /** Annualised return over max drawdown (0 without a drawdown). */
  readonly calmarRatio: Dec;
  /** Gross profit over gross loss of closed lots; null when nothing was lost. */
  readonly profitFactor: Dec | null;
  /** Mean PnL per closed lot, whole quote tokens. */
  readonly expectancy: Dec;
  /** Percent of candles with a lot open. */
  readonly exposure: Dec;
  /** Venue fees paid, whole quote tokens. */
  readonly feesPaid: Dec;
}

const SECONDS_PER_YEAR = 365 * 86_400;
const ZERO = new Dec(0);

/** An equity curve as the metrics read it: each point's double, and a point's time and decimal. */
export interface CurveReading {
  /** Each point's equity as a double (its decimal's toNumber). */
  readonly values: readonly number[];
  timeAt(i: number): number;
  decimalAt(i: number): Dec;
}

/** The fills' PnL as the metrics read it: null for a buy, proceeds − cost for a sell. */
export interface FillPnls {
  readonly length: number;
  pnlAt(i: number): bigint | null;
}

export function performanceOf(input: {
  initial: Dec;
  final: Dec;
  curve: CurveReading;
  fills: FillPnls;
  quoteDecimals: number;
  periodSeconds: number;
  exposure: Dec;
  fees: Dec;
}): Performance {
  // No loop here: a function a run calls once, with no loop, never gets hot enough for V8's
  // optimising compiler, whose compile of this one (decimal.js inlined) cost ~12 ms of CPU in a
  // run of its own. The loops are tradesOf's and the curve's, small to compile.
  const { initial, final, curve } = input;
  const { wins, losses, grossProfit, grossLoss, total } = tradesOf(input.fills);
  const trades = wins + losses;
  const quote = (units: bigint) => fromBaseUnits(units, input.quoteDecimals);
  const totalReturn = initial.isZero() ? ZERO : final.minus(initial).div(initial).times(100);
  const { values } = curve;
  const maxDrawdown = maxDrawdownOf(curve);
  const { sharpe, sortino } = riskAdjusted(values, input.periodSeconds);
  const span = values.length > 1 ? curve.timeAt(values.length - 1) - curve.timeAt(0) : 0;
  const annualReturn =
    span > 0 && initial.gt(0) && final.gt(0)
      ? final.div(initial).pow(new Dec(SECONDS_PER_YEAR).div(span)).minus(1).times(100)
      : ZERO;
  return {
    initialBalance: initial,
    finalBalance: final,
    totalReturn,
    totalTrades: trades,
    winningTrades: wins,
    losingTrades: losses,
    winRate: trades === 0 ? ZERO : new Dec(wins).div(trades).times(100),
    maxDrawdown,
    sharpeRatio: sharpe,
    sortinoRatio: sortino,
    calmarRatio: maxDrawdown.isZero() ? ZERO : annualReturn.div(maxDrawdown),
    profitFactor: grossLoss === 0n ? null : quote(grossProfit).div(quote(grossLoss)),
    expectancy: trades === 0 ? ZERO : quote(total).div(trades),
    exposure: input.exposure,
    feesPaid: input.fees,
  };
}

/** The closed lots' count of wins and losses, and the sums of their PnL (quote units). */
function tradesOf(fills: FillPnls): {
  wins: number;
  losses: number;
  grossProfit: bigint;
  grossLoss: bigint;
  total: bigint;
} {
  let wins = 0;
  let losses = 0;
  let grossProfit = 0n;
  let grossLoss = 0n;
  let total = 0n;
  for (let i = 0; i < fills.length; i += 1) {
    const pnl = fills.pnlAt(i);
    if (pnl === null) continue;
    total += pnl;
    if (pnl > 0n) {
      wins += 1;
      grossProfit += pnl;
    } else {
      losses += 1;
      grossLoss -= pnl;
    }
  }
  return { wins, losses, grossProfit, grossLoss, total };
}

/**
 * Largest fall from the running peak, in percent of the peak: the worst point is found on doubles
 * (each point's equity.toNumber()), its drawdown computed on the exact decimals.
 */
export function maxDrawdownOf(curve: Pick<CurveReading, 'values' | 'decimalAt'>): Dec {
  const { values } = curve;
  const bottom = worstBottom(values);
  if (bottom < 0) return ZERO;
  const high = curve.decimalAt(firstPeak(values, bottom));
  return high.minus(curve.decimalAt(bottom)).div(high).times(100);
}

// The two loops return as they end: code after a long loop, first run in a function compiled
// while in that loop (on-stack replacement), has no type feedback there yet, and V8 left it
// deoptimising there again on each call.

/** The point at the bottom of the largest fall from a running peak (relative), or −1 without one. */
function worstBottom(values: readonly number[]): number {
  let peak = -Infinity;
  let worst = 0;
  let bottom = -1;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i]!;
    if (value > peak) peak = value;
    if (peak > 0) {
      const drawdown = (peak - value) / peak;
      if (drawdown > worst) {
        worst = drawdown;
        bottom = i;
      }
    }
  }
  return bottom;
}

/** The first point of the highest value up to `bottom`: the running peak worstBottom fell from. */
function firstPeak(values: readonly number[], bottom: number): number {
  let peak = -Infinity;
  let top = -1;
  for (let i = 0; i <= bottom; i += 1) {
    if (values[i]! > peak) {
      peak = values[i]!;
      top = i;
    }
  }
  return top;
}

/**
 * Annualised Sharpe and Sortino ratios of the curve's period returns (risk-free rate 0), from each
 * point's equity as a double. Statistics, not money: computed on doubles and reported to 6 decimals.
 */
function riskAdjusted(values: readonly number[], periodSeconds: number): { sharpe: Dec; sortino: Dec } {
  // Plain loops adding in order (reduce's sums), no closures: a run made new ones for each call.
  const returns = new Float64Array(Math.max(0, values.length - 1));
  let n = 0;
  let previous = values[0] ?? 0;
  for (let i = 1; i < values.length; i += 1) {
    const value = values[i]!;
    if (previous > 0) returns[n++] = value / previous - 1;
    previous = value;
  }
  if (n < 2) return { sharpe: ZERO, sortino: ZERO };
  let sum = 0;
  for (let i = 0; i < n; i += 1) sum += returns[i]!;
  const mean = sum / n;
  let squares = 0;
  let downsideSquares = 0;
  for (let i = 0; i < n; i += 1) {
    const r = returns[i]!;
    squares += (r - mean) ** 2;
    if (r < 0) downsideSquares += r * r;
  }
  const variance = squares / (n - 1);
  const downside = downsideSquares / n;
  const annualise = Math.sqrt(SECONDS_PER_YEAR / periodSeconds);
  return {
    sharpe: variance > 0 ? ratioOf((mean / Math.sqrt(variance)) * annualise) : ZERO,
    sortino: downside > 0 ? ratioOf((mean / Math.sqrt(downside)) * annualise) : ZERO,
  };
}

/** A ratio reported to 6 decimals (0 when not finite). */
function ratioOf(x: number): Dec {
  return Number.isFinite(x) ? new Dec(x.toFixed(6)) : ZERO;
}
