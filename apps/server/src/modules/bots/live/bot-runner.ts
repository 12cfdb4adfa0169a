import { CHART_INTERVAL_SECONDS, type TCandle, type TUserMessage } from '@solterm/contracts';
import {
  Dec,
  rfqVenue,
  StrategyError,
  StrategyRuntime,
  type RuntimeFill,
  type StrategyInstance,
} from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { pause, type RecurringJob } from '../../../jobs/scheduler';
import { isAppError } from '../../../lib/app-error';
import { clipMessage } from '../../../lib/clip-message';
import type { MarketService } from '../../market/market.service';
import { resolveBotStrategy } from '../bot-strategy';
import { timingOf } from './bot-metrics';
import type { BotRunRow, BotRunsRepository, NewBotFill } from './bot-runs.repository';
import { BotFundsError } from '../funds/bot-wallet';
import { createLiveStrategy, type LiveSandboxes, type LiveStrategy } from './live-strategy';
import { isTransient, type OnChainExecutor } from './onchain-executor';
import { createPassBackoff, RETRY_AFTER_MS } from './pass-backoff';

/**
 * How often the runner wakes. It reads the running runs only when one of those it knows is due (a
 * candle of its interval closed, or its time is up) or once every RUNNING_REFRESH_MS, at almost no
 * cost in between; a run due before the next wake-up is waited for to the millisecond, so a close is
 * evaluated as it happens.
 */
export const RUNNER_INTERVAL_MS = 25;
/** Runs started or stopped by another process are seen within this long. */
const RUNNING_REFRESH_MS = 1_000;

/**
 * Time one built-in run may take in one pass (a rebuild replays all its candles): built-ins run on
 * the API's event loop (user code runs in its sandboxes), so one slower than this is stopped rather
 * than allowed to stall it. A built-in does a year of minutes in ~0.2 s; this is a safety net.
 */
const PASS_BUDGET_MS = 500;

/** The runtime's strategy slot for a user-code run, which the runner feeds itself (never called). */
const FED_THROUGH_ACT: StrategyInstance = {
  onCandle() {
    throw new TypeError('a sandboxed strategy is fed by the runner, through act');
  },
};

/** A run's strategy and position in this process, as of its checkpoint. */
interface LiveRun {
  readonly live: LiveStrategy;
  readonly runtime: StrategyRuntime;
  lastCandle: number | null;
}

