import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { ZOptimizeRequestSchema } from '@solterm/contracts';
import {
  CHART_INTERVAL_SECONDS,
  MAX_BACKTEST_CANDLES,
  MAX_OPTIMIZE_CANDLE_RUNS,
  type TBotConfig,
  type TOptimization,
  type TOptimizationProgress,
  type TOptimizeTrial,
} from '@solterm/contracts';
import { getBuiltInStrategy } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../../db/database';
import { isUniqueViolation } from '../../../db/errors';
import { TaskTimeoutError, type JobScheduler, type Task } from '../../../jobs/scheduler';
import { AppError, isAppError } from '../../../lib/app-error';
import type { MarketService } from '../../market/market.service';
import type { BacktestPool } from '../backtest/backtest-pool';
import { createBacktestRunner } from '../backtest/backtest-runner';
import type { ResolvedStrategy } from '../bot-strategy';
import type { BotRow } from '../bots.repository';
import { bestOf, parameterAxes, parameterSets, trialObjectives, type ParameterSet } from './optimize-plan';
import { foldWindows, type TrialResult } from './optimize-trial';
import { botOptimizations, botOptimizationTrials } from './optimize.tables';

/** The scheduler's name of the optimisation task. */
export const OPTIMIZE_TASK = 'optimize';
/** A queued or running optimisation not moved for this long was abandoned (its process died). */
const ABANDONED_MS = 10 * 60_000;
/** Pause before a trial the pool refused as busy (its queue full, or the user's share taken) is asked again. */
const BUSY_RETRY_MS = 500;
/** How long a trial may be refused as busy before the optimisation fails. */
const BUSY_GIVE_UP_MS = 10 * 60_000;

type OptimizeRequest = z.output<typeof ZOptimizeRequestSchema>;

/** What an optimisation's row keeps to run it anywhere: the request, the bot as it was, the sets. */
interface StoredRequest {
  readonly request: OptimizeRequest;
  readonly strategy: ResolvedStrategy;
  readonly config: TBotConfig;
  readonly seed: number;
  readonly from: string;
  readonly to: string;
  readonly sets: ParameterSet[];
}

const ACTIVE = ['queued', 'running'];

/** A stable seed per bot (the backtest's own rule), so an optimisation of a range repeats itself. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A date-only end (`2025-12-31`) includes its whole day; a date-time is taken as it is. */
function endOf(text: string): Date {
  const date = new Date(text);
  return /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? new Date(date.getTime() + 86_400_000 - 1000) : date;
}

/**
 * Parameter optimisations (POST /api/bots/optimize): answered at once with an id, then run as a
 * scheduler task by whichever process takes it. Each trial is one job of the backtest pool (the
 * worker thread, or the Python sandbox), submitted after the previous one is done, under the user's
 * name: the pool's round-robin puts every other user's waiting backtest before the next trial, so
 * 500 trials never starve anyone. One optimisation queued or running per user.
 */
