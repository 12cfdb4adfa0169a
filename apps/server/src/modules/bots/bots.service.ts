import type {
  ZBotCreateRequestSchema,
  ZBotTestRequestSchema,
  ZBotUpdateRequestSchema,
} from '@solterm/contracts';
import {
  MAX_BOTS_PER_USER,
  type TBacktestRequest,
  type TBot,
  type TBotConfig,
  type TBotMetrics,
  type TBotWithStatus,
  type TProductionStatus,
} from '@solterm/contracts';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { provenWalletOf, type WalletOwner } from '../wallet/wallet.service';
import type { BacktestResultJson } from './backtest/backtest-job';
import type { BacktestTaskPayload } from './backtest/backtest-task';
import { NO_METRICS } from './live/bot-metrics';
import type { BotRunsService } from './live/bot-runs.service';
import { resolveBotStrategy, type ResolvedStrategy } from './bot-strategy';
import type { BotRow, BotsRepository } from './bots.repository';
import type { PythonAvailability } from './sandbox/python-sandbox';

const DAY_MS = 86_400_000;

function identityOf(row: BotRow) {
  return {
    bot_id: row.id,
    bot_name: row.name,
    strategy_type: row.strategyType,
    status: row.status as TBot['status'],
    is_running: row.status === 'running',
    network_mode: row.networkMode,
  };
}

function botToWire(row: BotRow, metrics: TBotMetrics = NO_METRICS, userCount = 0): TBot {
  return {
    ...identityOf(row),
    ...metrics,
    description: row.description,
    is_public: row.isPublic,
    config: row.config,
    created_at: row.createdAt.toISOString(),
    user_count: userCount,
    copied_from: row.copiedFrom,
    copied_from_label: row.copiedFromLabel,
  };
}

/** A date-only end (`2025-12-31`) includes its whole day; a date-time is taken as it is. */
function endOf(text: string): Date {
  const date = new Date(text);
  return /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? new Date(date.getTime() + DAY_MS - 1000) : date;
}

