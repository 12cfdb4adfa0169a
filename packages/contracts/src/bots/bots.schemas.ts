import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../errors/messages';
import {
  BACKTEST_COST_MODELS,
  BACKTEST_DEFAULT_FEE_BPS,
  BACKTEST_DEFAULT_SLIPPAGE_BPS,
  BACKTEST_INITIAL_BALANCE_STEP,
  BACKTEST_MAX_COST_BPS,
  BACKTEST_MIN_INITIAL_BALANCE,
  BOT_SIZING_MODES,
  BOT_STATUSES,
  BOT_TEST_DEFAULT_DAYS,
  BOT_TEST_DEFAULT_INITIAL_BALANCE,
  DEFAULT_BOT_CONFIG,
  DEFAULT_BOT_SIZING,
} from '../rules/constants';

// Bots and backtests over the wire (part 2 §3, §5, §7). Amounts and metrics are JSON numbers carrying
// decimals (whole tokens, percent), as in the rest of the API; times are ISO 8601.

/** Longest bot name and description. */
export const BOT_NAME_MAX = 80;
export const BOT_DESCRIPTION_MAX = 2_000;
/** Largest strategy source a bot may hold (one file, or a zip's files together), in characters. */
export const BOT_CODE_MAX_CHARS = 200_000;
/** Languages user strategies may be written in. */
export const BOT_CODE_LANGUAGES = ['javascript', 'python'] as const;
/** Bots one user may keep. */
export const MAX_BOTS_PER_USER = 50;
/** A live run's planned length by default, and at most (30 days). */
export const DEFAULT_BOT_RUN_HOURS = 24;
export const BOT_RUN_HOURS_MAX = 720;
/** Bots one user may run at once (each holds a strategy, and for user code a sandbox, in memory). */
export const MAX_RUNNING_BOTS_PER_USER = 5;
/** Quote tokens a paper run starts with. */
export const PAPER_BOT_BALANCE = 1000;
/** Candle intervals a strategy may run on (the chart's, without 1S and 12H). */
export const BOT_INTERVALS = ['1M', '5M', '15M', '1H', '4H', '1D'] as const;
export type TBotInterval = (typeof BOT_INTERVALS)[number];
/** The interval a bot runs on when its config names none. */
export const DEFAULT_BOT_INTERVAL: TBotInterval = '1H';
/** Most candles one backtest may cover (a year of minutes). */
export const MAX_BACKTEST_CANDLES = 527_040;
/** Largest initial balance of a backtest. */
export const MAX_BACKTEST_INITIAL_BALANCE = 1_000_000_000;
/** Fills a backtest answer lists at most (the metrics count them all). */
export const MAX_BACKTEST_TRADES_LISTED = 5_000;

export const ZBotStatusSchema = z.enum(BOT_STATUSES);
export type TBotStatus = z.infer<typeof ZBotStatusSchema>;

const percent = (name: string, max: number) =>
  z
    .number({ message: `${name} must be a number` })
    .min(0, { message: `${name} must be at least 0` })
    .max(max, { message: `${name} must be at most ${max}` });

/**
 * How a bot sizes each buy, in backtests and live runs alike: `fixed_base` buys `value` base tokens;
 * `fixed_quote` spends at most `value` quote tokens, fees and slippage included; `percent_equity`
 * spends at most `value` percent of the equity (cash plus open lots), never more than the cash.
 */
export const ZBotSizingSchema = z
  .object({
    mode: z.enum(BOT_SIZING_MODES, {
      message: `sizing.mode must be one of ${BOT_SIZING_MODES.join(', ')}`,
    }),
    value: z
      .number({ message: 'sizing.value must be a number' })
      .positive({ message: 'sizing.value must be greater than 0' })
      .max(1e9, { message: 'sizing.value must be at most 1000000000' }),
  })
  .refine((sizing) => sizing.mode !== 'percent_equity' || sizing.value <= 100, {
    message: 'sizing.value of percent_equity must be at most 100 (percent)',
    path: ['value'],
  });
export type TBotSizing = z.infer<typeof ZBotSizingSchema>;

