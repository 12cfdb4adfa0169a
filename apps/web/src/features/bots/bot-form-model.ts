import {
  BOT_CODE_MAX_CHARS,
  BOT_INTERVALS,
  DEFAULT_BOT_CONFIG,
  DEFAULT_BOT_INTERVAL,
  DEFAULT_BOT_RUN_HOURS,
  DEFAULT_BOT_SIZING,
  type TBot,
  type TBotSizing,
  type TBotCreateRequest,
  type TBotInterval,
} from '@solterm/contracts';
import { JAVASCRIPT_TEMPLATES, PYTHON_TEMPLATES, STRATEGY_CATEGORIES } from '@solterm/engine';
import type { StrategyInfo } from './bots-api';
import { strategyFromZip } from './strategy-zip';
import { formatCount } from '../../lib/format';

export const CATEGORY_OPTIONS = STRATEGY_CATEGORIES.map((category) => ({
  value: category,
  label: category.replace('_', ' '),
}));

/** Templates the editor offers: the built-ins as readable JavaScript and Python, by language. */
export const TEMPLATES: Record<BotFormValues['language'], Readonly<Record<string, string>>> = {
  javascript: JAVASCRIPT_TEMPLATES,
  python: PYTHON_TEMPLATES,
};

export const TEMPLATE_OPTIONS = Object.keys(JAVASCRIPT_TEMPLATES).map((name) => ({
  value: name,
  label: name,
}));

/**
 * The form in another language: code that is still one of the old language's templates becomes the
 * same template in the new one; edited code is kept as it is.
 */
export function switchLanguage(
  values: BotFormValues,
  language: BotFormValues['language'],
): Pick<BotFormValues, 'language' | 'code'> {
  const name = Object.entries(TEMPLATES[values.language]).find(([, code]) => code === values.code)?.[0];
  return { language, code: (name && TEMPLATES[language][name]) ?? values.code };
}

/**
 * What an uploaded file does to the form (part 2 §2: .zip, .py, .json, and .js in the picker; one
 * file; .py and .js are read into the editor). A .json file is a built-in bot's settings; a .zip an
 * entry file plus modules (strategy-zip.ts), read into the editor as one source.
 */
export function applyUpload(
  values: BotFormValues,
  file: { name: string; text: string; bytes?: Uint8Array },
): { ok: true; values: BotFormValues } | { ok: false; error: string } {
  const name = file.name.toLowerCase();
  if (file.text.length > BOT_CODE_MAX_CHARS) {
    return {
      ok: false,
      error: `The file is larger than ${formatCount(BOT_CODE_MAX_CHARS)} characters`,
    };
  }
  if (name.endsWith('.js') || name.endsWith('.py')) {
    const language = name.endsWith('.py') ? 'python' : 'javascript';
    return { ok: true, values: { ...values, source: 'code', language, code: file.text } };
  }
  if (name.endsWith('.json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(file.text);
    } catch {
      return { ok: false, error: 'The .json file is not valid JSON' };
    }
    const bot = parsed as { strategy_type?: unknown; config?: Record<string, unknown>; name?: unknown };
    if (typeof bot?.strategy_type !== 'string' || typeof bot.config !== 'object' || bot.config === null) {
      return { ok: false, error: 'The .json file must hold a bot: { "strategy_type": …, "config": { … } }' };
    }
    const config = bot.config;
    const text = (value: unknown, fallback: string) =>
      typeof value === 'number' || typeof value === 'string' ? String(value) : fallback;
    const parameters =
      typeof config.parameters === 'object' && config.parameters !== null
        ? Object.fromEntries(Object.entries(config.parameters).map(([key, value]) => [key, String(value)]))
        : values.parameters;
    return {
      ok: true,
      values: {
        ...values,
        source: 'builtin',
        strategyType: bot.strategy_type,
        name: typeof bot.name === 'string' ? bot.name : values.name,
        symbol: text(config.symbol, values.symbol),
        amount: text(config.amount, values.amount),
        stopLoss: text(config.stop_loss_percentage, values.stopLoss),
        takeProfit: text(config.take_profit_percentage, values.takeProfit),
        maxPositions: text(config.max_positions, values.maxPositions),
        parameters,
      },
    };
  }
  if (name.endsWith('.zip')) {
    const zipped = strategyFromZip(file.bytes ?? new Uint8Array());
    if (!zipped.ok) return zipped;
    return { ok: true, values: { ...values, source: 'code', language: zipped.language, code: zipped.code } };
  }
  return { ok: false, error: 'Upload a .js, .py, .json or .zip file' };
}

