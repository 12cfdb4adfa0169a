import { BACKTEST_DRAWDOWN_MIN_POINTS, type TBacktestResult } from '@solterm/contracts';

/** Most points the backtest chart draws; longer curves are thinned (part 2 §2 Backtest). */
export const MAX_CHART_POINTS = 600;

export interface ChartPoint {
  /** Unix seconds. */
  readonly time: number;
  readonly value: number;
}

export interface BacktestChartModel {
  /** Portfolio value (left axis). */
  readonly equity: readonly ChartPoint[];
  /** Fall from the running peak in percent, ≤ 0 (right axis); null with 2 points or fewer. */
  readonly drawdown: readonly ChartPoint[] | null;
  /** True when there was no curve: the chart shows Start and End from the initial and final balance. */
  readonly isStartEndOnly: boolean;
  /** Buy and hold over the same candles, at the same points as `equity` (null without a curve). */
  readonly benchmark: readonly ChartPoint[] | null;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * What the backtest chart draws (part 2 §2): the equity curve (thinned past {@link MAX_CHART_POINTS},
 * keeping the first, last and deepest-drawdown points), the drawdown from the running peak computed on
 * the whole curve and drawn only with more than 2 points, or Start and End points without a curve.
 *
 * @example backtestChartModel({ ...result, equity_curve: [] }).isStartEndOnly; // true
 */
export function backtestChartModel(
  result: Pick<
    TBacktestResult,
    'equity_curve' | 'initial_balance' | 'final_balance' | 'start_date' | 'end_date'
  > &
    Partial<Pick<TBacktestResult, 'benchmark'>>,
): BacktestChartModel {
  const curve = result.equity_curve;
  if (curve.length === 0) {
    const start = seconds(result.start_date);
    const end = Math.max(seconds(result.end_date), start + 1);
    return {
      equity: [
        { time: start, value: result.initial_balance },
        { time: end, value: result.final_balance },
      ],
      drawdown: null,
      isStartEndOnly: true,
      benchmark: null,
    };
  }
  let peak = -Infinity;
  let deepest = 0;
  const drawdowns = curve.map((point) => {
    peak = Math.max(peak, point.value);
    return peak > 0 ? ((point.value - peak) / peak) * 100 : 0;
  });
  drawdowns.forEach((value, index) => {
    if (value < drawdowns[deepest]!) deepest = index;
  });
  const keep = thinnedIndexes(curve.length, deepest);
  const equity = keep.map((i) => ({ time: seconds(curve[i]!.timestamp), value: curve[i]!.value }));
  const drawdown =
    curve.length >= BACKTEST_DRAWDOWN_MIN_POINTS
      ? keep.map((i, k) => ({ time: equity[k]!.time, value: round(drawdowns[i]!) }))
      : null;
  const held = result.benchmark?.equity_curve;
  const benchmark =
    held && held.length === curve.length
      ? dedupeTimes(keep.map((i, k) => ({ time: equity[k]!.time, value: held[i]!.value })))
      : null;
  return {
    equity: dedupeTimes(equity),
    drawdown: drawdown && dedupeTimes(drawdown),
    isStartEndOnly: false,
    benchmark,
  };
}

function thinnedIndexes(length: number, mustKeep: number): number[] {
  if (length <= MAX_CHART_POINTS) return Array.from({ length }, (_, i) => i);
  const stride = Math.ceil(length / (MAX_CHART_POINTS - 2));
  const indexes = new Set<number>([0, length - 1, mustKeep]);
  for (let i = 0; i < length; i += stride) indexes.add(i);
  return [...indexes].sort((a, b) => a - b);
}

/** The chart library needs strictly increasing times. */
function dedupeTimes(points: ChartPoint[]): ChartPoint[] {
  return points.filter((point, i) => i === 0 || point.time > points[i - 1]!.time);
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;
