import { Bollinger, CROSSED_DOWN, CROSSED_UP, Ema, Rsi, Sma } from './indicators/indicators';
import type { CandleSeries } from '../market/candle-series';
import {
  BUY_SIGNAL,
  EXIT_SIGNAL,
  type CandleView,
  type OrderIntent,
  type PositionView,
  type SignalStrategyInstance,
  type StrategyCategory,
  type StrategyInstance,
  type StrategyParameters,
} from './strategy';

/** One numeric parameter of a built-in strategy: its default and the range it accepts. */
export interface ParameterSpec {
  readonly default: number;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  readonly label: string;
}

export interface BuiltInStrategy {
  readonly type: BuiltInStrategyType;
  readonly category: StrategyCategory;
  readonly title: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, ParameterSpec>>;
  /** Closed candles it needs before its first intent. */
  warmUp(parameters: StrategyParameters): number;
  create(parameters: StrategyParameters, random: () => number): StrategyInstance;
}

export const BUILT_IN_STRATEGY_TYPES = [
  'sma_crossover',
  'ema_crossover',
  'rsi_reversion',
  'bollinger_breakout',
  'scalper',
  'dca',
  'grid',
] as const;
export type BuiltInStrategyType = (typeof BUILT_IN_STRATEGY_TYPES)[number];

const int = (value: number, min: number, max: number, label: string): ParameterSpec => ({
  default: value,
  min,
  max,
  integer: true,
  label,
});
const real = (value: number, min: number, max: number, label: string): ParameterSpec => ({
  default: value,
  min,
  max,
  integer: false,
  label,
});

const BUY = (reason: string): OrderIntent => ({ action: 'buy', reason });
const EXIT = (reason: string): OrderIntent => ({ action: 'exit', reason });
const SELL = (reason: string): OrderIntent => ({ action: 'sell', reason });

/**
 * The intent of a signal strategy for `signal` given the position (see SignalStrategyInstance): what
 * its onCandle returns.
 */
function gated(signal: number, position: PositionView, strategy: SignalStrategyInstance): OrderIntent | null {
  if (signal & BUY_SIGNAL && position.openLots < position.maxPositions) return strategy.buyIntent;
  if (signal & EXIT_SIGNAL && position.openLots > 0) return strategy.exitIntent;
  return null;
}

/** A signal strategy whose signal is a function of each close in turn (`next`). */
abstract class CloseSignals implements SignalStrategyInstance {
  abstract readonly buyIntent: OrderIntent;
  abstract readonly exitIntent: OrderIntent;

  protected abstract next(close: number): number;

  onCandle(candle: CandleView, position: PositionView): OrderIntent | null {
    return gated(this.next(candle.close), position, this);
  }

  signals(series: CandleSeries, from: number, to: number, out: Uint8Array): void {
    const { close } = series;
    for (let i = from; i < to; i += 1) out[i - from] = this.next(close[i]!);
  }
}

/**
 * A crossover of two moving averages: buy when the short crosses above the long, exit below. Its
 * last difference is kept in a typed array (a double in a closure's variable or an object's field is
 * boxed anew on every candle).
 */
class Crossover extends CloseSignals {
  /** short − long at the previous candle, in a typed array (see Sma). */
  private readonly previous = Float64Array.of(Number.NaN);
  readonly buyIntent: OrderIntent;
  readonly exitIntent: OrderIntent;

  /** The averages over a block of candles (signals). */
  private shortValues = new Float64Array(0);
  private longValues = new Float64Array(0);

  constructor(
    private readonly short: MovingAverage,
    private readonly long: MovingAverage,
    name: string,
  ) {
    super();
    this.buyIntent = BUY(`${name} short crossed above long`);
    this.exitIntent = EXIT(`${name} short crossed below long`);
  }

  /**
   * Short − long over the block and its crossings: both SMAs and the crossings in one loop, or each
   * average in its own loop and then the crossings, the previous difference kept in a local.
   */
  override signals(series: CandleSeries, from: number, to: number, out: Uint8Array): void {
    const { short, long } = this;
    if (short instanceof Sma && long instanceof Sma) {
      Sma.crossings(short, long, series.close, from, to, this.previous, out);
      return;
    }
    this.reserve(to - from);
    const { shortValues, longValues } = this;
    short.updateAll(series.close, from, to, shortValues);
    long.updateAll(series.close, from, to, longValues);
    for (let k = 0; k < to - from; k += 1) shortValues[k] = shortValues[k]! - longValues[k]!;
    let before = this.previous[0]!;
    for (let k = 0; k < to - from; k += 1) {
      const diff = shortValues[k]!;
      out[k] = crossSignal(before, diff);
      before = diff;
    }
    this.previous[0] = before;
  }