/** The create form's text fields (inputs hold text; the request holds numbers). */
export interface BotFormValues {
  /** A built-in strategy, or the user's own code (run in the server's sandbox). */
  source: 'builtin' | 'code';
  /** With code: its language, and the category the bot declares (the marketplace's risk reads it). */
  language: 'javascript' | 'python';
  code: string;
  category: string;
  name: string;
  description: string;
  strategyType: string;
  symbol: string;
  interval: TBotInterval;
  amount: string;
  /** How each buy is sized; `fixed_base` buys `amount`, the others spend `sizingValue`. */
  sizingMode: TBotSizing['mode'];
  sizingValue: string;
  stopLoss: string;
  takeProfit: string;
  maxPositions: string;
  /** Strategy parameters by name, as typed. */
  parameters: Record<string, string>;
  isPublic: boolean;
  /** How long a live run lasts (hours); the form keeps an edited bot's. */
  runHours: number;
}

/** The spec's defaults (part 2 §9): SMA crossover on SOL/USDC, 0.0001, 2 %, 3 %, 1 position, 5 and 20. */
export const INITIAL_BOT_FORM: BotFormValues = {
  source: 'builtin',
  language: 'javascript',
  code: JAVASCRIPT_TEMPLATES.sma_crossover,
  category: 'trend',
  name: '',
  description: '',
  strategyType: 'sma_crossover',
  symbol: DEFAULT_BOT_CONFIG.symbol,
  interval: DEFAULT_BOT_INTERVAL,
  amount: String(DEFAULT_BOT_CONFIG.amount),
  sizingMode: DEFAULT_BOT_SIZING.mode,
  sizingValue: String(DEFAULT_BOT_SIZING.value),
  stopLoss: String(DEFAULT_BOT_CONFIG.stop_loss_percentage),
  takeProfit: String(DEFAULT_BOT_CONFIG.take_profit_percentage),
  maxPositions: String(DEFAULT_BOT_CONFIG.max_positions),
  parameters: {
    short_window: String(DEFAULT_BOT_CONFIG.parameters.short_window),
    long_window: String(DEFAULT_BOT_CONFIG.parameters.long_window),
  },
  isPublic: false,
  runHours: DEFAULT_BOT_RUN_HOURS,
};

/**
 * The form filled with a saved bot, to edit it: its source (built-in or code), settings and texts.
 *
 * @example formValuesOf(bot).name === bot.bot_name; // true
 */
export function formValuesOf(bot: TBot): BotFormValues {
  const { config } = bot;
  const isCode = config.code.trim() !== '';
  return {
    source: isCode ? 'code' : 'builtin',
    language: config.language,
    code: isCode ? config.code : INITIAL_BOT_FORM.code,
    category: isCode ? bot.strategy_type : INITIAL_BOT_FORM.category,
    name: bot.bot_name,
    description: bot.description,
    strategyType: isCode ? INITIAL_BOT_FORM.strategyType : bot.strategy_type,
    symbol: config.symbol,
    interval: config.interval,
    amount: String(config.amount),
    // A bot saved before sizing existed trades its amount.
    sizingMode: config.sizing?.mode ?? 'fixed_base',
    sizingValue:
      config.sizing && config.sizing.mode !== 'fixed_base'
        ? String(config.sizing.value)
        : String(DEFAULT_BOT_SIZING.value),
    stopLoss: config.stop_loss_percentage === null ? '' : String(config.stop_loss_percentage),
    takeProfit: config.take_profit_percentage === null ? '' : String(config.take_profit_percentage),
    maxPositions: String(config.max_positions),
    parameters: Object.fromEntries(
      Object.entries(config.parameters).map(([name, value]) => [name, String(value)]),
    ),
    isPublic: bot.is_public,
    runHours: config.run_hours,
  };
}

export const SIZING_OPTIONS: { value: TBotSizing['mode']; label: string }[] = [
  { value: 'percent_equity', label: 'Percent of equity' },
  { value: 'fixed_quote', label: 'Fixed spend (quote token)' },
  { value: 'fixed_base', label: 'Fixed amount (base token)' },
];

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
  const sizingValue = values.sizingMode === 'fixed_base' ? amount : number(values.sizingValue);
  if (!(sizingValue > 0)) return { ok: false, error: 'Size per trade must be greater than 0' };
  if (values.sizingMode === 'percent_equity' && sizingValue > 100) {
    return { ok: false, error: 'Percent of equity must be at most 100' };
  }
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
  const isCode = values.source === 'code';
  if (isCode && values.code.trim() === '')
    return { ok: false, error: 'Write or upload the strategy code first' };
  const strategyType = isCode ? values.category : values.strategyType;
  return {
    ok: true,
    request: {
      name: values.name.trim() || `${strategyType} ${values.symbol}`,
      description: values.description.trim(),
      strategy_type: strategyType,
      is_public: values.isPublic,
      config: {
        code: isCode ? values.code : '',
        language: values.language,
        symbol: values.symbol.trim(),
        interval: values.interval,
        amount,
        sizing: { mode: values.sizingMode, value: sizingValue },
        stop_loss_percentage: stopLoss,
        take_profit_percentage: takeProfit,
        max_positions: maxPositions,
        parameters,
        run_hours: values.runHours,
      },
    },
  };
}