/** A stable seed per run: a replay after a restart draws the same random numbers. */
export function seedOfRun(runId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < runId.length; i += 1) hash = Math.imul(hash ^ runId.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Paper bots: on each close of a running bot's candle interval, the strategy sees the closed candle
 * and the same StrategyRuntime as backtests applies its intent and the risk rules, filling at the
 * venue's RFQ prices against the run's virtual balance. One scheduler job advances every running
 * run (on PostgreSQL whichever process holds it); runs live in memory and are rebuilt by replaying
 * their candles from the start when a process takes over, so nothing is lost or doubled: each
 * advance is written with a guard on the run's checkpoint. One run failing never stops another.
 */
export function createBotRunner(deps: {
  repo: BotRunsRepository;
  market: MarketService;
  now: () => Date;
  log: FastifyBaseLogger;
  publish: (userId: string, message: TUserMessage) => void;
  /** Where live user code runs. */
  sandboxes: LiveSandboxes;
  /** Executes on-chain runs' fills (absent: on-chain runs are not advanced by this process). */
  onChain?: {
    executor: OnChainExecutor;
    /** The wallet whose approval the user's bot draws from (their active delegation's), if any. */
    walletOf: (userId: string) => Promise<string | null>;
  };
}) {
  const runs = new Map<string, LiveRun>();
  /** Runs a pass of this process is advancing, and states dropped meanwhile (disposed after it). */
  const busy = new Map<string, LiveRun[]>();
  const backoff = createPassBackoff();

  function forget(runId: string) {
    const state = runs.get(runId);
    runs.delete(runId);
    if (!state) return;
    const retired = busy.get(runId);
    if (retired) retired.push(state);
    else state.live.dispose();
  }

  /** One pass at a time per run in this process: two would feed the same strategy the same candles. */
  async function advanceAlone(run: BotRunRow): Promise<boolean> {
    if (busy.has(run.id)) return false;
    busy.set(run.id, []);
    try {
      return await advance(run);
    } finally {
      for (const state of busy.get(run.id)!) state.live.dispose();
      busy.delete(run.id);
    }
  }

  /** The run as of its checkpoint: its strategy warmed before the start, then every candle since. */
  async function rebuild(run: BotRunRow): Promise<LiveRun> {
    const { spec, risk } = resolveBotStrategy(run.strategyType, run.config);
    const live = await createLiveStrategy(spec, seedOfRun(run.id), run.userId, deps.sandboxes);
    const step = CHART_INTERVAL_SECONDS[run.config.interval];
    const warmFrom = run.firstCandle - live.warmUp * step;
    const { pair, candles } = await deps.market.getClosedPairCandles(
      run.config.symbol,
      run.config.interval,
      warmFrom,
      run.lastCandle ?? run.firstCandle - step,
    );
    const runtime = new StrategyRuntime({
      strategy: live.kind === 'sync' ? live.strategy : FED_THROUGH_ACT,
      risk: {
        amount: new Dec(risk.amount),
        maxPositions: risk.maxPositions,
        stopLossPercent: risk.stopLossPercent === null ? null : new Dec(risk.stopLossPercent),
        takeProfitPercent: risk.takeProfitPercent === null ? null : new Dec(risk.takeProfitPercent),
        // The same sizing as the bot's backtests (none: fixed_base of the amount).
        ...(risk.sizing ? { sizing: { mode: risk.sizing.mode, value: new Dec(risk.sizing.value) } } : {}),
      },
      venue: rfqVenue({
        baseDecimals: pair.base.decimals!,
        quoteDecimals: pair.quote.decimals!,
        quoteUsdPrice: new Dec(run.quoteUsdPrice),
      }),
      baseDecimals: pair.base.decimals!,
      quoteDecimals: pair.quote.decimals!,
      initialCash: BigInt(run.initialCash),
    });
    const started = performance.now();
    try {
      let from = 0;
      if (live.kind === 'async') {
        // The warm-up in one go (flat position, intents unread): no round trip per candle.
        while (from < candles.length && candles[from]!.time < run.firstCandle) from += 1;
        await live.warm(candles.slice(0, from), runtime.positionView);
      }
      for (const candle of candles.slice(from)) {
        await feed(run, { live, runtime, lastCandle: null }, candle, started);
      }
    } catch (error) {
      live.dispose();
      throw error;
    }
    return { live, runtime, lastCandle: run.lastCandle };
  }

  /** One closed candle: before the run's start it only warms the strategy; from it on, it trades. */
  async function feed(run: BotRunRow, state: LiveRun, candle: TCandle, passStarted: number) {
    const { live, runtime } = state;
    if (live.kind === 'async') {
      // User code, a round trip per candle: the runtime's own onCandle order, through its public steps.
      if (candle.time >= run.firstCandle && runtime.lots.length > 0) {
        runtime.closeAtRisk(candle.time, candle.open, candle.high, candle.low);
      }
      const intent = await live.step(candle, runtime.positionView);
      if (candle.time < run.firstCandle) return;
      runtime.act(intent, candle.time, candle.close);
      state.lastCandle = candle.time;
      return;
    }
    if (performance.now() - passStarted > PASS_BUDGET_MS) {
      throw new StrategyError(
        `the strategy is too slow to run live (over ${PASS_BUDGET_MS} ms for ${run.config.interval} candles)`,
      );
    }
    if (candle.time < run.firstCandle) {
      live.strategy.onCandle(candle, runtime.positionView);
      return;
    }
    runtime.onCandle(candle.time, candle.open, candle.high, candle.low, candle.close, candle.volume);
    state.lastCandle = candle.time;
  }

  const fillRow = (run: BotRunRow, fill: RuntimeFill, seq: number): NewBotFill => ({
    seq,
    botId: run.botId,
    time: new Date(fill.time * 1000),
    side: fill.side,
    baseAmount: fill.baseAmount.toString(),
    quoteAmount: fill.quoteAmount.toString(),
    pnl: fill.pnl === null ? null : fill.pnl.toString(),
    reason: fill.reason,
    txSignature: null,
  });

  async function finish(run: BotRunRow, status: 'stopped' | 'failed', message: string) {
    forget(run.id);
    backoff.clear(run.id);
    if (await deps.repo.finish(run.id, status, message, deps.now())) {
      deps.publish(run.userId, {
        type: 'bot_status_change',
        message_type: 'bot_status_change',
        data: { bot_id: run.botId, status, message },
      });
    }
  }

  /**
   * The runtime's new fills of an on-chain run, executed in order as the bot's swaps, with what they
   * actually moved (`rows`), beside the fills recorded before them; a sell's PnL is against the cost
   * of the oldest open buy (FIFO). Null while one is still in flight.
   */
  async function executeOnChain(
    run: BotRunRow,
    fresh: readonly RuntimeFill[],
    firstSeq: number,
  ): Promise<{ rows: NewBotFill[]; recorded: NewBotFill[] } | null> {
    const onChain = deps.onChain!;
    const [wallet, fillsByRun] = await Promise.all([
      onChain.walletOf(run.userId),
      deps.repo.fillsOfRuns([run.id]),
    ]);
    const recorded = fillsByRun.get(run.id) ?? [];
    const openCosts: { base: bigint; quote: bigint }[] = [];
    const track = (side: string, base: bigint, quote: bigint): bigint | null => {
      if (side === 'Buy') {
        openCosts.push({ base, quote });
        return null;
      }
      const lot = openCosts.shift();
      if (!lot || lot.base === 0n) return null;
      return quote - (lot.quote * base) / lot.base;
    };
    for (const fill of recorded) track(fill.side, BigInt(fill.baseAmount), BigInt(fill.quoteAmount));
    const rows: NewBotFill[] = [];
    for (const [index, fill] of fresh.entries()) {
      const seq = firstSeq + index;
      if (!wallet && fill.side === 'Buy') {
        throw new BotFundsError('its delegation was revoked. Approve a new delegation to go on.');
      }
      const executed = await onChain.executor.execute(run, seq, fill, wallet ?? '');
      if (!executed) return null;
      const pnl = track(fill.side, executed.baseAmount, executed.quoteAmount);
      rows.push({
        ...fillRow(run, fill, seq),
        baseAmount: executed.baseAmount.toString(),
        quoteAmount: executed.quoteAmount.toString(),
        pnl: pnl === null ? null : pnl.toString(),
        txSignature: executed.signature,
      });
    }
    return { rows, recorded };
  }

  /** Evaluates the candles of `run` closed since its checkpoint; ends it when its time is up (true). */
  async function advance(run: BotRunRow): Promise<boolean> {
    const step = CHART_INTERVAL_SECONDS[run.config.interval];
    const nowSeconds = Math.floor(deps.now().getTime() / 1000);
    const endSeconds = Math.floor(run.endsAt.getTime() / 1000);
    // The open of the newest candle closed by now, and not past the run's end.
    const lastClosed = Math.min(Math.floor(nowSeconds / step) * step - step, endSeconds - step);
    const from = (run.lastCandle ?? run.firstCandle - step) + step;
    if (from <= lastClosed) {
      let state = runs.get(run.id);
      if (!state || state.lastCandle !== run.lastCandle) {
        forget(run.id);
        state = await rebuild(run);
        runs.set(run.id, state);
      }
      const before = state.runtime.fills.length;
      const { candles } = await deps.market.getClosedPairCandles(
        run.config.symbol,
        run.config.interval,
        from,
        lastClosed,
      );
      if (candles.length > 0) {
        const started = performance.now();
        for (const candle of candles) await feed(run, state, candle, started);
        let fills = state.runtime.fills
          .slice(before)
          .map((fill, index) => fillRow(run, fill, before + index));
        let recorded: NewBotFill[] = [];
        if (run.mode === 'mainnet') {
          const executed = await executeOnChain(run, state.runtime.fills.slice(before), before);
          if (!executed) {
            // A swap is still in flight: this pass ends here and the next replays to this point.
            forget(run.id);
            return false;
          }
          ({ rows: fills, recorded } = executed);
        }
        const written = await deps.repo.checkpoint(run.id, run.lastCandle, {
          lastCandle: state.lastCandle!,
          lastClose: String(candles.at(-1)!.close),
          fills,
        });
        if (!written) {
          // Another process advanced it first (a lease handed over): rebuild from its checkpoint.
          forget(run.id);
          return false;
        }
        const advanced = { ...run, lastCandle: state.lastCandle, lastClose: String(candles.at(-1)!.close) };
        // A paper run's fills are all in memory (a rebuild replays them): no query per bot and
        // candle. An on-chain run's are what its swaps moved: those recorded before this pass (read
        // under the checkpoint this write was guarded by) and this pass's.
        const allFills =
          run.mode === 'mainnet'
            ? [...recorded, ...fills]
            : state.runtime.fills.map((fill, index) => fillRow(run, fill, index));
        deps.publish(run.userId, {
          type: 'bot_timing_update',
          message_type: 'bot_timing_update',
          data: timingOf(advanced, allFills, deps.now()),
        });
        run = advanced;
      }
    }
    if (nowSeconds >= endSeconds) {
      await finish(run, 'stopped', `Completed: the bot ran its ${run.config.run_hours} h`);
      return true;
    }
    return false;
  }

  /** When `run` next needs a pass (ms): its next candle's close, or its end if sooner. */
  function dueOf(run: BotRunRow): number {
    const step = CHART_INTERVAL_SECONDS[run.config.interval];
    const lastCandle = runs.get(run.id)?.lastCandle ?? run.lastCandle;
    const nextOpen = (lastCandle ?? run.firstCandle - step) + step;
    return Math.min((nextOpen + step) * 1000, run.endsAt.getTime());
  }

  /** The earliest time a known run is due; 0 makes the next wake-up read the running runs. */
  let dueAt = 0;
  let listedAt = Number.NEGATIVE_INFINITY;
  /** Runs' passes under way in this process. */
  const inFlight = new Set<Promise<void>>();

  /** One run's pass, its failure handled (a run failing never stops another): when it is next due. */
  async function passOf(run: BotRunRow, nowMs: number): Promise<number> {
    try {
      const ended = await advanceAlone(run);
      const due = dueOf(run);
      // Still due with its state dropped (a swap in flight, a checkpoint moved elsewhere): the next
      // look rebuilds it, so it backs off. With its state kept (no new candle yet), again shortly.
      if (!ended && due <= nowMs && !runs.has(run.id)) {
        return backoff.stalled(run.id, deps.now().getTime(), run.lastCandle);
      }
      backoff.clear(run.id);
      return due > nowMs ? due : deps.now().getTime() + RETRY_AFTER_MS;
    } catch (error) {
      if (error instanceof BotFundsError) {
        await finish(run, 'stopped', `The bot stopped: ${error.message}`);
        return nowMs + RETRY_AFTER_MS;
      }
      // (A transient RPC error may be an app error too: it is retried, not the run's end.)
      const transient = isTransient(error);
      if (!transient && (error instanceof StrategyError || isAppError(error))) {
        await finish(run, 'failed', `The bot stopped: ${clipMessage(error.message)}`);
        return nowMs + RETRY_AFTER_MS;
      }
      // Transient, or not the strategy's fault (market data, database): this candle again.
      forget(run.id);
      const why = transient ? ' on a transient error' : '';
      deps.log.warn({ err: error, run: run.id }, `bot pass failed${why}; retrying`);
      return backoff.stalled(run.id, deps.now().getTime(), run.lastCandle);
    }
  }

  /**
   * Starts a pass of each running run that is not in one (when one is due): each goes on by itself,
   * so a run whose strategy is slow (a user's own runs wait for their own compute in the live
   * JavaScript threads) delays neither the others nor the next pass. A stalled run waits for its
   * retry time, unless `everyRun` (tests, whose clock does not move, drive passes so).
   */
  async function launch(everyRun = false): Promise<Promise<void>[]> {
    const nowMs = deps.now().getTime();
    if (nowMs < dueAt && performance.now() - listedAt < RUNNING_REFRESH_MS) return [];
    listedAt = performance.now();
    dueAt = Number.POSITIVE_INFINITY;
    const launched: Promise<void>[] = [];
    const running = await deps.repo.running();
    backoff.keepOnly(new Set(running.map((run) => run.id)));
    for (const run of running) {
      if (run.mode !== 'test' && !(run.mode === 'mainnet' && deps.onChain)) continue;
      if (busy.has(run.id)) continue;
      const retryAt = everyRun ? undefined : backoff.waitingUntil(run.id, nowMs);
      if (retryAt !== undefined) {
        dueAt = Math.min(dueAt, retryAt);
        continue;
      }
      const pass = passOf(run, nowMs).then(
        (due) => {
          dueAt = Math.min(dueAt, due);
        },
        (error: unknown) => {
          dueAt = Math.min(dueAt, backoff.stalled(run.id, deps.now().getTime(), run.lastCandle));
          deps.log.warn({ err: error, run: run.id }, 'bot pass failed; retrying');
        },
      );
      inFlight.add(pass);
      void pass.finally(() => inFlight.delete(pass));
      launched.push(pass);
    }
    return launched;
  }

  return {
    /** Makes the next pass read the running runs (a run was started or stopped in this process). */
    wake(): void {
      dueAt = 0;
    },

    /** The scheduler job that starts the passes of every running bot (paper, and on chain where it can). */
    job(): RecurringJob {
      return {
        name: 'live-bots',
        intervalMs: RUNNER_INTERVAL_MS,
        run: async (signal) => {
          // (+1: the clock may read a hair before the due millisecond when the timer fires.)
          const wait = dueAt - deps.now().getTime();
          if (wait > 0 && wait <= RUNNER_INTERVAL_MS) await pause(wait + 1, signal);
          await launch();
        },
      };
    },
    /**
     * One pass of the job over every running run, a stalled one too, waiting for the passes it starts
     * to end (tests drive the runner so).
     */
    async pass(): Promise<void> {
      await Promise.all(await launch(true));
    },
    /** Waits for every pass under way to end (before the process closes what they use). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    /** Drops a run's state in this process (it was stopped through the API); the next pass re-reads. */
    forget(runId: string): void {
      forget(runId);
      backoff.clear(runId);
      dueAt = 0;
    },
  };
}

export type BotRunner = ReturnType<typeof createBotRunner>;