  /**
   * Room for `length` averages. Its own method: with the arrays replaced in signals() itself, V8
   * boxed a double per candle in its loops (8 MB a year of minutes).
   */
  private reserve(length: number): void {
    if (this.shortValues.length < length) {
      this.shortValues = new Float64Array(length);
      this.longValues = new Float64Array(length);
    }
  }

  protected override next(close: number): number {
    return this.cross(this.short.update(close) - this.long.update(close));
  }

  /** The signal of short − long = `diff` after the previous candle's. */
  private cross(diff: number): number {
    const before = this.previous[0]!;
    this.previous[0] = diff;
    return crossSignal(before, diff);
  }
}

// Sma.crossings' marks are a crossover's signals: up is a buy, down an exit.
if (CROSSED_UP !== BUY_SIGNAL || CROSSED_DOWN !== EXIT_SIGNAL)
  throw new Error('crossing marks are not signals');

/** The signal of a crossover whose short − long went from `before` to `diff` (NaN on either side: none). */
function crossSignal(before: number, diff: number): number {
  // NaN fails every comparison, so an average not yet filled signals nothing.
  return before <= 0 && diff > 0 ? BUY_SIGNAL : before >= 0 && diff < 0 ? EXIT_SIGNAL : 0;
}

/** An average a crossover reads: one value at a time, or a block's (Sma, Ema). */
interface MovingAverage {
  update(x: number): number;
  updateAll(values: Float64Array, from: number, to: number, out: Float64Array): void;
}

/** RSI mean reversion (and the scalper): buy below the oversold level, exit above the overbought one. */
class RsiReversion extends CloseSignals {
  private readonly rsi: Rsi;
  private readonly oversold: number;
  private readonly overbought: number;
  readonly buyIntent: OrderIntent;
  readonly exitIntent: OrderIntent;

  constructor(p: StrategyParameters, name: string) {
    super();
    this.rsi = new Rsi(p.rsi_period!);
    this.oversold = p.oversold!;
    this.overbought = p.overbought!;
    this.buyIntent = BUY(`${name} oversold`);
    this.exitIntent = EXIT(`${name} overbought`);
  }

  protected override next(close: number): number {
    const value = this.rsi.update(close);
    if (Number.isNaN(value)) return 0;
    return (value < this.oversold ? BUY_SIGNAL : 0) | (value > this.overbought ? EXIT_SIGNAL : 0);
  }
}

/** Bollinger breakout: buy when the close breaks above the upper band, exit below the middle. */
class BollingerBreakout extends CloseSignals {
  private readonly bands: Bollinger;
  readonly buyIntent = BUY('close above the upper band');
  readonly exitIntent = EXIT('close below the middle band');

  constructor(p: StrategyParameters) {
    super();
    this.bands = new Bollinger(p.period!, p.width!);
  }

  protected override next(close: number): number {
    const bands = this.bands;
    bands.update(close);
    if (Number.isNaN(bands.upper)) return 0;
    return (close > bands.upper ? BUY_SIGNAL : 0) | (close < bands.middle ? EXIT_SIGNAL : 0);
  }
}

const windows = {
  short_window: int(5, 1, 10_000, 'Short window (candles)'),
  long_window: int(20, 2, 10_000, 'Long window (candles)'),
};

