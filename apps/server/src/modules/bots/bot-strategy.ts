import {
  BUILT_IN_STRATEGY_TYPES,
  builtInStrategies,
  getBuiltInStrategy,
  resolveParameters,
  STRATEGY_CATEGORIES,
  type StrategyParameters,
} from '@solterm/engine';
import type { TBotConfig } from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import type { BacktestJob } from './backtest/backtest-job';

/** A bot's strategy as a backtest or a live run needs it: what runs, and the risk rules around it. */
export interface ResolvedStrategy {
  readonly spec: BacktestJob['strategy'];
  readonly risk: BacktestJob['risk'];
}

/**
 * Resolves a bot's `strategy_type` and config. Without code, `strategy_type` names a built-in
 * strategy whose parameters are checked against their ranges. With code (JavaScript in QuickJS or
 * Python in Pyodide, each in its sandbox), `strategy_type` is the bot's category (trend, scalper, dca, …, or a built-in's name),
 * which the marketplace's risk mapping reads.
 *
 * @throws AppError BOTS__STRATEGY_UNKNOWN or BOTS__INVALID_PARAMETERS.
 */
export function resolveBotStrategy(strategyType: string, config: TBotConfig): ResolvedStrategy {
  const percent = (value: number | null) => (value === null || value === 0 ? null : String(value));
  const risk = {
    amount: String(config.amount),
    maxPositions: config.max_positions,
    stopLossPercent: percent(config.stop_loss_percentage),
    takeProfitPercent: percent(config.take_profit_percentage),
    // Bots made before sizing existed have none: fixed_base of their amount, as they always traded.
    sizing: config.sizing ? { mode: config.sizing.mode, value: String(config.sizing.value) } : null,
  };
  if (config.code.trim() !== '') {
    const known = [...STRATEGY_CATEGORIES, ...BUILT_IN_STRATEGY_TYPES] as readonly string[];
    if (!known.includes(strategyType)) {
      throw new AppError(
        'BOTS__STRATEGY_UNKNOWN',
        `Unknown strategy_type: ${strategyType.slice(0, 40)}. A code bot names its category: ${STRATEGY_CATEGORIES.join(', ')}`,
      );
    }
    return { spec: { kind: config.language, code: config.code, parameters: config.parameters }, risk };
  }
  const strategy = getBuiltInStrategy(strategyType);
  if (!strategy) {
    throw new AppError(
      'BOTS__STRATEGY_UNKNOWN',
      `Unknown strategy_type: ${strategyType.slice(0, 40)}. Choose one of ${BUILT_IN_STRATEGY_TYPES.join(', ')}`,
    );
  }
  let parameters: StrategyParameters;
  try {
    parameters = resolveParameters(strategy, config.parameters);
  } catch (error) {
    throw new AppError('BOTS__INVALID_PARAMETERS', (error as Error).message);
  }
  return { spec: { kind: 'builtin', type: strategy.type, parameters }, risk };
}

/** The built-in strategies as the create form lists them (type, category, title, parameters). */
export function strategyCatalogue() {
  return builtInStrategies().map((strategy) => ({
    type: strategy.type,
    category: strategy.category,
    title: strategy.title,
    description: strategy.description,
    parameters: Object.entries(strategy.parameters).map(([name, spec]) => ({ name, ...spec })),
  }));
}
