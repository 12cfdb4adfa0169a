import { randomUUID } from 'node:crypto';
import {
  CHART_INTERVAL_SECONDS,
  MAX_BACKTEST_CANDLES,
  type TBacktestCosts,
  type TBotConfig,
} from '@solterm/contracts';
import { Dec, toBaseUnits } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../lib/app-error';
import type { MarketService } from '../../market/market.service';
import { packCandles, type BacktestResultJson } from './backtest-job';
import type { BacktestExports } from './backtest-exports';
import type { BacktestEvents, BacktestPool } from './backtest-pool';
import type { ResolvedStrategy } from '../bot-strategy';
import type { TrialSpec } from '../optimize/optimize-trial';

export interface BacktestRequest {
  readonly strategy: ResolvedStrategy;
  readonly config: TBotConfig;
  readonly from: Date;
  readonly to: Date;
  /** Whole quote tokens (USDC for SOL/USDC). */
  readonly initialBalance: number;
  /** Seed of the strategy's randomness: the same request gives the same result. */
  readonly seed: number;
  /** Whose backtest it is (a user id): the pool shares its thread fairly between users. */
  readonly owner: string;
  /** What the pool's cancel() names this run by (null: it cannot be cancelled). */
  readonly cancelKey?: string | null;
  /** How fills are priced (absent: the venue's RFQ pricing, as live runs are). */
  readonly costs?: TBacktestCosts;
  /** A trial of an optimisation: the answer is its folds' figures (optimize/optimize-trial.ts). */
  readonly trial?: TrialSpec;
}

/**
 * Backtests over the market module's closed candles (any past range: the simulator computes it, live
 * mode reads the providers' history), computed in the backtest worker thread with fills priced by the
 * live maker's RFQ pricing and fees.
 */
export function createBacktestRunner(deps: {
  market: MarketService;
  pool: BacktestPool;
  /** The budget of one backtest (BACKTEST_TIME_LIMIT_MS); user code's sandbox gets the same. */
  timeLimitMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Where every fill is kept for the CSV export; none: results carry no export. */
  exports?: BacktestExports;
}) {
  return async function run(
    request: BacktestRequest,
    events: Pick<BacktestEvents, 'onQueue' | 'onProgress'> = {},
  ): Promise<BacktestResultJson> {
    const { config } = request;
    const step = CHART_INTERVAL_SECONDS[config.interval];
    const nowSeconds = Math.floor(deps.now().getTime() / 1000);
    const fromOpen = Math.floor(request.from.getTime() / 1000);
    const toOpen = Math.min(Math.floor(request.to.getTime() / 1000), nowSeconds);
    if (fromOpen >= nowSeconds - step) throw new AppError('BACKTEST__RANGE_IN_FUTURE');
    const count = Math.floor((toOpen - fromOpen) / step) + 1;
    if (count > MAX_BACKTEST_CANDLES) {
      throw new AppError(
        'BACKTEST__RANGE_TOO_LARGE',
        `The range holds ${count} ${config.interval} candles; a backtest covers at most ${MAX_BACKTEST_CANDLES}. Shorten it or use a longer interval.`,
      );
    }
    const { pair, base, quote } = await deps.market.getClosedPairLegs(
      config.symbol,
      config.interval,
      fromOpen,
      toOpen,
    );
    const baseDecimals = pair.base.decimals;
    const quoteDecimals = pair.quote.decimals;
    if (baseDecimals === null || quoteDecimals === null || pair.quote.mint === null || quote === null) {
      throw new AppError(
        'BACKTEST__PAIR_NOT_TRADABLE',
        `Backtests trade a pair of Solana tokens, e.g. SOL/USDC; ${pair.text} is not one`,
      );
    }
    // (Legs that share no open time are answered the same by the worker thread, which divides them.)
    if (base.length === 0 || quote.length === 0)
      throw new AppError('BACKTEST__NO_DATA', `No candles of ${pair.text} in that range`);
    const started = performance.now();
    const exportId = deps.exports && !request.trial ? randomUUID() : undefined;
    let parts: string[] | undefined;
    const result = await deps.pool.run(
      {
        strategy: request.strategy.spec,
        risk: request.strategy.risk,
        ...(request.costs ? { costs: request.costs } : {}),
        legs: { base: packCandles(base), quote: packCandles(quote) },
        intervalSeconds: step,
        interval: config.interval,
        symbol: pair.text,
        baseDecimals,
        quoteDecimals,
        quoteUsdPrice: await deps.market.getUsdPrice(pair.quote),
        initialCash: toBaseUnits(new Dec(String(request.initialBalance)), quoteDecimals).toString(),
        seed: request.seed,
        cpuMs: deps.timeLimitMs,
        requestedFrom: fromOpen,
        requestedTo: toOpen,
        ...(exportId ? { exportId } : {}),
        ...(request.trial ? { trial: request.trial } : {}),
      },
      request.owner,
      { ...events, onExport: (csv) => (parts = csv) },
      request.cancelKey ?? undefined,
    );
    if (exportId && parts && deps.exports) {
      const fills = parts.reduce((rows, part) => rows + part.split('\n').length - 1, -1);
      // The result names the export: kept before it is answered, so its download never misses.
      await deps.exports.save(exportId, request.owner, parts, fills);
    }
    deps.log.debug({ candles: base.length, ms: performance.now() - started }, 'backtest computed');
    return result;
  };
}

export type BacktestRunner = ReturnType<typeof createBacktestRunner>;