const STRATEGIES: readonly BuiltInStrategy[] = [
  {
    type: 'sma_crossover',
    category: 'trend',
    title: 'SMA crossover',
    description:
      'Buys when the short simple moving average crosses above the long one; exits when it crosses below.',
    parameters: windows,
    warmUp: (p) => p.long_window! + 1,
    create: (p) => new Crossover(new Sma(p.short_window!), new Sma(p.long_window!), 'SMA'),
  },
  {
    type: 'ema_crossover',
    category: 'trend',
    title: 'EMA crossover',
    description: 'The SMA crossover on exponential moving averages: reacts sooner, trades more.',
    parameters: {
      short_window: int(9, 1, 10_000, 'Short window'),
      long_window: int(21, 2, 10_000, 'Long window'),
    },
    warmUp: (p) => p.long_window! + 1,
    create: (p) => new Crossover(new Ema(p.short_window!), new Ema(p.long_window!), 'EMA'),
  },
  {
    type: 'rsi_reversion',
    category: 'mean_reversion',
    title: 'RSI mean reversion',
    description:
      'Buys when RSI falls below the oversold level; exits when it rises above the overbought level.',
    parameters: {
      rsi_period: int(14, 2, 1_000, 'RSI period'),
      oversold: real(30, 1, 50, 'Oversold below'),
      overbought: real(70, 50, 99, 'Overbought above'),
    },
    warmUp: (p) => p.rsi_period! + 1,
    create: (p) => new RsiReversion(p, 'RSI'),
  },
  {
    type: 'bollinger_breakout',
    category: 'breakout',
    title: 'Bollinger breakout',
    description:
      'Buys when the close breaks above the upper band; exits when it falls back below the middle.',
    parameters: { period: int(20, 2, 10_000, 'Period'), width: real(2, 0.5, 5, 'Width (deviations)') },
    warmUp: (p) => p.period!,
    create: (p) => new BollingerBreakout(p),
  },
  {
    type: 'scalper',
    category: 'scalper',
    title: 'RSI scalper',
    description:
      'Short-horizon RSI: buys quick dips, takes small gains; pair it with a tight stop and take profit.',
    parameters: {
      rsi_period: int(7, 2, 1_000, 'RSI period'),
      oversold: real(25, 1, 50, 'Oversold below'),
      overbought: real(60, 50, 99, 'Exit above'),
    },
    warmUp: (p) => p.rsi_period! + 1,
    create: (p) => new RsiReversion(p, 'scalper RSI'),
  },
  {
    type: 'dca',
    category: 'dca',
    title: 'Dollar-cost averaging',
    description:
      'Buys one lot every N candles up to max positions; lots close at the take profit or stop loss.',
    parameters: { every_candles: int(24, 1, 100_000, 'Buy every (candles)') },
    warmUp: () => 1,
    create: (p) => {
      let seen = 0;
      return {
        onCandle(_candle, position) {
          seen += 1;
          if ((seen - 1) % p.every_candles! !== 0) return null;
          return position.openLots < position.maxPositions ? BUY('scheduled buy') : null;
        },
      };
    },
  },
  {
    type: 'grid',
    category: 'grid',
    title: 'Grid',
    description:
      'Buys a lot each time the price falls one grid step below the last entry; sells a lot one step above it.',
    parameters: { grid_step_percentage: real(1, 0.05, 50, 'Grid step (%)') },
    warmUp: () => 1,
    create: (p) => {
      const step = p.grid_step_percentage! / 100;
      let anchor = Number.NaN;
      return {
        onCandle(candle, position) {
          if (Number.isNaN(anchor)) anchor = candle.close;
          const reference = position.openLots > 0 ? position.lastEntryPrice : anchor;
          if (position.openLots > 0 && candle.close >= reference * (1 + step)) {
            anchor = candle.close;
            return SELL('one grid step above the last entry');
          }
          if (candle.close <= reference * (1 - step) && position.openLots < position.maxPositions)
            return BUY('one grid step down');
          if (position.openLots === 0 && candle.close >= anchor * (1 + step)) anchor = candle.close;
          return null;
        },
      };
    },
  },
];

const BY_TYPE = new Map(STRATEGIES.map((strategy) => [strategy.type, strategy]));

/** The built-in strategies, in the order the create form lists them. */
export function builtInStrategies(): readonly BuiltInStrategy[] {
  return STRATEGIES;
}

export function getBuiltInStrategy(type: string): BuiltInStrategy | undefined {
  return BY_TYPE.get(type as BuiltInStrategyType);
}

/**
 * A built-in's parameters from a bot's config: each known one checked against its range (defaults
 * for those missing); unknown names are ignored. Crossovers need short < long.
 *
 * @throws RangeError naming the first bad parameter.
 */
export function resolveParameters(
  strategy: BuiltInStrategy,
  given: Readonly<Record<string, unknown>> | undefined,
): StrategyParameters {
  const out: Record<string, number> = {};
  for (const [name, spec] of Object.entries(strategy.parameters)) {
    const raw = given?.[name];
    const value = raw === undefined || raw === null ? spec.default : Number(raw);
    if (
      !Number.isFinite(value) ||
      value < spec.min ||
      value > spec.max ||
      (spec.integer && !Number.isInteger(value))
    ) {
      throw new RangeError(
        `${name} must be ${spec.integer ? 'a whole number' : 'a number'} from ${spec.min} to ${spec.max}`,
      );
    }
    out[name] = value;
  }
  if (
    out.short_window !== undefined &&
    out.long_window !== undefined &&
    out.short_window >= out.long_window
  ) {
    throw new RangeError('short_window must be smaller than long_window');
  }
  return out;
}