export function createOptimizer(deps: {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  scheduler: JobScheduler;
  market: MarketService;
  pool: BacktestPool;
  timeLimitMs: number;
  findBot: (userId: string, id: string) => Promise<BotRow | undefined>;
  /** The bot's strategy as a backtest runs it (refused when it is Python and Python is unavailable). */
  strategyOf: (bot: BotRow) => ResolvedStrategy;
  publish: (userId: string, progress: TOptimizationProgress) => void;
}) {
  const { db } = deps;

  function progressOf(
    row: { id: string; botId: string; trialsDone: number; trialsTotal: number },
    state: TOptimizationProgress['state'],
    queueAhead = 0,
  ): TOptimizationProgress {
    return {
      optimization_id: row.id,
      bot_id: row.botId,
      state,
      queue_ahead: queueAhead,
      trials_done: row.trialsDone,
      trials_total: row.trialsTotal,
      progress_percentage: row.trialsTotal > 0 ? Math.floor((row.trialsDone / row.trialsTotal) * 100) : 0,
    };
  }

  async function finish(id: string, state: 'completed' | 'failed', error: string | null = null) {
    const at = deps.now();
    const [row] = await db
      .update(botOptimizations)
      .set({ state, error, finishedAt: at, updatedAt: at })
      .where(and(eq(botOptimizations.id, id), inArray(botOptimizations.state, ACTIVE)))
      .returning();
    if (row) deps.publish(row.userId, progressOf(row, state));
  }

  /** Runs one trial through the backtest runner (its checks, its pool), asking again while busy. */
  async function trialOf(
    run: ReturnType<typeof createBacktestRunner>,
    stored: StoredRequest,
    id: string,
    userId: string,
    set: ParameterSet,
    onQueue: (ahead: number) => void,
  ): Promise<TrialResult> {
    const { strategy, request } = stored;
    const giveUp = Date.now() + BUSY_GIVE_UP_MS;
    for (;;) {
      try {
        const json = await run(
          {
            strategy: {
              ...strategy,
              spec: { ...strategy.spec, parameters: { ...strategy.spec.parameters, ...set } },
            },
            config: stored.config,
            from: new Date(stored.from),
            to: new Date(stored.to),
            initialBalance: request.initial_balance,
            ...(request.costs ? { costs: request.costs } : {}),
            seed: stored.seed,
            owner: userId,
            cancelKey: `optimize:${id}`,
            trial: {
              folds: request.walk_forward.folds,
              trainFraction: request.walk_forward.train_fraction,
              cacheKey: id,
            },
          },
          { onQueue },
        );
        return JSON.parse(json) as TrialResult;
      } catch (error) {
        if (!isAppError(error) || error.code !== 'BACKTEST__BUSY' || Date.now() > giveUp) throw error;
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
        if (!(await isActive(id))) throw new AppError('BACKTEST__CANCELLED');
      }
    }
  }

  async function isActive(id: string): Promise<boolean> {
    const [row] = await db
      .select({ state: botOptimizations.state })
      .from(botOptimizations)
      .where(eq(botOptimizations.id, id));
    return row !== undefined && ACTIVE.includes(row.state);
  }

  /** Computes an optimisation's trials in order, each recorded as it ends; stops when cancelled. */
  async function runOptimization(id: string): Promise<void> {
    const [started] = await db
      .update(botOptimizations)
      .set({ state: 'running', updatedAt: deps.now() })
      .where(and(eq(botOptimizations.id, id), eq(botOptimizations.state, 'queued')))
      .returning();
    if (!started) return; // cancelled while queued
    const stored = started.request as StoredRequest;
    const userId = started.userId;
    deps.publish(userId, progressOf(started, 'running'));
    // The pair's candles are read once for every trial (the same legs: the worker thread keeps them divided).
    const legs = new Map<string, Promise<unknown>>();
    const once = <A extends unknown[], R>(name: string, read: (...args: A) => Promise<R>) =>
      ((...args: A) => {
        if (!legs.has(name)) legs.set(name, read(...args));
        return legs.get(name)! as Promise<R>;
      }) as (...args: A) => Promise<R>;
    const market: MarketService = {
      ...deps.market,
      getClosedPairLegs: once('legs', deps.market.getClosedPairLegs),
      getUsdPrice: once('usd', deps.market.getUsdPrice),
    };
    const fixedNow = deps.now();
    const run = createBacktestRunner({
      market,
      pool: deps.pool,
      timeLimitMs: deps.timeLimitMs,
      now: () => fixedNow,
      log: deps.log,
    });
    const { objective } = stored.request;
    try {
      for (let index = started.trialsDone; index < stored.sets.length; index += 1) {
        const set = stored.sets[index]!;
        let trial: Omit<TOptimizeTrial, 'index' | 'parameters'>;
        try {
          const result = await trialOf(run, stored, id, userId, set, (ahead) =>
            deps.publish(userId, progressOf({ ...started, trialsDone: index }, 'running', ahead)),
          );
          trial = { folds: result.folds, ...trialObjectives(result.folds, objective), error: null };
        } catch (error) {
          if (!isAppError(error)) throw error;
          if (error.code === 'BACKTEST__CANCELLED') return;
          // The strategy refused the set or failed on it: the trial says why, the others go on.
          if (error.code !== 'BACKTEST__STRATEGY_FAILED' && error.code !== 'BACKTEST__TIME_LIMIT')
            throw error;
          trial = {
            folds: [],
            in_sample_objective: null,
            out_of_sample_objective: null,
            error: error.message,
          };
        }
        // Counted only while it still runs: a cancelled optimisation records nothing more.
        const [moved] = await db
          .update(botOptimizations)
          .set({ trialsDone: index + 1, updatedAt: deps.now() })
          .where(and(eq(botOptimizations.id, id), eq(botOptimizations.state, 'running')))
          .returning();
        if (!moved) return;
        await db.insert(botOptimizationTrials).values({
          optimizationId: id,
          seq: index,
          parameters: set,
          folds: trial.folds,
          inSampleObjective: trial.in_sample_objective,
          outOfSampleObjective: trial.out_of_sample_objective,
          error: trial.error,
        });
        if (index + 1 < stored.sets.length) deps.publish(userId, progressOf(moved, 'running'));
      }
      await finish(id, 'completed');
    } catch (error) {
      deps.log.warn({ err: error, optimization: id }, 'optimisation failed');
      await finish(id, 'failed', isAppError(error) ? error.message : 'The optimisation failed');
    }
  }

  const task: Task<{ optimizationId: string }, null> = {
    name: OPTIMIZE_TASK,
    async run(payload) {
      await runOptimization(payload.optimizationId);
      return null;
    },
  };

  return {
    task,

    /** POST /bots/optimize: checks the request, stores it and submits it; answers at once. */
    async start(userId: string, request: OptimizeRequest): Promise<{ optimization_id: string }> {
      const bot = await deps.findBot(userId, request.bot_id);
      if (!bot) throw new AppError('BOTS__NOT_FOUND');
      const strategy = deps.strategyOf(bot);
      const declared =
        strategy.spec.kind === 'builtin'
          ? (getBuiltInStrategy(strategy.spec.type)?.parameters ?? null)
          : null;
      const seed = request.seed ?? seedOf(bot.id);
      const sets = parameterSets(
        parameterAxes(request.parameters, declared),
        request.method,
        request.max_trials,
        seed,
      );
      // Bounds before anything runs: the range's candles, and the candles all trials backtest.
      const step = CHART_INTERVAL_SECONDS[bot.config.interval];
      const from = new Date(request.start_date);
      const to = endOf(request.end_date);
      const nowSeconds = Math.floor(deps.now().getTime() / 1000);
      const fromOpen = Math.floor(from.getTime() / 1000);
      if (fromOpen >= nowSeconds - step) throw new AppError('BACKTEST__RANGE_IN_FUTURE');
      const candles =
        Math.floor((Math.min(Math.floor(to.getTime() / 1000), nowSeconds) - fromOpen) / step) + 1;
      if (candles > MAX_BACKTEST_CANDLES) {
        throw new AppError(
          'BACKTEST__RANGE_TOO_LARGE',
          `The range holds ${candles} ${bot.config.interval} candles; an optimisation covers at most ${MAX_BACKTEST_CANDLES}.`,
        );
      }
      if (sets.length * candles > MAX_OPTIMIZE_CANDLE_RUNS) {
        throw new AppError(
          'OPTIMIZE__TOO_MUCH_WORK',
          `${sets.length} trials of ${candles.toLocaleString('en-US')} candles is more than the ${MAX_OPTIMIZE_CANDLE_RUNS.toLocaleString('en-US')} candles an optimisation may backtest: fewer trials, a shorter range or a longer interval.`,
        );
      }
      foldWindows(candles, request.walk_forward.folds, request.walk_forward.train_fraction);
      const at = deps.now();
      // A queued or running one whose process died would block the user for ever: it is failed.
      await db
        .update(botOptimizations)
        .set({ state: 'failed', error: 'Abandoned: the process running it stopped', finishedAt: at })
        .where(
          and(
            eq(botOptimizations.userId, userId),
            inArray(botOptimizations.state, ACTIVE),
            lt(botOptimizations.updatedAt, new Date(at.getTime() - ABANDONED_MS)),
          ),
        );
      const id = randomUUID();
      const stored: StoredRequest = {
        request,
        strategy,
        config: bot.config,
        seed,
        from: from.toISOString(),
        to: to.toISOString(),
        sets,
      };
      try {
        await db.insert(botOptimizations).values({
          id,
          userId,
          botId: bot.id,
          state: 'queued',
          request: stored,
          trialsTotal: sets.length,
          createdAt: at,
          updatedAt: at,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('OPTIMIZE__BUSY');
        throw error;
      }
      const row = { id, botId: bot.id, trialsDone: 0, trialsTotal: sets.length };
      deps.publish(userId, progressOf(row, 'queued'));
      // The task's own bound is the trials' time limits; this only catches a job nobody took or lost.
      const timeoutMs = sets.length * (deps.timeLimitMs + 5_000) * 3 + 60_000;
      void deps.scheduler
        .submit(OPTIMIZE_TASK, { optimizationId: id }, { timeoutMs })
        .catch(async (error: unknown) => {
          if (!(error instanceof TaskTimeoutError))
            deps.log.warn({ err: error, optimization: id }, 'optimisation job failed');
          await finish(id, 'failed', 'The optimisation did not finish in time').catch(() => undefined);
        });
      return { optimization_id: id };
    },

    /** GET /bots/optimize/{id}: every trial, the best set by out-of-sample objective, the warning. */
    async get(userId: string, id: string): Promise<TOptimization> {
      const [row] = await db
        .select()
        .from(botOptimizations)
        .where(and(eq(botOptimizations.id, id), eq(botOptimizations.userId, userId)));
      if (!row) throw new AppError('OPTIMIZE__NOT_FOUND');
      const stored = row.request as StoredRequest;
      const rows = await db
        .select()
        .from(botOptimizationTrials)
        .where(eq(botOptimizationTrials.optimizationId, id))
        .orderBy(asc(botOptimizationTrials.seq));
      const trials: TOptimizeTrial[] = rows.map((trial) => ({
        index: trial.seq,
        parameters: trial.parameters as ParameterSet,
        folds: trial.folds as TOptimizeTrial['folds'],
        in_sample_objective: trial.inSampleObjective,
        out_of_sample_objective: trial.outOfSampleObjective,
        error: trial.error,
      }));
      return {
        optimization_id: row.id,
        bot_id: row.botId,
        state: row.state as TOptimization['state'],
        objective: stored.request.objective,
        method: stored.request.method,
        folds: stored.request.walk_forward.folds,
        train_fraction: stored.request.walk_forward.train_fraction,
        seed: stored.seed,
        trials_total: row.trialsTotal,
        trials_done: row.trialsDone,
        trials,
        ...bestOf(trials, stored.request.objective),
        error: row.error,
        created_at: row.createdAt.toISOString(),
        finished_at: row.finishedAt?.toISOString() ?? null,
      };
    },

    /**
     * POST /bots/optimize/{id}/cancel: stops the caller's optimisation (a trial computing here is
     * stopped at once; one computing in another process at its end). Anyone else's id is 404.
     */
    async cancel(
      userId: string,
      id: string,
    ): Promise<{ optimization_id: string; cancelled: boolean; state: string }> {
      const at = deps.now();
      const [row] = await db
        .update(botOptimizations)
        .set({ state: 'cancelled', finishedAt: at, updatedAt: at })
        .where(
          and(
            eq(botOptimizations.id, id),
            eq(botOptimizations.userId, userId),
            inArray(botOptimizations.state, ACTIVE),
          ),
        )
        .returning();
      if (row) {
        deps.pool.cancel(`optimize:${id}`);
        deps.publish(userId, progressOf(row, 'cancelled'));
        return { optimization_id: id, cancelled: true, state: 'cancelled' };
      }
      const [other] = await db
        .select({ state: botOptimizations.state })
        .from(botOptimizations)
        .where(and(eq(botOptimizations.id, id), eq(botOptimizations.userId, userId)));
      if (!other) throw new AppError('OPTIMIZE__NOT_FOUND');
      return { optimization_id: id, cancelled: false, state: other.state };
    },
  };
}

export type Optimizer = ReturnType<typeof createOptimizer>;
