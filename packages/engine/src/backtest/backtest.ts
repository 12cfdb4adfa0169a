import type { Candle } from '../market/candle';
import type { Dec } from '../money/decimal';
import type { RiskRules, Strategy } from '../strategy/strategy';

// The backtest runner's contract (implemented in the strategies and backtests issue): a strategy over
// candles, filled by a venue port that prices as the live maker does. Clock and randomness injected.

export interface BacktestInput {
  readonly strategy: Strategy;
  readonly risk: RiskRules;
  /** Closed candles, oldest first. */
  readonly candles: readonly Candle[];
  /** Quote units the bot starts with. */
  readonly initialBalance: Dec;
  /** Seed of the strategy's randomness. */
  readonly seed: number;
}

export interface BacktestFill {
  readonly time: number;
  readonly side: 'Buy' | 'Sell';
  readonly price: Dec;
  readonly baseAmount: bigint;
  readonly fee: Dec;
  readonly reason: string;
}

/** The spec's metrics (part 2 §backtest) plus Sortino, Calmar and profit factor, and the trades. */
export interface BacktestResult {
  readonly initialBalance: Dec;
  readonly finalBalance: Dec;
  readonly totalReturn: Dec;
  readonly totalTrades: number;
  readonly winningTrades: number;
  readonly losingTrades: number;
  readonly winRate: Dec;
  readonly maxDrawdown: Dec;
  readonly sharpeRatio: Dec;
  readonly sortinoRatio: Dec;
  readonly calmarRatio: Dec;
  readonly profitFactor: Dec;
  /** Hourly equity points. */
  readonly equityCurve: readonly { readonly time: number; readonly equity: Dec }[];
  readonly fills: readonly BacktestFill[];
}

export type RunBacktest = (input: BacktestInput) => BacktestResult;