/** A bot's strategy settings (the create payload's `config`), defaults from part 2 §9. */
export const ZBotConfigSchema = z.object({
  code: z
    .string()
    .max(BOT_CODE_MAX_CHARS, { message: `Strategy code must be at most ${BOT_CODE_MAX_CHARS} characters` })
    .default(''),
  symbol: z
    .string()
    .trim()
    .min(1, { message: 'symbol is required' })
    .max(140)
    .default(DEFAULT_BOT_CONFIG.symbol),
  amount: z
    .number({ message: 'amount must be a number' })
    .positive({ message: 'amount must be greater than 0' })
    .max(1e9, { message: 'amount must be at most 1000000000' })
    .default(DEFAULT_BOT_CONFIG.amount),
  stop_loss_percentage: percent('stop_loss_percentage', 99)
    .nullable()
    .default(DEFAULT_BOT_CONFIG.stop_loss_percentage),
  take_profit_percentage: percent('take_profit_percentage', 10_000)
    .nullable()
    .default(DEFAULT_BOT_CONFIG.take_profit_percentage),
  max_positions: z
    .number({ message: 'max_positions must be a number' })
    .int({ message: 'max_positions must be a whole number' })
    .min(1, { message: 'max_positions must be at least 1' })
    .max(100, { message: 'max_positions must be at most 100' })
    .default(DEFAULT_BOT_CONFIG.max_positions),
  /** Strategy parameters: `short_window`, `long_window`, `rsi_period`, … (numbers). */
  parameters: z
    .record(z.string().max(40), z.number({ message: 'parameters must be numbers' }))
    .refine((value) => Object.keys(value).length <= 20, { message: 'At most 20 parameters' })
    .default({ ...DEFAULT_BOT_CONFIG.parameters }),
  interval: z.enum(BOT_INTERVALS).default(DEFAULT_BOT_INTERVAL),
  /** The language of `code` (ignored without code). */
  language: z.enum(BOT_CODE_LANGUAGES).default('javascript'),
  /** How long a live run lasts: it stops itself, 'Completed', after this many hours. */
  run_hours: z
    .number({ message: 'run_hours must be a number' })
    .int({ message: 'run_hours must be a whole number' })
    .min(1, { message: 'run_hours must be at least 1' })
    .max(BOT_RUN_HOURS_MAX, { message: `run_hours must be at most ${BOT_RUN_HOURS_MAX}` })
    .default(DEFAULT_BOT_RUN_HOURS),
  /** How each buy is sized; absent (bots made before sizing): `fixed_base` of `amount`. */
  sizing: ZBotSizingSchema.optional(),
});
export type TBotConfig = z.infer<typeof ZBotConfigSchema>;

/**
 * A new (or re-saved) bot's config, `sizing` always set: as sent; without it, `fixed_base` of an
 * `amount` sent (clients that predate sizing keep their meaning), else DEFAULT_BOT_SIZING.
 */
export const ZBotNewConfigSchema = z.preprocess(
  (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const config = input as Record<string, unknown>;
    if (config.sizing !== undefined) return config;
    const { amount } = config;
    const sized = typeof amount === 'number' && Number.isFinite(amount) && amount > 0;
    return {
      ...config,
      sizing: sized ? { mode: 'fixed_base', value: amount } : { ...DEFAULT_BOT_SIZING },
    };
  },
  ZBotConfigSchema.extend({ sizing: ZBotSizingSchema }),
);

/** POST /bots (part 2 §3 "Bot create payload"). */
export const ZBotCreateRequestSchema = z.object({
  name: z
    .string({ message: 'Bot name is required' })
    .trim()
    .min(1, { message: 'Bot name is required' })
    .max(BOT_NAME_MAX, { message: `Bot name must be at most ${BOT_NAME_MAX} characters` }),
  description: z
    .string()
    .trim()
    .max(BOT_DESCRIPTION_MAX, { message: `Description must be at most ${BOT_DESCRIPTION_MAX} characters` })
    .default(''),
  strategy_type: z
    .string({ message: 'strategy_type is required' })
    .trim()
    .min(1, { message: 'strategy_type is required' })
    .max(40),
  config: ZBotNewConfigSchema.prefault({}),
  is_public: z.boolean().default(false),
});
/** A config as a client sends it (the preprocessing of ZBotNewConfigSchema hides its shape). */
type TBotConfigInput = z.input<typeof ZBotConfigSchema>;
export type TBotCreateRequest = Omit<z.input<typeof ZBotCreateRequestSchema>, 'config'> & {
  config?: TBotConfigInput;
};

