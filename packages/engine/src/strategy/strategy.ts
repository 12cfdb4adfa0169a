import type { Candle } from '../market/candle';
import type { Dec } from '../money/decimal';

// The strategy protocol shared by backtests and live bots (implemented in the strategies issue): the
// same code path, so a backtest predicts what the bot does. A strategy sees only closed candles,
// keeps its own state, and returns order intents; the runtime sizes and fills them.

/** What a strategy asks for after a candle closes. */
export type OrderIntent =
  | { readonly kind: 'buy'; readonly reason: string }
  | { readonly kind: 'sell'; readonly reason: string }
  | { readonly kind: 'hold' };

/** What a strategy knows when a candle closes: the candle, the history it kept, its position. */
export interface StrategyContext {
  readonly candle: Candle;
  /** Base units held by the bot (zero when flat). */
  readonly position: bigint;
  /** Time of the evaluation (unix seconds): injected, never read from a clock. */
  readonly now: number;
}

/**
 * A trading strategy: pure given its state. `random` is the only source of randomness it may use
 * (seeded by the runtime), so a backtest is reproducible.
 */
export interface Strategy<State = unknown> {
  readonly name: string;
  /** How many closed candles it needs before its first intent (indicator warm-up). */
  readonly warmUp: number;
  initialState(): State;
  onCandle(
    state: State,
    context: StrategyContext,
    random: () => number,
  ): { state: State; intent: OrderIntent };
}

/** Risk rules the runtime applies to every intent (never the strategy). */
export interface RiskRules {
  /** Quote amount per entry. */
  readonly amount: Dec;
  readonly maxPositions: number;
  /** Exit when the price moves this far against / for the entry, in percent (null: off). */
  readonly stopLossPercent: Dec | null;
  readonly takeProfitPercent: Dec | null;
}
