import type { CandleSeries } from '../market/candle-series';
import type { Dec } from '../money/decimal';

// The strategy protocol shared by backtests and live bots: the same code path, so a backtest predicts
// what the bot does. A strategy sees only closed candles, one at a time and never one ahead, keeps its
// own state, and returns order intents; the runtime (runtime.ts) sizes them, applies max positions,
// stop loss and take profit, and fills them through a venue port. User code (JavaScript in QuickJS,
// Python in Pyodide) implements the same `onCandle`.

/** A closed candle as a strategy sees it (doubles: indicators are signals, not money). */
export interface CandleView {
  /** Unix seconds of the candle's open. */
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** USD volume traded in the candle. */
  readonly volume: number;
}

/** What a strategy knows of its own position when a candle closes. */
export interface PositionView {
  /** Lots held (each bought with one `buy` intent). */
  readonly openLots: number;
  readonly maxPositions: number;
  /** Effective price of the newest open lot; NaN when flat. */
  readonly lastEntryPrice: number;
}

/**
 * `buy` opens one lot of the configured amount (refused past max positions or without the cash);
 * `sell` closes the oldest lot; `exit` closes every lot.
 */
export type IntentAction = 'buy' | 'sell' | 'exit';

export interface OrderIntent {
  readonly action: IntentAction;
  /** Why, shown on the trade list (at most 80 characters are kept). */
  readonly reason?: string;
}

/** One running strategy: its state lives in the instance. Returns null (or nothing) to hold. */
export interface StrategyInstance {
  onCandle(candle: CandleView, position: PositionView): OrderIntent | null | undefined;
}

/** Bits of a {@link SignalStrategyInstance}'s signal: buy when a lot fits, exit when one is open. */
export const BUY_SIGNAL = 1;
export const EXIT_SIGNAL = 2;

/**
 * A per-candle strategy whose answer on each candle is a signal of the candles alone, gated by the
 * position: `buyIntent` when the signal has BUY_SIGNAL and openLots < maxPositions, else `exitIntent`
 * when it has EXIT_SIGNAL and openLots > 0, else nothing. `signals` feeds it candles `from`…`to − 1`
 * (its state advances as through onCandle) and writes each one's signal to `out[i − from]`, so a
 * backtest runs its indicators in one loop over the columns; onCandle gives the same intents.
 */
export interface SignalStrategyInstance extends StrategyInstance {
  readonly buyIntent: OrderIntent;
  readonly exitIntent: OrderIntent;
  signals(series: CandleSeries, from: number, to: number, out: Uint8Array): void;
}

/**
 * A strategy that reads candles in runs, bound to one series when it is created: user code in a
 * sandbox, where one call per run costs far less than one per candle. `onCandles` feeds candles
 * `from`…`to − 1` with the position unchanged and stops after the first one that produced an intent
 * (the candles after it are not fed); null when none did. The runtime ends each run where a fill
 * could change the position, so a batched strategy sees exactly what a per-candle one would.
 */
export interface BatchStrategyInstance {
  readonly batched: true;
  onCandles(from: number, to: number, position: PositionView): { index: number; intent: unknown } | null;
}

/** Numeric parameters of a strategy (`short_window`, `rsi_period`, …). */
export type StrategyParameters = Readonly<Record<string, number>>;

/**
 * The spec's strategy categories (the marketplace's risk mapping reads them: sniper and scalper are
 * High, arbitrage and dca Low, the rest Medium).
 */
export const STRATEGY_CATEGORIES = [
  'trend',
  'mean_reversion',
  'breakout',
  'scalper',
  'dca',
  'grid',
  'sniper',
  'arbitrage',
] as const;
export type StrategyCategory = (typeof STRATEGY_CATEGORIES)[number];

/**
 * How big each buy is: `fixed_base` buys `value` base tokens (the spec's `amount`); `fixed_quote`
 * spends at most `value` quote tokens; `percent_equity` spends at most `value` percent of the equity
 * (cash plus open lots at the candle's close), never more than the cash. Fees and slippage are
 * inside the spending of the last two (the largest whole base-unit amount whose fill fits).
 */
export const SIZING_MODES = ['fixed_base', 'fixed_quote', 'percent_equity'] as const;
export type SizingMode = (typeof SIZING_MODES)[number];

export interface Sizing {
  readonly mode: SizingMode;
  /** Base tokens, quote tokens or percent (0 < value ≤ 100), as the mode says. */
  readonly value: Dec;
}

/** Risk rules the runtime applies to every intent (never the strategy). */
export interface RiskRules {
  /** Base tokens bought per lot (the spec's `amount`): the size without `sizing`. */
  readonly amount: Dec;
  /** How each buy is sized; absent: `fixed_base` of `amount` (bots made before sizing existed). */
  readonly sizing?: Sizing;
  readonly maxPositions: number;
  /** Close a lot when the price falls this many percent below its entry (null: off). */
  readonly stopLossPercent: Dec | null;
  /** Close a lot when the price rises this many percent above its entry (null: off). */
  readonly takeProfitPercent: Dec | null;
}
