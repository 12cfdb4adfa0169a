import { z } from 'zod';
import { ZBotConfigSchema, ZBotMetricsSchema, ZBotStatusSchema } from './bots.schemas';

// The bot marketplace (part 2 §2 Market, §3 marketplace fields, §7 GET /bots/marketplace, §9 risk).
// Every figure is computed by the platform from the bot's own recorded fills; nothing is entered.

/** Longest marketplace search text. */
export const MARKETPLACE_QUERY_MAX = 100;
/** Bots a marketplace page lists at most, and by default. */
export const MARKETPLACE_PAGE_MAX = 100;
export const MARKETPLACE_PAGE_DEFAULT = 20;
export const MARKETPLACE_RISKS = ['All', 'Low', 'Medium', 'High'] as const;
export const MARKETPLACE_SORTS = ['profit', 'users', 'newest', 'name'] as const;

export const ZMarketplaceQuerySchema = z.object({
  query: z
    .string()
    .trim()
    .max(MARKETPLACE_QUERY_MAX, {
      message: `Search text must be at most ${MARKETPLACE_QUERY_MAX} characters`,
    })
    .default(''),
  risk: z.enum(MARKETPLACE_RISKS, { message: 'risk must be All, Low, Medium or High' }).default('All'),
  sort: z
    .enum(MARKETPLACE_SORTS, { message: 'sort must be profit, users, newest or name' })
    .default('profit'),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(MARKETPLACE_PAGE_MAX, { message: `limit must be at most ${MARKETPLACE_PAGE_MAX}` })
    .default(MARKETPLACE_PAGE_DEFAULT),
  offset: z.coerce
    .number({ message: 'offset must be a number' })
    .int({ message: 'offset must be a whole number' })
    .min(0, { message: 'offset must be at least 0' })
    .default(0),
});
export type TMarketplaceQuery = z.input<typeof ZMarketplaceQuerySchema>;

/** A marketplace listing: the bot list fields (§3) plus the marketplace's. */
export const ZMarketplaceBotSchema = z.object({
  bot_id: z.string(),
  bot_name: z.string(),
  strategy_type: z.string(),
  status: ZBotStatusSchema,
  is_running: z.boolean(),
  network_mode: z.string(),
  ...ZBotMetricsSchema.shape,
  creator_name: z.string(),
  user_count: z.number().int(),
  description: z.string(),
  is_public: z.boolean(),
  config: ZBotConfigSchema,
  risk: z.enum(['Low', 'Medium', 'High']),
  /** Whose fills the figures come from: a paper run, an on-chain run, or none yet. */
  record_source: z.enum(['paper', 'onchain', 'none']),
  created_at: z.string(),
  /** Whether the caller published it (one's own bot cannot be copied). */
  is_yours: z.boolean(),
  /** Whether the caller holds a copy of it now (Copy Bot then says Copied). */
  is_copied: z.boolean(),
});
export type TMarketplaceBot = z.infer<typeof ZMarketplaceBotSchema>;

export const ZMarketplacePageSchema = z.object({
  bots: z.array(ZMarketplaceBotSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type TMarketplacePage = z.infer<typeof ZMarketplacePageSchema>;

/** How far the bot's live record strayed from its own backtest over the same window. */
export const ZDriftScoreSchema = z.object({
  from: z.string(),
  to: z.string(),
  live_return_pct: z.number(),
  backtest_return_pct: z.number(),
  /** live − backtest, percentage points. */
  return_gap_pct: z.number(),
  /** Fills at the same candle and side in both, over the larger count (1 = identical). */
  trade_match_ratio: z.number(),
  explanation: z.string(),
});
export type TDriftScore = z.infer<typeof ZDriftScoreSchema>;

/** GET /bots/marketplace/{id}: the listing, its verified track record and its drift score. */
export const ZMarketplaceBotDetailSchema = ZMarketplaceBotSchema.extend({
  track_record: z.object({
    live_since: z.string().nullable(),
    realised_pnl: z.number(),
    return_pct: z.number(),
    /** Portfolio value after each fill (quote token), from the start. */
    equity: z.array(z.object({ time: z.string(), value: z.number() })),
    /** The newest fills; on-chain ones link to their transaction. */
    fills: z.array(
      z.object({
        time: z.string(),
        side: z.enum(['Buy', 'Sell']),
        base_amount: z.number(),
        quote_amount: z.number(),
        transaction_hash: z.string().nullable(),
      }),
    ),
  }),
  drift: ZDriftScoreSchema.nullable(),
});
export type TMarketplaceBotDetail = z.infer<typeof ZMarketplaceBotDetailSchema>;
