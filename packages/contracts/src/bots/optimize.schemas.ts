import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../errors/messages';
import { ZBacktestRequestSchema } from './bots.schemas';

// The parameter optimiser (POST /api/bots/optimize): trials of parameter sets, each backtested on
// walk-forward folds (in-sample, then out-of-sample), ranked by the out-of-sample objective.

/** Objectives a trial is ranked by (each a figure of the backtest result). */
export const OPTIMIZE_OBJECTIVES = ['sharpe', 'sortino', 'calmar', 'total_return', 'profit_factor'] as const;
export type TOptimizeObjective = (typeof OPTIMIZE_OBJECTIVES)[number];
export const OPTIMIZE_METHODS = ['grid', 'random'] as const;

/** Trials one optimisation may run at most. */
export const MAX_OPTIMIZE_TRIALS = 500;
/** Parameters one optimisation may vary. */
export const MAX_OPTIMIZE_PARAMETERS = 8;
/**
 * Candles one optimisation may backtest in all (trials × the range's candles: each trial's folds cover
 * the range once): 500 trials of ~20,000 candles, or 200 trials of a year of 30-minute candles.
 */
export const MAX_OPTIMIZE_CANDLE_RUNS = 10_000_000;
/** Optimisations one user may have queued or running at once. */
export const MAX_OPTIMIZATIONS_PER_USER = 1;
/**
 * The overfitting rule: the best set is flagged when its mean in-sample objective is positive and its
 * mean out-of-sample objective is below this share of it (or not positive).
 */
export const OVERFIT_OUT_OF_SAMPLE_SHARE = 0.5;

const ZRangeSchema = z
  .object({
    min: z.number({ message: 'min must be a number' }).finite(),
    max: z.number({ message: 'max must be a number' }).finite(),
    step: z.number({ message: 'step must be a positive number' }).finite().positive({
      message: 'step must be a positive number',
    }),
  })
  .strict()
  .refine((range) => range.min <= range.max, { message: 'min must not exceed max', path: ['max'] })
  .refine((range) => (range.max - range.min) / range.step <= 10_000, {
    message: 'A range may hold at most 10,001 values',
    path: ['step'],
  });

/** POST /bots/optimize. */
export const ZOptimizeRequestSchema = z
  .object({
    bot_id: ZBacktestRequestSchema.shape.bot_id,
    start_date: ZBacktestRequestSchema.shape.start_date,
    end_date: ZBacktestRequestSchema.shape.end_date,
    initial_balance: ZBacktestRequestSchema.shape.initial_balance,
    parameters: z
      .record(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, { message: 'Invalid parameter name' }),
        ZRangeSchema,
      )
      .refine((ranges) => Object.keys(ranges).length >= 1, { message: 'Give at least one parameter range' })
      .refine((ranges) => Object.keys(ranges).length <= MAX_OPTIMIZE_PARAMETERS, {
        message: `At most ${MAX_OPTIMIZE_PARAMETERS} parameters`,
      }),
    objective: z.enum(OPTIMIZE_OBJECTIVES, {
      message: `objective must be one of ${OPTIMIZE_OBJECTIVES.join(', ')}`,
    }),
    method: z.enum(OPTIMIZE_METHODS, { message: 'method must be grid or random' }).default('grid'),
    max_trials: z
      .number({ message: `max_trials must be a whole number from 1 to ${MAX_OPTIMIZE_TRIALS}` })
      .int({ message: `max_trials must be a whole number from 1 to ${MAX_OPTIMIZE_TRIALS}` })
      .min(1, { message: `max_trials must be a whole number from 1 to ${MAX_OPTIMIZE_TRIALS}` })
      .max(MAX_OPTIMIZE_TRIALS, {
        message: `max_trials must be a whole number from 1 to ${MAX_OPTIMIZE_TRIALS}`,
      }),
    walk_forward: z
      .object({
        folds: z
          .number({ message: 'folds must be a whole number from 2 to 10' })
          .int({ message: 'folds must be a whole number from 2 to 10' })
          .min(2, { message: 'folds must be a whole number from 2 to 10' })
          .max(10, { message: 'folds must be a whole number from 2 to 10' }),
        train_fraction: z
          .number({ message: 'train_fraction must be from 0.5 to 0.9' })
          .min(0.5, { message: 'train_fraction must be from 0.5 to 0.9' })
          .max(0.9, { message: 'train_fraction must be from 0.5 to 0.9' }),
      })
      .strict(),
    /** How every trial's fills are priced, as in POST /bots/backtest (default: the venue's). */
    costs: ZBacktestRequestSchema.shape.costs,
    /** Seed of the random method's draws and of the strategy's randomness (default: the bot's). */
    seed: z.number().int().min(0).max(0xffffffff).optional(),
  })
  .strict()
  .refine((value) => Date.parse(value.start_date) < Date.parse(value.end_date), {
    message: VALIDATION_MESSAGES.startBeforeEnd,
    path: ['end_date'],
  });
