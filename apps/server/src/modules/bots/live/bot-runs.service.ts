import {
  USDC_MINT,
  WRAPPED_SOL_MINT,
  CHART_INTERVAL_SECONDS,
  MAX_RUNNING_BOTS_PER_USER,
  PAPER_BOT_BALANCE,
  type TBotMetrics,
  type TProductionStatus,
  type TUserMessage,
} from '@solterm/contracts';
import { Dec, fromBaseUnits, StrategyError, toBaseUnits } from '@solterm/engine';
import { AppError } from '../../../lib/app-error';
import type { MarketService } from '../../market/market.service';
import { resolveBotStrategy, type ResolvedStrategy } from '../bot-strategy';
import type { BotRow } from '../bots.repository';
import { metricsOf } from './bot-metrics';
import type { BotFillRow, BotRunRow, BotRunsRepository } from './bot-runs.repository';
import { pythonUserLimitMessage } from '../sandbox/python-sandbox';
import { createLiveStrategy, type LiveSandboxes } from './live-strategy';
import type { BotRunner } from './bot-runner';

const HOUR_MS = 3_600_000;
/** Trades a production status lists at most (newest first). */
const MAX_STATUS_TRADES = 100;

/** Starting and stopping live runs of a user's bots, and the figures of their newest runs. */
export function createBotRunsService(deps: {
  repo: BotRunsRepository;
  market: MarketService;
  runner: BotRunner;
  sandboxes: LiveSandboxes;
  now: () => Date;
  publish: (userId: string, message: TUserMessage) => void;
  /** On-chain runs: the SOL the user's bot may draw now, and its value in a quote token's units. */
  onChain?: {
    approvedAllowance: (userId: string) => Promise<bigint>;
    valueOfLamports: (quoteMint: string, lamports: bigint) => Promise<bigint>;
  };
}) {
  const statusChange = (bot: BotRow, status: 'running' | 'stopped' | 'failed', message: string) =>
    deps.publish(bot.userId, {
      type: 'bot_status_change',
      message_type: 'bot_status_change',
      data: { bot_id: bot.id, status, message },
    });

  /**
   * A Python run needs the sandbox's network wall, and a share of the server's live Python processes
   * that one user may not exceed (counted over every process's running runs).
   */
  async function checkPythonShare(bot: BotRow): Promise<void> {
    const { python } = deps.sandboxes;
    if (!python.availability().available) throw new AppError('BOTS__PYTHON_UNAVAILABLE');
    const perUser = python.maxLivePerUser;
    const mine = (await deps.repo.running()).filter(
      (run) =>
        run.userId === bot.userId &&
        run.botId !== bot.id &&
        resolveBotStrategy(run.strategyType, run.config).spec.kind === 'python',
    );
    if (mine.length >= perUser)
      throw new AppError('BOTS__PYTHON_USER_LIMIT', pythonUserLimitMessage(perUser));
  }

  /** Code loaded in its sandbox as a live run loads it (JavaScript: the live thread; Python: a process). */
  async function checkCode(userId: string, spec: ResolvedStrategy['spec']): Promise<void> {
    if (spec.kind === 'builtin') return;
    if (spec.kind === 'python') {
      await deps.sandboxes.python.check({ userId, code: spec.code, parameters: spec.parameters });
      return;
    }
    (await createLiveStrategy(spec, 0, userId, deps.sandboxes)).dispose();
  }

  /** The bot's pair as the venue trades it (a pair of Solana tokens), or why not. */
  async function tradablePair(symbol: string) {
    const pair = await deps.market.resolvePair(symbol);
    if (pair.base.decimals === null || pair.quote.decimals === null || pair.quote.mint === null) {
      throw new AppError(
        'BACKTEST__PAIR_NOT_TRADABLE',
        `Bots trade a pair of Solana tokens, e.g. SOL/USDC; ${pair.text} is not one`,
      );
    }
    return pair;
  }

  /** Starts a run of `bot` in `mode` (the checks and the row both modes share). */
  async function start(bot: BotRow, mode: 'test' | 'mainnet'): Promise<void> {
    const { spec } = resolveBotStrategy(bot.strategyType, bot.config);
    if (spec.kind === 'python') await checkPythonShare(bot);
    // Code that does not load is refused now (Python's would cost a sandbox process: its run
    // fails on its first pass with the same message instead).
    if (spec.kind !== 'python') {
      try {
        (await createLiveStrategy(spec, 0, bot.userId, deps.sandboxes)).dispose();
      } catch (error) {
        if (error instanceof StrategyError) throw new AppError('BACKTEST__STRATEGY_FAILED', error.message);
        throw error;
      }
    }
    const pair = await tradablePair(bot.config.symbol);
    const baseDecimals = pair.base.decimals!;
    const quoteDecimals = pair.quote.decimals!;
    let initialCash = toBaseUnits(new Dec(PAPER_BOT_BALANCE), quoteDecimals);
    if (mode === 'mainnet') {
      if (pair.quote.mint !== WRAPPED_SOL_MINT && pair.quote.mint !== USDC_MINT) {
        throw new AppError('BOTS__ONCHAIN_PAIR_UNSUPPORTED');
      }
      const allowance = deps.onChain ? await deps.onChain.approvedAllowance(bot.userId) : 0n;
      if (allowance <= 0n) throw new AppError('BOTS__DELEGATION_REQUIRED');
      initialCash = await deps.onChain!.valueOfLamports(pair.quote.mint, allowance);
    }
    const now = deps.now();
    const step = CHART_INTERVAL_SECONDS[bot.config.interval];
    const started = await deps.repo.start(
      {
        botId: bot.id,
        userId: bot.userId,
        mode,
        strategyType: bot.strategyType,
        config: bot.config,
        initialCash: initialCash.toString(),
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
    deps.runner.wake();
    statusChange(
      bot,
      'running',
      `Bot "${bot.name}" started ${mode === 'test' ? 'in paper mode' : 'on chain'}`,
    );
  }

  return {
    /**
     * What a bot must pass to be saved (create and edit): its code loads in its sandbox and defines
     * its entry point (the check a start makes, Python's included), and its pair is one the venue
     * trades. A strategy that fails on its candles is not refused here: Run and Test shows that.
     *
     * @throws AppError BOTS__CODE_INVALID, BOTS__PAIR_INVALID; the Python sandbox's
     *   BOTS__PYTHON_UNAVAILABLE, BOTS__PYTHON_USER_LIMIT, BOTS__PYTHON_BUSY.
     */
    async checkDefinition(userId: string, spec: ResolvedStrategy['spec'], symbol: string): Promise<void> {
      try {
        await tradablePair(symbol);
      } catch (error) {
        if (error instanceof AppError && /^(MARKET__|BACKTEST__PAIR)/.test(error.code)) {
          throw new AppError(
            'BOTS__PAIR_INVALID',
            `Pair ${symbol.trim().slice(0, 40)} cannot be traded: ${error.message}. Use a pair such as SOL/USDC.`,
          );
        }
        throw error;
      }
      try {
        await checkCode(userId, spec);
      } catch (error) {
        if (error instanceof StrategyError) {
          const language = spec.kind === 'python' ? 'Python' : 'JavaScript';
          throw new AppError('BOTS__CODE_INVALID', `The ${language} code does not load: ${error.message}`);
        }
        throw error;
      }
    },

    /**
     * Starts `bot` in paper mode: a virtual balance of 1,000 of the pair's quote token, traded at
     * the venue's prices from the candle forming now for `config.run_hours` hours.
     *
     * @throws AppError BOTS__ALREADY_RUNNING, BOTS__RUNNING_LIMIT, BACKTEST__PAIR_NOT_TRADABLE, BACKTEST__STRATEGY_FAILED
     *   (the code does not load).
     */
    async startPaper(bot: BotRow): Promise<void> {
      await start(bot, 'test');
    },

    /**
     * Starts `bot` on chain (network_mode 'mainnet'): it trades the SOL its owner approved, from its
     * own key, at the spot venue. Its virtual cash is the approval's value at the start, so the
     * strategy sizes as it would with that balance.
     *
     * @throws AppError BOTS__DELEGATION_REQUIRED until the owner's approval is in effect on chain,
     *   BOTS__ONCHAIN_PAIR_UNSUPPORTED for a pair not quoted in SOL or USDC, and startPaper's.
     */
    async startOnChain(bot: BotRow): Promise<void> {
      await start(bot, 'mainnet');
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

    /** Stops the user's on-chain runs (their delegation was revoked: nothing more can be drawn). */
    async stopOnChainRuns(userId: string, message: string): Promise<void> {
      for (const run of await deps.repo.running()) {
        if (run.userId !== userId || run.mode !== 'mainnet') continue;
        deps.runner.forget(run.id);
        if (await deps.repo.finish(run.id, 'stopped', message, deps.now())) {
          deps.publish(userId, {
            type: 'bot_status_change',
            message_type: 'bot_status_change',
            data: { bot_id: run.botId, status: 'stopped', message },
          });
        }
      }
    },

    /** GET /bots/production/{id}/status: the newest run and its fills with their transactions. */
    async statusOf(bot: BotRow): Promise<TProductionStatus> {
      const run = (await deps.repo.latestOf([bot.id])).get(bot.id);
      const fills = run ? ((await deps.repo.fillsOfRuns([run.id])).get(run.id) ?? []) : [];
      const metrics = metricsOf(run, fills, deps.now());
      const status = (run?.status ?? 'stopped') as TProductionStatus['status'];
      return {
        bot_id: bot.id,
        status,
        is_running: status === 'running',
        network_mode: run?.mode ?? bot.networkMode,
        message: run?.message ?? null,
        started_at: run ? run.startedAt.toISOString() : null,
        total_trades: metrics.total_trades,
        total_pnl: metrics.total_pnl,
        trades: fills
          .slice(-MAX_STATUS_TRADES)
          .reverse()
          .map((fill) => ({
            time: fill.time.toISOString(),
            side: fill.side as 'Buy' | 'Sell',
            base_amount: fromBaseUnits(BigInt(fill.baseAmount), run!.baseDecimals).toNumber(),
            quote_amount: fromBaseUnits(BigInt(fill.quoteAmount), run!.quoteDecimals).toNumber(),
            transaction_hash: fill.txSignature,
          })),
      };
    },

    /** A bot's newest run and its fills (the track record's source), or null when it never ran. */
    async recordOf(botId: string): Promise<{ run: BotRunRow; fills: BotFillRow[] } | null> {
      const run = (await deps.repo.latestOf([botId])).get(botId);
      if (!run) return null;
      return { run, fills: (await deps.repo.fillsOfRuns([run.id])).get(run.id) ?? [] };
    },

    /** Each bot's newest run's mode ('test' or 'mainnet'), for bots that ran. */
    async modesOf(botIds: readonly string[]): Promise<Map<string, string>> {
      const runs = await deps.repo.latestOf(botIds);
      return new Map([...runs].map(([id, run]) => [id, run.mode]));
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
