import {
  CHART_INTERVAL_SECONDS,
  MAX_RUNNING_BOTS_PER_USER,
  PAPER_BOT_BALANCE,
  type TBotMetrics,
  type TUserMessage,
} from '@solterm/contracts';
import { Dec, StrategyError, toBaseUnits } from '@solterm/engine';
import { AppError } from '../../../lib/app-error';
import type { MarketService } from '../../market/market.service';
import { resolveBotStrategy } from '../bot-strategy';
import type { BotRow } from '../bots.repository';
import { metricsOf } from './bot-metrics';
import type { BotRunsRepository } from './bot-runs.repository';
import { createLiveStrategy, type LiveSandboxes } from './live-strategy';
import type { PaperRunner } from './paper-runner';

const HOUR_MS = 3_600_000;

/** Starting and stopping live runs of a user's bots, and the figures of their newest runs. */
export function createBotRunsService(deps: {
  repo: BotRunsRepository;
  market: MarketService;
  runner: PaperRunner;
  sandboxes: LiveSandboxes;
  now: () => Date;
  publish: (userId: string, message: TUserMessage) => void;
}) {
  const statusChange = (bot: BotRow, status: 'running' | 'stopped' | 'failed', message: string) =>
    deps.publish(bot.userId, {
      type: 'bot_status_change',
      message_type: 'bot_status_change',
      data: { bot_id: bot.id, status, message },
    });

  return {
    /**
     * Starts `bot` in paper mode: a virtual balance of 1,000 of the pair's quote token, traded at
     * the venue's prices from the candle forming now for `config.run_hours` hours.
     *
     * @throws AppError BOTS__ALREADY_RUNNING, BOTS__RUNNING_LIMIT, BACKTEST__PAIR_NOT_TRADABLE, BACKTEST__STRATEGY_FAILED
     *   (the code does not load).
     */
    async startPaper(bot: BotRow): Promise<void> {
      const { spec } = resolveBotStrategy(bot.strategyType, bot.config);
      // Code that does not load is refused now (Python's would cost a sandbox process: its run
      // fails on its first pass with the same message instead).
      if (spec.kind !== 'python') {
        try {
          (await createLiveStrategy(spec, 0, deps.sandboxes)).dispose();
        } catch (error) {
          if (error instanceof StrategyError) throw new AppError('BACKTEST__STRATEGY_FAILED', error.message);
          throw error;
        }
      }
      const pair = await deps.market.resolvePair(bot.config.symbol);
      const { decimals: baseDecimals } = pair.base;
      const { decimals: quoteDecimals } = pair.quote;
      if (baseDecimals === null || quoteDecimals === null || pair.quote.mint === null) {
        throw new AppError(
          'BACKTEST__PAIR_NOT_TRADABLE',
          `Bots trade a pair of Solana tokens, e.g. SOL/USDC; ${pair.text} is not one`,
        );
      }
      const now = deps.now();
      const step = CHART_INTERVAL_SECONDS[bot.config.interval];
      const started = await deps.repo.start(
        {
          botId: bot.id,
          userId: bot.userId,
          mode: 'test',
          strategyType: bot.strategyType,
          config: bot.config,
          initialCash: toBaseUnits(new Dec(PAPER_BOT_BALANCE), quoteDecimals).toString(),
          quoteUsdPrice: await deps.market.getUsdPrice(pair.quote),
          baseDecimals,
          quoteDecimals,
          startedAt: now,
          endsAt: new Date(now.getTime() + bot.config.run_hours * HOUR_MS),
          firstCandle: Math.floor(now.getTime() / 1000 / step) * step,
        },
        MAX_RUNNING_BOTS_PER_USER,
      );
      if (started === 'limit') throw new AppError('BOTS__RUNNING_LIMIT');
      if (!started) throw new AppError('BOTS__ALREADY_RUNNING');
      statusChange(bot, 'running', `Bot "${bot.name}" started in paper mode`);
    },

    /** Stops the bot's running run; a bot that is not running stays as it is. */
    async stop(bot: BotRow): Promise<void> {
      const run = (await deps.repo.latestOf([bot.id])).get(bot.id);
      if (!run || run.status !== 'running') return;
      deps.runner.forget(run.id);
      if (await deps.repo.finish(run.id, 'stopped', 'Stopped by its owner', deps.now())) {
        statusChange(bot, 'stopped', `Bot "${bot.name}" stopped`);
      }
    },

    /** The figures of each bot's newest run (zero for a bot that never ran). */
    async metricsOf(botIds: readonly string[]): Promise<Map<string, TBotMetrics>> {
      const runs = await deps.repo.latestOf(botIds);
      const fills = await deps.repo.fillsOfRuns([...runs.values()].map((run) => run.id));
      const now = deps.now();
      const out = new Map<string, TBotMetrics>();
      for (const id of botIds) {
        const run = runs.get(id);
        out.set(id, metricsOf(run, run ? fills.get(run.id)! : [], now));
      }
      return out;
    },
  };
}

export type BotRunsService = ReturnType<typeof createBotRunsService>;
