import {
  OVERFIT_OUT_OF_SAMPLE_SHARE,
  type TOptimization,
  type TOptimizeMetrics,
  type TOptimizeObjective,
  type TOptimizeTrial,
} from '@solterm/contracts';
import { seededRandom, type ParameterSpec } from '@solterm/engine';
import { AppError } from '../../../lib/app-error';

/** A parameter's range as the request gives it. */
export interface ParameterRange {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

/** One set of parameters a trial backtests. */
export type ParameterSet = Readonly<Record<string, number>>;

/** min, min + step, … up to max (to 12 significant digits, so 0.1 steps stay 0.1, 0.2, 0.3…). */
function valuesOf(name: string, range: ParameterRange, spec: ParameterSpec | undefined): number[] {
  const count = Math.floor((range.max - range.min) / range.step + 1e-9) + 1;
  const values: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const value = Number((range.min + i * range.step).toPrecision(12));
    if (spec?.integer && !Number.isInteger(value)) {
      throw new AppError(
        'OPTIMIZE__INVALID_RANGES',
        `${name} takes whole numbers: give a whole min and step (${value} is not one)`,
      );
    }
    values.push(value);
  }
  return values;
}

/**
 * The values each parameter takes, checked against the strategy's declared parameters when it has
 * them (a built-in: only its parameters, within their ranges; user code declares none here, any name).
 */
export function parameterAxes(
  ranges: Readonly<Record<string, ParameterRange>>,
  declared: Readonly<Record<string, ParameterSpec>> | null,
): Array<{ name: string; values: number[] }> {
  return Object.entries(ranges)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, range]) => {
      const spec = declared?.[name];
      if (declared && !spec) {
        const known = Object.keys(declared).join(', ') || 'none';
        throw new AppError(
          'OPTIMIZE__INVALID_RANGES',
          `${name} is not a parameter of this strategy (it has: ${known})`,
        );
      }
      if (spec && (range.min < spec.min || range.max > spec.max)) {
        throw new AppError(
          'OPTIMIZE__INVALID_RANGES',
          `${name} must stay within ${spec.min} to ${spec.max} (asked ${range.min} to ${range.max})`,
        );
      }
      return { name, values: valuesOf(name, range, spec) };
    });
}

/**
 * The parameter sets to try. Grid: every point of the axes (refused when there are more than
 * `maxTrials`), in order (the first axis, by name, slowest). Random: `maxTrials` distinct points (or
 * every point, when there are fewer) drawn with `seed`: the same seed draws the same sets.
 */
export function parameterSets(
  axes: ReadonlyArray<{ name: string; values: readonly number[] }>,
  method: 'grid' | 'random',
  maxTrials: number,
  seed: number,
): ParameterSet[] {
  const points = axes.reduce((total, axis) => total * axis.values.length, 1);
  if (method === 'grid' && points > maxTrials) {
    throw new AppError(
      'OPTIMIZE__TOO_MUCH_WORK',
      `The grid holds ${points.toLocaleString('en-US')} points, more than max_trials (${maxTrials}): widen the steps, narrow the ranges or use the random method`,
    );
  }
  const setOf = (indices: readonly number[]) =>
    Object.fromEntries(axes.map((axis, at) => [axis.name, axis.values[indices[at]!]!]));
  if (method === 'grid' || points <= maxTrials) {
    const sets: ParameterSet[] = [];
    const indices = axes.map(() => 0);
    for (let n = 0; n < points; n += 1) {
      sets.push(setOf(indices));
      for (let at = axes.length - 1; at >= 0; at -= 1) {
        indices[at]! += 1;
        if (indices[at]! < axes[at]!.values.length) break;
        indices[at] = 0;
      }
    }
    return sets;
  }
  const random = seededRandom(seed);
  const seen = new Set<string>();
  const sets: ParameterSet[] = [];
  // Distinct draws: with more points than trials, a repeat is rare; the attempts are bounded anyway.
  for (let attempt = 0; sets.length < maxTrials && attempt < maxTrials * 50; attempt += 1) {
    const indices = axes.map((axis) => Math.floor(random() * axis.values.length));
    const key = indices.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    sets.push(setOf(indices));
  }
  return sets;
}

/** A window's objective: the figure it names (a profit factor without losses or trades counts 0). */
export function objectiveOf(metrics: TOptimizeMetrics, objective: TOptimizeObjective): number {
  switch (objective) {
    case 'sharpe':
      return metrics.sharpe_ratio;
    case 'sortino':
      return metrics.sortino_ratio;
    case 'calmar':
      return metrics.calmar_ratio;
    case 'total_return':
      return metrics.total_return;
    case 'profit_factor':
      return metrics.profit_factor ?? 0;
  }
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const rounded = (value: number) => Number(value.toFixed(6));

/** A trial's objective averaged over its folds, in-sample and out-of-sample. */
export function trialObjectives(
  folds: TOptimizeTrial['folds'],
  objective: TOptimizeObjective,
): { in_sample_objective: number; out_of_sample_objective: number } {
  return {
    in_sample_objective: rounded(mean(folds.map((fold) => objectiveOf(fold.in_sample, objective)))),
    out_of_sample_objective: rounded(mean(folds.map((fold) => objectiveOf(fold.out_of_sample, objective)))),
  };
}

/**
 * The best trial by its out-of-sample objective (the first of equals), and the overfitting warning:
 * the best set's mean in-sample objective is positive and its mean out-of-sample objective is below
 * OVERFIT_OUT_OF_SAMPLE_SHARE (half) of it.
 */
export function bestOf(
  trials: readonly TOptimizeTrial[],
  objective: TOptimizeObjective,
): Pick<TOptimization, 'best' | 'overfitting_warning'> {
  let best: TOptimizeTrial | undefined;
  for (const trial of trials) {
    if (trial.out_of_sample_objective === null || trial.in_sample_objective === null) continue;
    if (!best || trial.out_of_sample_objective > best.out_of_sample_objective!) best = trial;
  }
  if (!best) return { best: null, overfitting_warning: null };
  const inSample = best.in_sample_objective!;
  const outOfSample = best.out_of_sample_objective!;
  const overfit = inSample > 0 && outOfSample < inSample * OVERFIT_OUT_OF_SAMPLE_SHARE;
  return {
    best: {
      index: best.index,
      parameters: best.parameters,
      in_sample_objective: inSample,
      out_of_sample_objective: outOfSample,
    },
    overfitting_warning: overfit
      ? `Likely overfitted: the best set's in-sample ${objective} (${inSample}) is more than twice its out-of-sample ${objective} (${outOfSample}). Expect live results nearer the out-of-sample figure.`
      : null,
  };
}
