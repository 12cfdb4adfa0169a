import {
  CHART_INTERVAL_SECONDS,
  MAX_BACKTEST_CANDLES,
  MAX_BACKTEST_TRADES_LISTED,
  type TBacktestResult,
  type TBotConfig,
} from '@solterm/contracts';
import {
  candleSeriesOf,
  Dec,
  fillPrice,
  fromBaseUnits,
  rfqVenue,
  runBacktest,
  StrategyError,
  toBaseUnits,
  exact,
  type BacktestResult,
} from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import { toWireNumber } from '../../lib/wire-decimal';
import type { MarketService } from '../market/market.service';
import type { ResolvedStrategy } from './bot-strategy';

/** Longest a backtest may compute before it is stopped. */
export const BACKTEST_TIME_LIMIT_MS = 20_000;

export interface BacktestRequest {
  readonly strategy: ResolvedStrategy;
  readonly config: TBotConfig;
  readonly from: Date;
  readonly to: Date;
  /** Whole quote tokens (USDC for SOL/USDC). */
  readonly initialBalance: number;
  /** Seed of the strategy's randomness: the same request gives the same result. */
  readonly seed: number;
}

/**
 * Backtests over the market module's closed candles (any past range: the simulator computes it, live
 * mode reads the providers' history), fills priced by the live maker's RFQ pricing and fees.
 */
export function createBacktestRunner(deps: {
  market: MarketService;
  now: () => Date;
  log: FastifyBaseLogger;
}) {
  return async function run(request: BacktestRequest): Promise<TBacktestResult> {
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
    const { pair, candles } = await deps.market.getClosedPairCandles(
      config.symbol,
      config.interval,
      fromOpen,
      toOpen,
    );
    const baseDecimals = pair.base.decimals;
    const quoteDecimals = pair.quote.decimals;
    if (baseDecimals === null || quoteDecimals === null || pair.quote.mint === null) {
      throw new AppError(
        'BACKTEST__PAIR_NOT_TRADABLE',
        `Backtests trade a pair of Solana tokens, e.g. SOL/USDC; ${pair.text} is not one`,
      );
    }
    if (candles.length === 0)
      throw new AppError('BACKTEST__NO_DATA', `No candles of ${pair.text} in that range`);
    const quoteUsdPrice = new Dec(await deps.market.getUsdPrice(pair.quote));
    const started = performance.now();
    let result: BacktestResult;
    try {
      result = runBacktest({
        strategy: request.strategy.create(request.seed),
        risk: request.strategy.risk,
        series: candleSeriesOf(candles),
        intervalSeconds: step,
        venue: rfqVenue({ baseDecimals, quoteDecimals, quoteUsdPrice }),
        baseDecimals,
        quoteDecimals,
        initialCash: toBaseUnits(new Dec(String(request.initialBalance)), quoteDecimals),
        progressEvery: 16_384,
        onProgress: () => {
          if (performance.now() - started > BACKTEST_TIME_LIMIT_MS)
            throw new AppError('BACKTEST__TIME_LIMIT');
        },
      });
    } catch (error) {
      if (error instanceof StrategyError) throw new AppError('BACKTEST__STRATEGY_FAILED', error.message);
      if (error instanceof RangeError) throw new AppError('BACKTEST__STRATEGY_FAILED', error.message);
      throw error;
    }
    deps.log.debug({ candles: candles.length, ms: performance.now() - started }, 'backtest computed');
    return resultToWire(result, {
      symbol: pair.text,
      interval: config.interval,
      from: candles[0]!.time,
      to: candles[candles.length - 1]!.time + step,
      baseDecimals,
      quoteDecimals,
    });
  };
}

export type BacktestRunner = ReturnType<typeof createBacktestRunner>;

function resultToWire(
  result: BacktestResult,
  context: {
    symbol: string;
    interval: TBotConfig['interval'];
    from: number;
    to: number;
    baseDecimals: number;
    quoteDecimals: number;
  },
): TBacktestResult {
  const money = (value: Dec) => toWireNumber(value.toDecimalPlaces(context.quoteDecimals, Dec.ROUND_HALF_UP));
  const ratio = (value: Dec) => toWireNumber(value.toDecimalPlaces(6, Dec.ROUND_HALF_UP));
  const units = (value: bigint) => toWireNumber(fromBaseUnits(value, context.quoteDecimals));
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  const listed = result.fills.slice(0, MAX_BACKTEST_TRADES_LISTED);
  return {
    initial_balance: money(result.initialBalance),
    final_balance: money(result.finalBalance),
    total_return: ratio(result.totalReturn),
    total_trades: result.totalTrades,
    win_rate: ratio(result.winRate),
    max_drawdown: ratio(result.maxDrawdown),
    sharpe_ratio: ratio(result.sharpeRatio),
    winning_trades: result.winningTrades,
    losing_trades: result.losingTrades,
    equity_curve: result.equityCurve.map((point) => ({
      timestamp: iso(point.time),
      value: money(point.equity),
    })),
    sortino_ratio: ratio(result.sortinoRatio),
    calmar_ratio: ratio(result.calmarRatio),
    profit_factor: result.profitFactor === null ? null : ratio(result.profitFactor),
    expectancy: money(result.expectancy),
    exposure: ratio(result.exposure),
    fees_paid: money(result.feesPaid),
    trades: listed.map((fill) => ({
      time: iso(fill.time),
      side: fill.side,
      quantity: toWireNumber(fromBaseUnits(fill.baseAmount, context.baseDecimals)),
      price: toWireNumber(
        fillPrice(fill, context.baseDecimals, context.quoteDecimals).toSignificantDigits(10),
      ),
      value: units(fill.quoteAmount),
      fee: money(exact.toDec(fill.fee)),
      pnl: fill.pnl === null ? null : units(fill.pnl),
      reason: fill.reason,
    })),
    trades_truncated: result.fills.length > listed.length,
    symbol: context.symbol,
    interval: context.interval,
    start_date: iso(context.from),
    end_date: iso(context.to),
    candles: result.candles,
  };
}