/** A bot's figures, computed from its own fills (zero until it has run). */
export const ZBotMetricsSchema = z.object({
  total_trades: z.number(),
  total_pnl: z.number(),
  win_rate: z.number(),
  current_balance: z.number(),
  daily_pnl: z.number(),
  weekly_pnl: z.number(),
  monthly_pnl: z.number(),
  max_drawdown: z.number(),
  sharpe_ratio: z.number(),
  last_trade_time: z.string().nullable(),
  started_at: z.string().nullable(),
  estimated_completion: z.string().nullable(),
  current_task: z.string().nullable(),
  progress_percentage: z.number(),
});
export type TBotMetrics = z.infer<typeof ZBotMetricsSchema>;

const botIdentity = {
  bot_id: z.string(),
  bot_name: z.string(),
  strategy_type: z.string(),
  status: ZBotStatusSchema,
  is_running: z.boolean(),
  /** 'mainnet' (on-chain, real funds on the configured cluster) or 'test' (paper). */
  network_mode: z.string(),
};

/** GET /bots: a bot with the list fields of part 2 §3, plus its definition for its owner. */
export const ZBotSchema = z.object({
  ...botIdentity,
  ...ZBotMetricsSchema.shape,
  description: z.string(),
  is_public: z.boolean(),
  config: ZBotConfigSchema,
  created_at: z.string(),
  /** Users who copied this bot from the marketplace (each once). */
  user_count: z.number().int(),
  /** The marketplace bot this one is a copy of, while that exists. */
  copied_from: z.string().nullable(),
  /**
   * "SMA 5/20 by alice": the origin of a copy, as it was named when copied (kept when the origin
   * is renamed or deleted; a copy is an independent snapshot). Null for a bot the user made.
   */
  copied_from_label: z.string().nullable(),
});
export type TBot = z.infer<typeof ZBotSchema>;

/**
 * PATCH /bots/{id}: publish a bot to the marketplace or take it back (copies keep working), and, on a
 * stopped bot, change its name, description, strategy and config (each field optional; a config is
 * replaced whole, its omitted fields taking their defaults). Code and pair are checked as at create.
 */
export const ZBotUpdateRequestSchema = z
  .object({
    is_public: z.boolean({ message: 'is_public must be true or false' }),
    name: ZBotCreateRequestSchema.shape.name,
    description: z
      .string()
      .trim()
      .max(BOT_DESCRIPTION_MAX, { message: `Description must be at most ${BOT_DESCRIPTION_MAX} characters` }),
    strategy_type: ZBotCreateRequestSchema.shape.strategy_type,
    config: ZBotNewConfigSchema,
  })
  .partial()
  .refine((value) => Object.values(value).some((field) => field !== undefined), {
    message: 'Send at least one of name, description, strategy_type, config, is_public',
  });
export type TBotUpdateRequest = Omit<z.input<typeof ZBotUpdateRequestSchema>, 'config'> & {
  config?: TBotConfigInput;
};

/** GET /bots/with-status: the metrics nested under `performance`. */
export const ZBotWithStatusSchema = z.object({ ...botIdentity, performance: ZBotMetricsSchema });
export type TBotWithStatus = z.infer<typeof ZBotWithStatusSchema>;

export const ZBotIdParamsSchema = z.object({ id: z.string().uuid({ message: 'Bot not found' }) });

const dateText = z
  .string({ message: VALIDATION_MESSAGES.selectDates })
  .trim()
  .min(1, { message: VALIDATION_MESSAGES.selectDates })
  .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'Dates must be ISO 8601 (2025-01-31)' });

