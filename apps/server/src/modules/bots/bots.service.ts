import type { ZBotCreateRequestSchema, ZBotTestRequestSchema } from '@solterm/contracts';
import {
  MAX_BOTS_PER_USER,
  type TBacktestRequest,
  type TBacktestProgress,
  type TBacktestResult,
  type TBot,
  type TBotMetrics,
  type TBotWithStatus,
} from '@solterm/contracts';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { BacktestRunner } from './backtest-runner';
import { resolveBotStrategy } from './bot-strategy';
import type { BotRow, BotsRepository } from './bots.repository';

const DAY_MS = 86_400_000;

/** A bot that has never run: every figure zero or null (figures come from its own fills only). */
const NO_METRICS: TBotMetrics = {
  total_trades: 0,
  total_pnl: 0,
  win_rate: 0,
  current_balance: 0,
  daily_pnl: 0,
  weekly_pnl: 0,
  monthly_pnl: 0,
  max_drawdown: 0,
  sharpe_ratio: 0,
  last_trade_time: null,
  started_at: null,
  estimated_completion: null,
  current_task: null,
  progress_percentage: 0,
};

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

function botToWire(row: BotRow): TBot {
  return {
    ...identityOf(row),
    ...NO_METRICS,
    description: row.description,
    is_public: row.isPublic,
    config: row.config,
    created_at: row.createdAt.toISOString(),
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
  backtest: BacktestRunner;
  now: () => Date;
  /** Sends a user their backtest's progress (over /ws). */
  publishProgress?: (userId: string, progress: TBacktestProgress) => void;
}) {
  const { repo } = deps;

  const progressTo = (userId: string, botId: string | null) => (done: number, total: number) =>
    deps.publishProgress?.(userId, {
      bot_id: botId,
      candles_done: done,
      candles_total: total,
      progress_percentage: Math.floor((done / total) * 100),
    });

  async function requireBot(userId: string, id: string): Promise<BotRow> {
    const bot = await repo.findOwned(userId, id);
    if (!bot) throw new AppError('BOTS__NOT_FOUND');
    return bot;
  }

  return {
    async create(userId: string, request: z.output<typeof ZBotCreateRequestSchema>): Promise<TBot> {
      // Refused now, not at its first run: a bot that cannot run is not created.
      resolveBotStrategy(request.strategy_type, request.config);
      if ((await repo.countOf(userId)) >= MAX_BOTS_PER_USER) throw new AppError('BOTS__LIMIT_REACHED');
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
      return (await repo.listOf(userId)).map(botToWire);
    },

    async listWithStatus(userId: string): Promise<TBotWithStatus[]> {
      return (await repo.listOf(userId)).map((row) => ({ ...identityOf(row), performance: NO_METRICS }));
    },

    async remove(userId: string, id: string): Promise<void> {
      const bot = await requireBot(userId, id);
      if (bot.status === 'running') throw new AppError('BOTS__RUNNING');
      if (!(await repo.deleteOwned(userId, id))) throw new AppError('BOTS__NOT_FOUND');
    },

    /** POST /bots/backtest: one of the caller's bots over a past range. */
    async backtest(userId: string, request: TBacktestRequest): Promise<TBacktestResult> {
      const bot = await requireBot(userId, request.bot_id);
      return deps.backtest(
        {
          strategy: resolveBotStrategy(bot.strategyType, bot.config),
          config: bot.config,
          from: new Date(request.start_date),
          to: endOf(request.end_date),
          initialBalance: request.initial_balance,
          seed: seedOf(bot.id),
        },
        progressTo(userId, bot.id),
      );
    },

    /** POST /bots/test: "Run and Test Bot" on an unsaved bot, over the last `days` days. */
    async test(userId: string, request: z.output<typeof ZBotTestRequestSchema>): Promise<TBacktestResult> {
      const to = deps.now();
      return deps.backtest(
        {
          strategy: resolveBotStrategy(request.strategy_type, request.config),
          config: request.config,
          from: new Date(to.getTime() - request.days * DAY_MS),
          to,
          initialBalance: request.initial_balance,
          seed: seedOf(request.strategy_type),
        },
        progressTo(userId, null),
      );
    },
  };
}

export type BotsService = ReturnType<typeof createBotsService>;
