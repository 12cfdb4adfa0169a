import {
  BUILT_IN_STRATEGY_TYPES,
  builtInStrategies,
  Dec,
  getBuiltInStrategy,
  resolveParameters,
  seededRandom,
} from '@solterm/engine';
import type { StrategyInstance, RiskRules, StrategyParameters } from '@solterm/engine';
import type { TBotConfig } from '@solterm/contracts';
import { AppError } from '../../lib/app-error';

/** A bot's strategy, ready to run: a fresh instance per run, and the risk rules the runtime applies. */
export interface ResolvedStrategy {
  readonly type: string;
  readonly parameters: StrategyParameters;
  readonly risk: RiskRules;
  /** A new instance with its own state (each backtest and each live start gets one). */
  create(seed: number): StrategyInstance;
}

/**
 * Resolves a bot's `strategy_type` and config into the engine's strategy and risk rules. Built-in
 * types run in the engine; user code (a non-empty `code`) is refused until the sandboxes run it.
 *
 * @throws AppError BOTS__STRATEGY_UNKNOWN, BOTS__CODE_NOT_SUPPORTED or BOTS__INVALID_PARAMETERS.
 */
export function resolveBotStrategy(strategyType: string, config: TBotConfig): ResolvedStrategy {
  if (config.code.trim() !== '') throw new AppError('BOTS__CODE_NOT_SUPPORTED');
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
  const percent = (value: number | null) => (value === null || value === 0 ? null : new Dec(String(value)));
  return {
    type: strategy.type,
    parameters,
    risk: {
      amount: new Dec(String(config.amount)),
      maxPositions: config.max_positions,
      stopLossPercent: percent(config.stop_loss_percentage),
      takeProfitPercent: percent(config.take_profit_percentage),
    },
    create: (seed) => strategy.create(parameters, seededRandom(seed)),
  };
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