const initialBalance = z
  .number({ message: `Initial balance must be a number of at least ${BACKTEST_MIN_INITIAL_BALANCE}` })
  .min(BACKTEST_MIN_INITIAL_BALANCE, {
    message: `Initial balance must be at least ${BACKTEST_MIN_INITIAL_BALANCE}`,
  })
  .max(MAX_BACKTEST_INITIAL_BALANCE, {
    message: `Initial balance must be at most ${MAX_BACKTEST_INITIAL_BALANCE}`,
  });

/** The backtest page's step (part 2 §5 "initial balance minimum 100, step 100"). */
export const BACKTEST_INITIAL_BALANCE_STEP_MESSAGE = `Initial balance must be a multiple of ${BACKTEST_INITIAL_BALANCE_STEP}`;

const costBps = (name: string) =>
  z
    .number({ message: `costs.${name} must be a number of bps` })
    .min(0, { message: `costs.${name} must be at least 0 bps` })
    .max(BACKTEST_MAX_COST_BPS, { message: `costs.${name} must be at most ${BACKTEST_MAX_COST_BPS} bps` });

/**
 * How a backtest prices its fills: `venue` (default) with the live venue's RFQ arithmetic (its fee,
 * half spread and size impact); `fixed` with the given fee and slippage on every fill (defaults: the
 * venue's 5 bps each).
 */
export const ZBacktestCostsSchema = z
  .object({
    model: z
      .enum(BACKTEST_COST_MODELS, {
        message: `costs.model must be one of ${BACKTEST_COST_MODELS.join(', ')}`,
      })
      .default('venue'),
    fee_bps: costBps('fee_bps').optional(),
    slippage_bps: costBps('slippage_bps').optional(),
  })
  .refine(
    (costs) => costs.model === 'fixed' || (costs.fee_bps === undefined && costs.slippage_bps === undefined),
    {
      message:
        "costs.fee_bps and costs.slippage_bps apply to costs.model 'fixed' only (the venue model prices fills as the live venue does)",
      path: ['model'],
    },
  )
  .transform((costs) =>
    costs.model === 'venue'
      ? { model: 'venue' as const, fee_bps: null, slippage_bps: null }
      : {
          model: 'fixed' as const,
          fee_bps: costs.fee_bps ?? BACKTEST_DEFAULT_FEE_BPS,
          slippage_bps: costs.slippage_bps ?? BACKTEST_DEFAULT_SLIPPAGE_BPS,
        },
  );
export type TBacktestCosts = z.output<typeof ZBacktestCostsSchema>;

/** POST /bots/backtest (part 2 §3 "Backtest request", §5). */
export const ZBacktestRequestSchema = z
  .object({
    bot_id: z
      .string({ message: VALIDATION_MESSAGES.selectBot })
      .uuid({ message: VALIDATION_MESSAGES.selectBot }),
    start_date: dateText,
    end_date: dateText,
    initial_balance: initialBalance.multipleOf(BACKTEST_INITIAL_BALANCE_STEP, {
      message: BACKTEST_INITIAL_BALANCE_STEP_MESSAGE,
    }),
    /** The pair and interval to test on instead of the bot's own. */
    symbol: z.string().trim().min(1, { message: 'symbol must not be empty' }).max(140).optional(),
    interval: z
      .enum(BOT_INTERVALS, { message: `interval must be one of ${BOT_INTERVALS.join(', ')}` })
      .optional(),
    costs: ZBacktestCostsSchema.optional(),
  })
  .refine((value) => Date.parse(value.start_date) < Date.parse(value.end_date), {
    message: VALIDATION_MESSAGES.startBeforeEnd,
    path: ['end_date'],
  });
export type TBacktestRequest = z.infer<typeof ZBacktestRequestSchema>;
/** What a client sends (costs' defaults filled in by the server). */
export type TBacktestRequestInput = z.input<typeof ZBacktestRequestSchema>;

/**
 * POST /bots/test — "Run and Test Bot" on /bots, before the bot exists: the create payload's strategy
 * over the last `days` days (default 30) from `initial_balance` (default 1,000).
 */
