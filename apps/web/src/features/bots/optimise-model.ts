import type { TBot, TOptimizeTrial } from '@solterm/contracts';
import type { StrategyInfo } from './bots-api';

/** A parameter's range on the Optimise tab (text, as typed). */
export interface RangeRow {
  name: string;
  label: string;
  min: string;
  max: string;
  step: string;
  integer: boolean;
}

/**
 * The tab's starting ranges: a built-in's declared parameters (its default to twice it, within its
 * declared range), or a code bot's own `parameters` (its value to twice it).
 */
export function rangeRowsOf(bot: TBot | undefined, strategies: readonly StrategyInfo[]): RangeRow[] {
  if (!bot) return [];
  const builtIn =
    bot.config.code.trim() === '' ? strategies.find((s) => s.type === bot.strategy_type) : undefined;
  if (builtIn) {
    return builtIn.parameters.map((spec) => {
      const max = Math.min(spec.max, spec.default * 2);
      const step = spec.integer
        ? Math.max(1, Math.round((max - spec.default) / 4))
        : (max - spec.default) / 4 || 1;
      return {
        name: spec.name,
        label: spec.label,
        min: String(spec.default),
        max: String(max),
        step: String(Number(step.toPrecision(6))),
        integer: spec.integer,
      };
    });
  }
  return Object.entries(bot.config.parameters ?? {})
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    .map(([name, value]) => ({
      name,
      label: name,
      min: String(value),
      max: String(value * 2 || 1),
      step: String(Math.max(1, Math.round(Math.abs(value) / 4))),
      integer: Number.isInteger(value),
    }));
}

/** The ranges as the request sends them (rows left blank are not varied). */
export function rangesOf(
  rows: readonly RangeRow[],
): Record<string, { min: number; max: number; step: number }> {
  const ranges: Record<string, { min: number; max: number; step: number }> = {};
  for (const row of rows) {
    if (row.min.trim() === '' || row.max.trim() === '' || row.step.trim() === '') continue;
    ranges[row.name] = { min: Number(row.min), max: Number(row.max), step: Number(row.step) };
  }
  return ranges;
}

/** Points a grid of these ranges holds (NaN when a range is not a number). */
export function gridSize(ranges: Record<string, { min: number; max: number; step: number }>): number {
  return Object.values(ranges).reduce(
    (total, range) => total * (Math.floor((range.max - range.min) / range.step + 1e-9) + 1),
    1,
  );
}

export type TrialSortKey = 'index' | 'in_sample_objective' | 'out_of_sample_objective';

/** Trials sorted by a column (failed trials last), descending or ascending. */
export function sortTrials(
  trials: readonly TOptimizeTrial[],
  key: TrialSortKey,
  descending: boolean,
): TOptimizeTrial[] {
  return [...trials].sort((a, b) => {
    const left = a[key];
    const right = b[key];
    if (left === null && right === null) return a.index - b.index;
    if (left === null) return 1;
    if (right === null) return -1;
    return descending ? right - left : left - right;
  });
}

/** The scatter's points: each successful trial at (in-sample, out-of-sample), and the axes' bounds. */
export function scatterOf(trials: readonly TOptimizeTrial[]) {
  const points = trials
    .filter((trial) => trial.in_sample_objective !== null && trial.out_of_sample_objective !== null)
    .map((trial) => ({
      index: trial.index,
      x: trial.in_sample_objective!,
      y: trial.out_of_sample_objective!,
    }));
  const values = points.flatMap((point) => [point.x, point.y]);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const pad = (high - low) * 0.05 || 1;
  return { points, low: low - pad, high: high + pad };
}

/** "short_window 5 · long_window 30". */
export function parametersText(parameters: Record<string, number>): string {
  return Object.entries(parameters)
    .map(([name, value]) => `${name} ${value}`)
    .join(' · ');
}
