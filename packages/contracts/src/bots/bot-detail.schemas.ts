import { z } from 'zod';

// The owner's view of one bot (GET /bots/{id}/detail): its runs, the chosen run's fills (paged), its
// open position valued at the live price, its equity curve and its errors. Amounts are JSON numbers
// of whole tokens, rounded from exact base units; prices in the pair's quote token.

/** Fills a page holds at most, and by default. */
export const BOT_DETAIL_MAX_FILLS = 100;
export const BOT_DETAIL_DEFAULT_FILLS = 25;
/** Runs the detail lists (newest first). */
export const BOT_DETAIL_MAX_RUNS = 20;

export const ZBotDetailQuerySchema = z.object({
  /** One of the bot's runs; its newest when absent. */
  run_id: z.string().uuid({ message: 'Run not found' }).optional(),
  limit: z.coerce
    .number({ message: `limit must be 1 to ${BOT_DETAIL_MAX_FILLS}` })
    .int({ message: `limit must be 1 to ${BOT_DETAIL_MAX_FILLS}` })
    .min(1, { message: `limit must be 1 to ${BOT_DETAIL_MAX_FILLS}` })
    .max(BOT_DETAIL_MAX_FILLS, { message: `limit must be 1 to ${BOT_DETAIL_MAX_FILLS}` })
    .default(BOT_DETAIL_DEFAULT_FILLS),
  offset: z.coerce
    .number({ message: 'offset must be a whole number from 0' })
    .int({ message: 'offset must be a whole number from 0' })
    .min(0, { message: 'offset must be a whole number from 0' })
    .max(1_000_000, { message: 'offset must be a whole number from 0' })
    .default(0),
});
export type TBotDetailQuery = z.infer<typeof ZBotDetailQuerySchema>;

export const ZBotRunSummarySchema = z.object({
  run_id: z.string(),
  /** 'test' (paper) or 'mainnet' (on chain). */
  mode: z.string(),
  status: z.enum(['running', 'stopped', 'failed']),
  /** Why it stopped or failed (null while running). */
  message: z.string().nullable(),
  started_at: z.string(),
  /** When it stopped, or null while it runs. */
  stopped_at: z.string().nullable(),
  ends_at: z.string(),
  /** How long it ran (until now while running), seconds. */
  duration_seconds: z.number().int(),
  fills: z.number().int(),
  /** Round trips (sells), as the bot list counts trades. */
  trades: z.number().int(),
  realised_pnl: z.number(),
  initial_balance: z.number(),
});
export type TBotRunSummary = z.infer<typeof ZBotRunSummarySchema>;

export const ZBotDetailFillSchema = z.object({
  seq: z.number().int(),
  time: z.string(),
  side: z.enum(['Buy', 'Sell']),
  base_amount: z.number(),
  quote_amount: z.number(),
  /** Quote paid or received per base token, fee included. */
  price: z.number(),
  /** Realised PnL of a sell in the quote token (null for a buy). */
  pnl: z.number().nullable(),
  reason: z.string(),
  /** An on-chain run's swap. */
  transaction_hash: z.string().nullable(),
});
export type TBotDetailFill = z.infer<typeof ZBotDetailFillSchema>;

export const ZBotPositionSchema = z.object({
  base_amount: z.number(),
  /** Quote paid for the open lots (fees included) and per base token. */
  cost: z.number(),
  average_price: z.number(),
  /** The pair's live price (quote per base) and the position's value at it. */
  live_price: z.number().nullable(),
  market_value: z.number().nullable(),
  unrealized_pnl: z.number().nullable(),
  unrealized_pnl_pct: z.number().nullable(),
});
export type TBotPosition = z.infer<typeof ZBotPositionSchema>;

export const ZBotDetailSchema = z.object({
  bot_id: z.string(),
  bot_name: z.string(),
  symbol: z.string(),
  base_symbol: z.string(),
  quote_symbol: z.string(),
  status: z.enum(['running', 'stopped', 'failed']),
  runs: z.array(ZBotRunSummarySchema),
  /** The run shown (the newest unless run_id chose another); null for a bot that never ran. */
  run: ZBotRunSummarySchema.nullable(),
  /** Its open position, null when flat. */
  position: ZBotPositionSchema.nullable(),
  /** Cash plus open lots at each fill's price, then now at the live price. */
  equity: z.array(z.object({ time: z.string(), value: z.number() })),
  fills: z.object({
    /** Newest first. */
    items: z.array(ZBotDetailFillSchema),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  }),
  /** The runs that failed, and why. */
  errors: z.array(z.object({ run_id: z.string(), time: z.string(), message: z.string() })),
});
export type TBotDetail = z.infer<typeof ZBotDetailSchema>;