/** A stable seed per bot, so a bot's backtest of a range always gives the same result. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Bot definitions of one user, and backtests of them. */
export function createBotsService(deps: {
  repo: BotsRepository;
  /** Computes a backtest: submitted to the scheduler's backtest task (backtest-task.ts). */
  backtest: (payload: BacktestTaskPayload) => Promise<BacktestResultJson>;
  now: () => Date;
  /** Live runs: start, stop and the figures of each bot's newest run. */
  runs: BotRunsService;
  /** How many users copied each bot from the marketplace. */
  copyCounts: (botIds: readonly string[]) => Promise<Map<string, number>>;
  /** Whether this server runs Python strategies (its host must wall the sandbox off the network). */
  pythonAvailability: () => PythonAvailability;
  /** Stops the backtest submitted with `cancelKey` in this process (false: none such here). */
  cancelBacktest: (cancelKey: string) => boolean;
}) {
  const { repo, runs } = deps;

  /** The bot's strategy, refused when it is Python and this server cannot run Python safely. */
  function runnableStrategy(strategyType: string, config: TBotConfig): ResolvedStrategy {
    const strategy = resolveBotStrategy(strategyType, config);
    if (strategy.spec.kind === 'python' && !deps.pythonAvailability().available) {
      throw new AppError('BOTS__PYTHON_UNAVAILABLE');
    }
    return strategy;
  }

  async function requireBot(userId: string, id: string): Promise<BotRow> {
    const bot = await repo.findOwned(userId, id);
    if (!bot) throw new AppError('BOTS__NOT_FOUND');
    return bot;
  }

  return {
    async create(userId: string, request: z.output<typeof ZBotCreateRequestSchema>): Promise<TBot> {
      // Refused now, not at its first run: a bot that cannot run is not created.
      const strategy = runnableStrategy(request.strategy_type, request.config);
      if ((await repo.countOf(userId)) >= MAX_BOTS_PER_USER) throw new AppError('BOTS__LIMIT_REACHED');
      await runs.checkDefinition(userId, strategy.spec, request.config.symbol);
      const row = await repo.insert({
        userId,
        name: request.name,
        description: request.description,
        strategyType: request.strategy_type,
        config: request.config,
        isPublic: request.is_public,
      });
      return botToWire(row);
    },

    async list(userId: string): Promise<TBot[]> {
      const rows = await repo.listOf(userId);
      const ids = rows.map((row) => row.id);
      const [metrics, copies] = await Promise.all([runs.metricsOf(ids), deps.copyCounts(ids)]);
      return rows.map((row) => botToWire(row, metrics.get(row.id), copies.get(row.id)));
    },

    /**
     * PATCH /bots/{id}: publishes the bot or takes it back (any time), and changes a stopped bot's
     * name, description, strategy and config, checked as at create. A running bot is refused
     * (BOTS__EDIT_RUNNING): its run trades by the definition it started with. Copies others made
     * from the marketplace are snapshots: they keep what they copied.
     */
    async update(
      userId: string,
      id: string,
      request: z.output<typeof ZBotUpdateRequestSchema>,
    ): Promise<TBot> {
      const bot = await requireBot(userId, id);
      const { is_public: isPublic, ...definition } = request;
      const edits = Object.values(definition).some((field) => field !== undefined);
      if (!edits) {
        await repo.setPublic(userId, id, isPublic!);
        return this.get(userId, id);
      }
      if (bot.status === 'running') throw new AppError('BOTS__EDIT_RUNNING');
      const strategyType = definition.strategy_type ?? bot.strategyType;
      const config = definition.config ?? bot.config;
      // A new definition is checked whole (a new category with the old code, a new pair, …).
      if (definition.strategy_type !== undefined || definition.config !== undefined) {
        const strategy = runnableStrategy(strategyType, config);
        await runs.checkDefinition(userId, strategy.spec, config.symbol);
      }
      const updated = await repo.updateStopped(userId, id, {
        ...(definition.name !== undefined ? { name: definition.name } : {}),
        ...(definition.description !== undefined ? { description: definition.description } : {}),
        ...(definition.strategy_type !== undefined ? { strategyType } : {}),
        ...(definition.config !== undefined ? { config } : {}),
        ...(isPublic !== undefined ? { isPublic } : {}),
      });
      // Started while its definition was being checked.
      if (!updated) throw new AppError('BOTS__EDIT_RUNNING');
      return this.get(userId, id);
    },

    /** A bot of `userId` as the list shows it (the marketplace's copy answers with this). */
    wireOf: async (row: BotRow): Promise<TBot> => {
      const [metrics, copies] = await Promise.all([runs.metricsOf([row.id]), deps.copyCounts([row.id])]);
      return botToWire(row, metrics.get(row.id), copies.get(row.id));
    },

    async listWithStatus(userId: string): Promise<TBotWithStatus[]> {
      const rows = await repo.listOf(userId);
      const metrics = await runs.metricsOf(rows.map((row) => row.id));
      return rows.map((row) => ({ ...identityOf(row), performance: metrics.get(row.id) ?? NO_METRICS }));
    },

    /** POST /bots/{id}/start: runs the bot in paper mode (a virtual balance at the venue's prices). */
    async start(userId: string, id: string): Promise<TBot> {
      await runs.startPaper(await requireBot(userId, id));
      return this.get(userId, id);
    },

    /**
     * POST /bots/production/{id}/start: runs the bot on chain with the SOL its owner approved;
     * BOTS__DELEGATION_REQUIRED ('… delegation approval …') until there is an approval. Only an
     * owner connected to a wallet proven by signature may (its proceeds are withdrawn there).
     */
    async startOnChain(owner: WalletOwner, id: string): Promise<TBot> {
      const bot = await requireBot(owner.id, id);
      provenWalletOf(owner, 'BOTS__WALLET_REQUIRED');
      await runs.startOnChain(bot);
      return this.get(owner.id, id);
    },

    /** GET /bots/production/{id}/status. */
    async productionStatus(userId: string, id: string): Promise<TProductionStatus> {
      return runs.statusOf(await requireBot(userId, id));
    },

    /** GET /bots/production/status: every bot of the caller. */
    async productionStatuses(userId: string): Promise<TProductionStatus[]> {
      return Promise.all((await repo.listOf(userId)).map((row) => runs.statusOf(row)));
    },

    /** POST /bots/{id}/stop (a stopped bot stays stopped). */
    async stop(userId: string, id: string): Promise<TBot> {
      await runs.stop(await requireBot(userId, id));
      return this.get(userId, id);
    },

    async get(userId: string, id: string): Promise<TBot> {
      const row = await requireBot(userId, id);
      const [metrics, copies] = await Promise.all([runs.metricsOf([row.id]), deps.copyCounts([row.id])]);
      return botToWire(row, metrics.get(row.id), copies.get(row.id));
    },

    async remove(userId: string, id: string): Promise<void> {
      const bot = await requireBot(userId, id);
      if (bot.status === 'running') throw new AppError('BOTS__RUNNING');
      if (!(await repo.deleteOwned(userId, id))) throw new AppError('BOTS__NOT_FOUND');
    },

    /** POST /bots/backtest: one of the caller's bots over a past range (the result's JSON text). */
    async backtest(userId: string, request: TBacktestRequest): Promise<BacktestResultJson> {
      const bot = await requireBot(userId, request.bot_id);
      // The pair and interval may be overridden for this backtest only (the bot keeps its own).
      const config: TBotConfig = {
        ...bot.config,
        ...(request.symbol !== undefined ? { symbol: request.symbol } : {}),
        ...(request.interval !== undefined ? { interval: request.interval } : {}),
      };
      return deps.backtest({
        strategy: runnableStrategy(bot.strategyType, config),
        config,
        ...(request.costs ? { costs: request.costs } : {}),
        from: new Date(request.start_date).toISOString(),
        to: endOf(request.end_date).toISOString(),
        initialBalance: request.initial_balance,
        seed: seedOf(bot.id),
        userId,
        botId: bot.id,
      });
    },

    /** POST /bots/test: "Run and Test Bot" on an unsaved bot, over the last `days` days. */
    async test(userId: string, request: z.output<typeof ZBotTestRequestSchema>): Promise<BacktestResultJson> {
      const to = deps.now();
      return deps.backtest({
        strategy: runnableStrategy(request.strategy_type, request.config),
        config: request.config,
        from: new Date(to.getTime() - request.days * DAY_MS).toISOString(),
        to: to.toISOString(),
        initialBalance: request.initial_balance,
        seed: seedOf(request.strategy_type),
        userId,
        botId: null,
        cancelKey: request.test_id ? `${userId}:${request.test_id}` : null,
      });
    },

    /** POST /bots/test/{test_id}/cancel: stops the caller's "Run and Test Bot" run (only theirs). */
    cancelTest(userId: string, testId: string): { test_id: string; cancelled: boolean } {
      return { test_id: testId, cancelled: deps.cancelBacktest(`${userId}:${testId}`) };
    },
  };
}

export type BotsService = ReturnType<typeof createBotsService>;
