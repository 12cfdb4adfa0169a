import {
  BOT_INTERVALS,
  DEFAULT_BOT_CONFIG,
  DEFAULT_BOT_INTERVAL,
  type TBotCreateRequest,
  type TBotInterval,
} from '@solterm/contracts';
import type { StrategyInfo } from './bots-api';

/** The create form's text fields (inputs hold text; the request holds numbers). */
export interface BotFormValues {
  name: string;
  description: string;
  strategyType: string;
  symbol: string;
  interval: TBotInterval;
  amount: string;
  stopLoss: string;
  takeProfit: string;
  maxPositions: string;
  /** Strategy parameters by name, as typed. */
  parameters: Record<string, string>;
  isPublic: boolean;
}

/** The spec's defaults (part 2 §9): SMA crossover on SOL/USDC, 0.0001, 2 %, 3 %, 1 position, 5 and 20. */
export const INITIAL_BOT_FORM: BotFormValues = {
  name: '',
  description: '',
  strategyType: 'sma_crossover',
  symbol: DEFAULT_BOT_CONFIG.symbol,
  interval: DEFAULT_BOT_INTERVAL,
  amount: String(DEFAULT_BOT_CONFIG.amount),
  stopLoss: String(DEFAULT_BOT_CONFIG.stop_loss_percentage),
  takeProfit: String(DEFAULT_BOT_CONFIG.take_profit_percentage),
  maxPositions: String(DEFAULT_BOT_CONFIG.max_positions),
  parameters: {
    short_window: String(DEFAULT_BOT_CONFIG.parameters.short_window),
    long_window: String(DEFAULT_BOT_CONFIG.parameters.long_window),
  },
  isPublic: false,
};

export const INTERVAL_OPTIONS = BOT_INTERVALS.map((interval) => ({ value: interval, label: interval }));

/** The parameter texts of a newly chosen strategy: its defaults (the spec's windows for the SMA). */
export function parametersFor(strategy: StrategyInfo | undefined): Record<string, string> {
  if (!strategy) return {};
  return Object.fromEntries(
    strategy.parameters.map((parameter) => [parameter.name, String(parameter.default)]),
  );
}

/**
 * The create payload of the form, or the first field's problem. The server checks every rule again
 * (ranges, windows) and its message is shown when it refuses.
 *
 * @example botRequestOf({ ...INITIAL_BOT_FORM, name: 'SMA' }).ok; // true
 */
export function botRequestOf(
  values: BotFormValues,
): { ok: true; request: TBotCreateRequest } | { ok: false; error: string } {
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  const amount = number(values.amount);
  if (!(amount > 0)) return { ok: false, error: 'Amount must be greater than 0' };
  const maxPositions = number(values.maxPositions);
  if (!Number.isInteger(maxPositions) || maxPositions < 1) {
    return { ok: false, error: 'Max positions must be a whole number of at least 1' };
  }
  const percent = (text: string) => (text.trim() === '' ? null : number(text));
  const stopLoss = percent(values.stopLoss);
  const takeProfit = percent(values.takeProfit);
  if (stopLoss !== null && !(stopLoss >= 0)) return { ok: false, error: 'Stop loss must be a number ≥ 0' };
  if (takeProfit !== null && !(takeProfit >= 0))
    return { ok: false, error: 'Take profit must be a number ≥ 0' };
  const parameters: Record<string, number> = {};
  for (const [name, text] of Object.entries(values.parameters)) {
    const value = number(text);
    if (!Number.isFinite(value)) return { ok: false, error: `${name} must be a number` };
    parameters[name] = value;
  }
  return {
    ok: true,
    request: {
      name: values.name.trim() || `${values.strategyType} ${values.symbol}`,
      description: values.description.trim(),
      strategy_type: values.strategyType,
      is_public: values.isPublic,
      config: {
        code: '',
        symbol: values.symbol.trim(),
        interval: values.interval,
        amount,
        stop_loss_percentage: stopLoss,
        take_profit_percentage: takeProfit,
        max_positions: maxPositions,
        parameters,
      },
    },
  };
}