export type TOptimizeRequest = z.input<typeof ZOptimizeRequestSchema>;

/** A backtest's figures the optimiser keeps per window (ratios and percent, as the backtest result). */
export const ZOptimizeMetricsSchema = z.object({
  total_return: z.number(),
  sharpe_ratio: z.number(),
  sortino_ratio: z.number(),
  calmar_ratio: z.number(),
  profit_factor: z.number().nullable(),
  max_drawdown: z.number(),
  win_rate: z.number(),
  total_trades: z.number().int(),
  candles: z.number().int(),
});
export type TOptimizeMetrics = z.infer<typeof ZOptimizeMetricsSchema>;

const ZWindowSchema = z.object({ start: z.string(), end: z.string(), candles: z.number().int() });

/** One walk-forward fold of a trial: trained (in-sample) on `train`, tested (out-of-sample) on `test`. */
export const ZOptimizeFoldSchema = z.object({
  train: ZWindowSchema,
  test: ZWindowSchema,
  in_sample: ZOptimizeMetricsSchema,
  out_of_sample: ZOptimizeMetricsSchema,
});

export const ZOptimizeTrialSchema = z.object({
  index: z.number().int(),
  parameters: z.record(z.string(), z.number()),
  folds: z.array(ZOptimizeFoldSchema),
  /** The objective averaged over the folds, in-sample and out-of-sample (null: the trial failed). */
  in_sample_objective: z.number().nullable(),
  out_of_sample_objective: z.number().nullable(),
  /** Why the trial failed (invalid parameters for the strategy, its time limit…), else null. */
  error: z.string().nullable(),
});
export type TOptimizeTrial = z.infer<typeof ZOptimizeTrialSchema>;

export const OPTIMIZATION_STATES = ['queued', 'running', 'completed', 'cancelled', 'failed'] as const;

/** GET /bots/optimize/{id}. */
export const ZOptimizationSchema = z.object({
  optimization_id: z.string(),
  bot_id: z.string(),
  state: z.enum(OPTIMIZATION_STATES),
  objective: z.enum(OPTIMIZE_OBJECTIVES),
  method: z.enum(OPTIMIZE_METHODS),
  folds: z.number().int(),
  train_fraction: z.number(),
  seed: z.number().int(),
  trials_total: z.number().int(),
  trials_done: z.number().int(),
  trials: z.array(ZOptimizeTrialSchema),
  /** The trial with the highest out-of-sample objective (null until one succeeded). */
  best: z
    .object({
      index: z.number().int(),
      parameters: z.record(z.string(), z.number()),
      in_sample_objective: z.number(),
      out_of_sample_objective: z.number(),
    })
    .nullable(),
  /** Set when the best set's in-sample objective beats its out-of-sample one by a wide margin. */
  overfitting_warning: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TOptimization = z.infer<typeof ZOptimizationSchema>;

export const ZOptimizeIdParamsSchema = z.object({
  id: z.string().uuid({ message: 'No such optimisation of yours' }),
});

/** The `optimization_progress` push: where one of the user's optimisations is. */
export const ZOptimizationProgressSchema = z.object({
  optimization_id: z.string(),
  bot_id: z.string(),
  state: z.enum(OPTIMIZATION_STATES),
  /** Backtests (anyone's) that will start before its next trial, the running one included. */
  queue_ahead: z.number().int(),
  trials_done: z.number().int(),
  trials_total: z.number().int(),
  progress_percentage: z.number(),
});
export type TOptimizationProgress = z.infer<typeof ZOptimizationProgressSchema>;
