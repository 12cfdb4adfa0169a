import type { TBacktestResult, TBotConfig } from '@solterm/contracts';
import { MAX_BACKTEST_TRADES_LISTED } from '@solterm/contracts';
import { Dec, exact, fillPrice, fromBaseUnits, type BacktestResult } from '@solterm/engine';
import { toWireNumber } from '../../lib/wire-decimal';

/** A backtest's result on the wire: money to the quote token's decimals, ratios to 6 decimals. */
export function resultToWire(
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