export const ZBotTestRequestSchema = ZBotCreateRequestSchema.pick({
  strategy_type: true,
  config: true,
}).extend({
  days: z.number().int().min(1).max(366).default(BOT_TEST_DEFAULT_DAYS),
  initial_balance: initialBalance.default(BOT_TEST_DEFAULT_INITIAL_BALANCE),
  /** The client's id of this run: POST /bots/test/{test_id}/cancel stops it. */
  test_id: z.string().uuid({ message: 'test_id must be a UUID' }).optional(),
});
export type TBotTestRequest = Omit<z.input<typeof ZBotTestRequestSchema>, 'config'> & {
  config?: TBotConfigInput;
};

export const ZBotTestIdParamsSchema = z.object({ test_id: z.string().uuid({ message: 'Test not found' }) });

export const ZBacktestTradeSchema = z.object({
  time: z.string(),
  side: z.enum(['Buy', 'Sell']),
  quantity: z.number(),
  price: z.number(),
  /** Quote paid or received, fee included. */
  value: z.number(),
  fee: z.number(),
  /** Spread, size impact and rounding paid off the mid besides the fee (quote tokens). */
  slippage: z.number(),
  /** For a sell: proceeds − the lot's cost. */
  pnl: z.number().nullable(),
  reason: z.string(),
});
export type TBacktestTrade = z.infer<typeof ZBacktestTradeSchema>;

/** The spec's backtest result (part 2 §3) plus the metrics of a demanding trader and the trade list. */
export const ZBacktestResultSchema = z.object({
  initial_balance: z.number(),
  final_balance: z.number(),
  /** Percent. */
  total_return: z.number(),
  total_trades: z.number(),
  win_rate: z.number(),
  max_drawdown: z.number(),
  sharpe_ratio: z.number(),
  winning_trades: z.number(),
  losing_trades: z.number(),
  /** Hourly (or per-candle, for longer candles) portfolio values. */
  equity_curve: z.array(z.object({ timestamp: z.string(), value: z.number() })),
  sortino_ratio: z.number(),
  calmar_ratio: z.number(),
  profit_factor: z.number().nullable(),
  expectancy: z.number(),
  exposure: z.number(),
  fees_paid: z.number(),
  /** Slippage paid over every fill (spread, impact, rounding), quote tokens. */
  slippage_paid: z.number(),
  /** How the fills were priced (fee and slippage null: the venue's own RFQ pricing). */
  costs: z.object({
    model: z.enum(BACKTEST_COST_MODELS),
    fee_bps: z.number().nullable(),
    slippage_bps: z.number().nullable(),
  }),
  /** How the buys were sized. */
  sizing: z.object({ mode: z.enum(BOT_SIZING_MODES), value: z.number() }),
  /**
   * Buy and hold over the same candles: the whole initial balance bought at the first candle's open
   * through the same costs, held, valued at the same points as `equity_curve`.
   */
  benchmark: z.object({
    final_balance: z.number(),
    total_return: z.number(),
    max_drawdown: z.number(),
    equity_curve: z.array(z.object({ timestamp: z.string(), value: z.number() })),
  }),
  trades: z.array(ZBacktestTradeSchema),
  trades_truncated: z.boolean(),
  symbol: z.string(),
  interval: z.enum(BOT_INTERVALS),
  /** The range computed: the first candle's open to the last one's close. */
  start_date: z.string(),
  end_date: z.string(),
  /** The range asked for (the end no later than the request's time). */
  requested_start_date: z.string(),
  requested_end_date: z.string(),
  candles: z.number(),
  /** Signals the strategy gave that made no trade, by reason (e.g. 'insufficient balance'). */
  skipped_signals: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  /** What the user should know about the run: a range cut to the data, signals skipped and why. */
  notices: z.array(z.string()),
  /**
   * Every fill as CSV at GET /api/bots/backtest/exports/{export_id} (its owner only, for a while);
   * null when the fills could not be kept (the list above still holds the first ones).
   */
  export_id: z.string().nullable(),
});
export type TBacktestResult = z.infer<typeof ZBacktestResultSchema>;
