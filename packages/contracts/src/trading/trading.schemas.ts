import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../errors/messages';
import { DEFAULT_SLIPPAGE_BPS, DEFAULT_TRADES_LIMIT, TRADE_HISTORY_LIMIT } from '../rules/constants';
import { SpecDecimal } from '../rules/decimal';

// Spot trading over the wire (part 1 §2, §5 and part 2 §2, §6, §7). Quantities and prices are JSON
// numbers (whole tokens; quote units per base token), as in the market API; base-unit amounts that
// must be exact travel as decimal integer strings. Times are ISO 8601.

/** Largest slippage tolerance an order may ask for (50 %). */
export const MAX_SLIPPAGE_BPS = 5000;
/** Largest priority fee, in micro-lamports per compute unit (0.01 SOL at the 200k CU limit). */
export const MAX_PRIORITY_FEE_MICRO_LAMPORTS = 50_000_000;
/** Largest quantity or price accepted in an order (anything larger overflows a u64 of base units). */
export const MAX_ORDER_NUMBER = 1e12;
/** Largest page of the trade lists. */
export const MAX_TRADES_LIMIT = 500;
/** How often the server rebroadcasts a sent transaction until it lands or expires. */
export const REBROADCAST_INTERVAL_MS = 2000;

/** Order types a trade form builds through get-unsigned-transaction. */
export const BUILT_ORDER_TYPES = ['Market', 'Limit'] as const;
export type TBuiltOrderType = (typeof BUILT_ORDER_TYPES)[number];
/** Every spot order type as orders and fills show it (trigger orders are placed through POST /trading/spot/order). */
export const ORDER_TYPES = ['Market', 'Limit', 'TakeProfit', 'StopLoss', 'TrailingStop'] as const;
export const ZOrderTypeSchema = z.enum(ORDER_TYPES);
export type TOrderType = z.infer<typeof ZOrderTypeSchema>;

/** Trigger order types as POST /trading/spot/order takes them, and the order type each becomes. */
export const TRIGGER_ORDER_TYPES = {
  take_profit: 'TakeProfit',
  stop_loss: 'StopLoss',
  trailing_stop: 'TrailingStop',
} as const satisfies Record<string, TOrderType>;
export type TTriggerOrderTypeParam = keyof typeof TRIGGER_ORDER_TYPES;
export const ZTriggerOrderTypeSchema = z.enum(
  Object.keys(TRIGGER_ORDER_TYPES) as [TTriggerOrderTypeParam, ...TTriggerOrderTypeParam[]],
  { message: "order_type must be 'take_profit', 'stop_loss' or 'trailing_stop'" },
);
/** Whether an order type is a trigger order (escrowed, executed at market by the keeper on trigger). */
export const isTriggerOrderType = (type: string): boolean =>
  (Object.values(TRIGGER_ORDER_TYPES) as string[]).includes(type);

/** Bounds of a trailing stop's distance from the best price, in percent. */
export const MIN_TRAIL_PERCENT = 0.1;
export const MAX_TRAIL_PERCENT = 50;
/** A trigger order's slippage bound around its trigger when none is given (1 %). */
export const DEFAULT_TRIGGER_SLIPPAGE_BPS = 100;

export const ORDER_SIDES = ['Buy', 'Sell'] as const;
export const ZOrderSideSchema = z.enum(ORDER_SIDES);
export type TOrderSide = z.infer<typeof ZOrderSideSchema>;

/** Pending (limit order escrowed, or sent and not yet landed), Filled, Failed, Cancelled. */
export const ORDER_STATUSES = ['Pending', 'Filled', 'Failed', 'Cancelled'] as const;
export const ZOrderStatusSchema = z.enum(ORDER_STATUSES);
export type TOrderStatus = z.infer<typeof ZOrderStatusSchema>;

/** A pair as 'BASE/QUOTE' (symbols or mints); a lone base symbol means BASE/USDC. */
const ZSymbolSchema = z
  .string({ message: 'symbol is required' })
  .trim()
  .min(1, { message: 'symbol is required' })
  .max(140, { message: 'symbol is too long' });

/** A positive, finite order number (quantity or price) no larger than {@link MAX_ORDER_NUMBER}. */
function orderNumber(requiredMessage: string) {
  return z
    .number({ message: requiredMessage })
    .refine((value) => Number.isFinite(value), { message: VALIDATION_MESSAGES.notFinite })
    .refine((value) => value > 0, { message: VALIDATION_MESSAGES.amountAndPriceNotPositive })
    .refine((value) => value <= MAX_ORDER_NUMBER, {
      message: `Amount must be at most ${new SpecDecimal(MAX_ORDER_NUMBER).toFixed()}`,
    });
}

/**
 * An order as the trade forms send it (POST /trading/get-unsigned-transaction). `quantity` is in
 * base tokens; `price` is required for limit orders (the limit) and, for market orders, is the price
 * the user saw (used for the receipt's slippage; the venue quotes its own).
 */
export const ZOrderRequestSchema = z
  .object({
    symbol: ZSymbolSchema,
    order_type: z.enum(BUILT_ORDER_TYPES).default('Market'),
    side: ZOrderSideSchema,
    quantity: orderNumber(VALIDATION_MESSAGES.spotAmountRequired),
    price: orderNumber(VALIDATION_MESSAGES.spotAmountAndPriceRequired).optional(),
    slippage_bps: z
      .number()
      .int({ message: 'slippage_bps must be a whole number' })
      .min(0, { message: 'slippage_bps must be at least 0' })
      .max(MAX_SLIPPAGE_BPS, { message: `slippage_bps must be at most ${MAX_SLIPPAGE_BPS}` })
      .default(DEFAULT_SLIPPAGE_BPS),
    /** Compute-unit price in micro-lamports (the priority fee); 0 for none. */
    priority_fee_micro_lamports: z
      .number()
      .int({ message: 'priority_fee_micro_lamports must be a whole number' })
      .min(0, { message: 'priority_fee_micro_lamports must be at least 0' })
      .max(MAX_PRIORITY_FEE_MICRO_LAMPORTS, {
        message: `priority_fee_micro_lamports must be at most ${MAX_PRIORITY_FEE_MICRO_LAMPORTS}`,
      })
      .default(0),
  })
  .refine((order) => order.order_type !== 'Limit' || order.price !== undefined, {
    message: VALIDATION_MESSAGES.spotAmountAndPriceRequired,
    path: ['price'],
  });
export type TOrderRequest = z.input<typeof ZOrderRequestSchema>;
export type TOrder = z.output<typeof ZOrderRequestSchema>;

/**
 * A take-profit, stop-loss or trailing-stop order (POST /trading/spot/order with a trigger
 * `order_type`). `amount` is in base tokens. The answer is the escrow transaction for the wallet to
 * sign, executed like any other; the order is Pending once it lands.
 */
export const ZTriggerOrderRequestSchema = z
  .object({
    symbol: ZSymbolSchema,
    order_type: ZTriggerOrderTypeSchema,
    side: ZOrderSideSchema,
    amount: orderNumber(VALIDATION_MESSAGES.spotAmountRequired),
    trigger_price: orderNumber('trigger_price must be a number').optional(),
    trail_percent: z
      .number({ message: 'trail_percent must be a number' })
      .min(MIN_TRAIL_PERCENT, { message: `trail_percent must be at least ${MIN_TRAIL_PERCENT}` })
      .max(MAX_TRAIL_PERCENT, { message: `trail_percent must be at most ${MAX_TRAIL_PERCENT}` })
      .optional(),
    max_slippage_bps: z
      .number({ message: 'max_slippage_bps must be a number' })
      .int({ message: 'max_slippage_bps must be a whole number' })
      .min(0, { message: 'max_slippage_bps must be at least 0' })
      .max(MAX_SLIPPAGE_BPS, { message: `max_slippage_bps must be at most ${MAX_SLIPPAGE_BPS}` })
      .default(DEFAULT_TRIGGER_SLIPPAGE_BPS),
    /** Another open order of the same user and pair: when either fills, the other is cancelled. */
    oco_with: z.string().uuid({ message: 'oco_with must be an order id' }).optional(),
    priority_fee_micro_lamports: z
      .number()
      .int({ message: 'priority_fee_micro_lamports must be a whole number' })
      .min(0, { message: 'priority_fee_micro_lamports must be at least 0' })
      .max(MAX_PRIORITY_FEE_MICRO_LAMPORTS, {
        message: `priority_fee_micro_lamports must be at most ${MAX_PRIORITY_FEE_MICRO_LAMPORTS}`,
      })
      .default(0),
  })
  .refine((order) => order.order_type === 'trailing_stop' || order.trigger_price !== undefined, {
    message: 'trigger_price is required for take_profit and stop_loss orders',
    path: ['trigger_price'],
  })
  .refine((order) => order.order_type !== 'trailing_stop' || order.trail_percent !== undefined, {
    message: `trail_percent (${MIN_TRAIL_PERCENT}–${MAX_TRAIL_PERCENT}) is required for trailing_stop orders`,
    path: ['trail_percent'],
  })
  .refine((order) => order.order_type !== 'trailing_stop' || order.trigger_price === undefined, {
    message: 'A trailing_stop follows the market: give trail_percent, not trigger_price',
    path: ['trigger_price'],
  })
  .refine((order) => order.order_type === 'trailing_stop' || order.trail_percent === undefined, {
    message: 'trail_percent is for trailing_stop orders only',
    path: ['trail_percent'],
  });
export type TTriggerOrderRequest = z.input<typeof ZTriggerOrderRequestSchema>;
export type TTriggerOrder = z.output<typeof ZTriggerOrderRequestSchema>;

/** The venue's quote behind a built transaction. */
export const ZTradeQuoteSchema = z.object({
  venue: z.string(),
  /** Quote units per base token the venue fills at (fees included). */
  price: z.number(),
  /** The market-data price the quote was made from. */
  market_price: z.number(),
  quantity: z.number(),
  /** Quote tokens paid (buy) or received (sell). */
  quote_amount: z.number(),
  base_symbol: z.string(),
  quote_symbol: z.string(),
  /** Venue fee in quote tokens, included in `price`. */
  venue_fee: z.number(),
  /** Price impact of the size, in basis points. */
  price_impact_bps: z.number(),
  slippage_bps: z.number().int(),
  /** Base fee plus priority fee, in lamports (decimal integer string). */
  network_fee_lamports: z.string().regex(/^\d+$/),
});
export type TTradeQuote = z.infer<typeof ZTradeQuoteSchema>;

/** POST /trading/get-unsigned-transaction result. */
export const ZUnsignedTransactionSchema = z.object({
  /** The v0 transaction, base64, with every signature but the wallet's already in place. */
  unsigned_transaction: z.string(),
  /** The order this transaction creates (limit orders: Pending until the keeper fills it). */
  order_id: z.string().nullable(),
  quote: ZTradeQuoteSchema.nullable(),
  /** The transaction is valid until the chain's block height passes this (decimal string). */
  last_valid_block_height: z.string().regex(/^\d+$/),
  size_bytes: z.number().int(),
});
export type TUnsignedTransaction = z.infer<typeof ZUnsignedTransactionSchema>;

/** POST /trading/execute-signed-transaction body (an Idempotency-Key header is honoured). */
export const ZExecuteSignedTransactionRequestSchema = z.object({
  signed_transaction: z
    .string({ message: 'signed_transaction is required' })
    .min(1, { message: 'signed_transaction is required' })
    .max(4096, { message: 'signed_transaction is too long' }),
});
export type TExecuteSignedTransactionRequest = z.infer<typeof ZExecuteSignedTransactionRequestSchema>;

/** What landing a fill cost and how it went (shown in the trade tables). */
export const ZExecutionReceiptSchema = z.object({
  quoted_price: z.number(),
  filled_price: z.number(),
  /** (filled − quoted) / quoted against the trader, in basis points. */
  slippage_bps: z.number(),
  /** Network fee paid by the wallet, in SOL. */
  network_fee_sol: z.number(),
  /** Venue fee, in quote tokens. */
  venue_fee: z.number(),
  /** From execute request to confirmation, in milliseconds. */
  time_to_land_ms: z.number().int(),
  priority_fee_micro_lamports: z.number().int(),
});
export type TExecutionReceipt = z.infer<typeof ZExecutionReceiptSchema>;

/** A spot order (part 2 §6) with the fill's receipt once filled. */
export const ZSpotOrderSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  order_type: ZOrderTypeSchema,
  side: ZOrderSideSchema,
  quantity: z.number(),
  price: z.number().nullable(),
  stop_price: z.number().nullable(),
  leverage: z.number(),
  status: ZOrderStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  /** The transaction that filled (market) or escrowed (limit) the order. */
  tx_hash: z.string().nullable(),
  /** Limit orders: the keeper's fill or the cancel refund transaction. */
  settlement_tx_hash: z.string().nullable(),
  filled_quantity: z.number(),
  average_fill_price: z.number().nullable(),
  receipt: ZExecutionReceiptSchema.nullable(),
  /** Trigger orders: the price that fires it now (a trailing stop's follows the best price; also in stop_price). */
  trigger_price: z.number().nullable().optional(),
  /** Trailing stops: the distance from the best price, in percent, and that best price so far. */
  trail_percent: z.number().nullable().optional(),
  trail_reference_price: z.number().nullable().optional(),
  /** Trigger orders: the execution's bound around the trigger, in basis points. */
  max_slippage_bps: z.number().int().nullable().optional(),
  /** The order cancelled when this one fills (and the other way round). */
  oco_with: z.string().nullable().optional(),
  /** Why a triggered order is still open (its slippage bound could not be met), or null. */
  status_reason: z.string().nullable().optional(),
});
export type TSpotOrder = z.infer<typeof ZSpotOrderSchema>;

/** POST /trading/execute-signed-transaction result. */
export const ZExecuteSignedTransactionResultSchema = z.object({
  transaction_hash: z.string(),
  status: z.enum(['confirmed', 'finalized']),
  slot: z.number().int(),
  /** The order the transaction filled or placed (null for transfers). */
  order: ZSpotOrderSchema.nullable(),
});
export type TExecuteSignedTransactionResult = z.infer<typeof ZExecuteSignedTransactionResultSchema>;

/** POST /trading/spot/order: records the filled order of an executed transaction (idempotent on tx_hash). */
export const ZRecordSpotOrderRequestSchema = z.object({
  tx_hash: z.string({ message: 'tx_hash is required' }).min(32).max(100),
  symbol: z.string().max(140).optional(),
  order_type: z.enum(BUILT_ORDER_TYPES).optional(),
  side: ZOrderSideSchema.optional(),
  quantity: z.number().optional(),
  price: z.number().optional(),
  status: z.string().max(20).optional(),
  filled_quantity: z.number().optional(),
  average_fill_price: z.number().optional(),
});
export type TRecordSpotOrderRequest = z.infer<typeof ZRecordSpotOrderRequestSchema>;

/**
 * POST /trading/spot/order body: a trigger order to place (its `order_type` is a trigger type), or
 * the record of an executed transaction (`tx_hash`). Each is validated with its own schema and messages.
 */
export const ZSpotOrderRequestSchema = z.unknown().transform((body, context) => {
  const type = (body as { order_type?: unknown } | null)?.order_type;
  const isTrigger = typeof type === 'string' && Object.hasOwn(TRIGGER_ORDER_TYPES, type);
  const parsed = isTrigger
    ? ZTriggerOrderRequestSchema.safeParse(body)
    : ZRecordSpotOrderRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data as TTriggerOrder | TRecordSpotOrderRequest;
  for (const issue of parsed.error.issues) context.addIssue({ ...issue, code: 'custom' });
  return z.NEVER;
});
export const isTriggerOrderRequest = (body: TTriggerOrder | TRecordSpotOrderRequest): body is TTriggerOrder =>
  typeof body.order_type === 'string' && Object.hasOwn(TRIGGER_ORDER_TYPES, body.order_type);

/** A fill (part 1 §2 recent trade, part 2 §6 trade). */
export const ZTradeSchema = z.object({
  id: z.string(),
  order_id: z.string(),
  symbol: z.string(),
  side: ZOrderSideSchema,
  quantity: z.number(),
  price: z.number(),
  /** quantity × price in quote tokens. */
  value: z.number(),
  order_type: ZOrderTypeSchema,
  status: z.literal('Filled'),
  tx_hash: z.string(),
  timestamp: z.string(),
  created_at: z.string(),
  receipt: ZExecutionReceiptSchema.nullable(),
});
export type TTrade = z.infer<typeof ZTradeSchema>;

export const ZTradesQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(MAX_TRADES_LIMIT, { message: `limit must be at most ${MAX_TRADES_LIMIT}` })
    .default(DEFAULT_TRADES_LIMIT),
});
export const ZTradesHistoryQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(MAX_TRADES_LIMIT, { message: `limit must be at most ${MAX_TRADES_LIMIT}` })
    .default(TRADE_HISTORY_LIMIT),
  offset: z.coerce
    .number({ message: 'offset must be a number' })
    .int({ message: 'offset must be a whole number' })
    .min(0, { message: 'offset must be at least 0' })
    .max(1_000_000, { message: 'offset must be at most 1000000' })
    .default(0),
});

/** GET /trading/trades/history: one page of the user's fills, newest first. */
export const ZTradesHistorySchema = z.object({
  trades: z.array(ZTradeSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type TTradesHistory = z.infer<typeof ZTradesHistorySchema>;

/** A position derived from the user's fills in one pair (spot: long only). */
export const ZPositionSchema = z.object({
  symbol: z.string(),
  base_symbol: z.string(),
  quote_symbol: z.string(),
  side: z.literal('Long'),
  /** Base tokens held from fills (bought minus sold). */
  size: z.number(),
  /** Average cost of the open size, quote per base. */
  average_entry_price: z.number(),
  mark_price: z.number(),
  /** size × mark, in quote tokens. */
  value: z.number(),
  unrealized_pnl: z.number(),
  pnl_percent: z.number(),
  realized_pnl: z.number(),
});
export type TPosition = z.infer<typeof ZPositionSchema>;

/** POST /trading/suggestion body. */
export const ZSuggestionRequestSchema = z.object({ symbol: ZSymbolSchema });
/** POST /trading/suggestion result: balances read from the chain and the side they allow. */
export const ZSuggestionSchema = z.object({
  symbol: z.string(),
  suggested_side: ZOrderSideSchema,
  /** Whole tokens by symbol; always has SOL and USDC, plus the pair's base and quote. */
  available_balances: z.record(z.string(), z.number()),
  price: z.number().nullable(),
});
export type TSuggestion = z.infer<typeof ZSuggestionSchema>;

/** One level of the maker's ladder. */
export const ZOrderBookLevelSchema = z.object({ price: z.number(), amount: z.number() });
/** GET /trading/orderbook/{symbol}: the local market maker's ladder (buys descending, sells ascending). */
export const ZOrderBookSchema = z.object({
  symbol: z.string(),
  mid_price: z.number(),
  spread: z.number(),
  buys: z.array(ZOrderBookLevelSchema),
  sells: z.array(ZOrderBookLevelSchema),
  updated_at: z.string(),
});
export type TOrderBook = z.infer<typeof ZOrderBookSchema>;

export const ZOrderIdParamsSchema = z.object({ id: z.string().uuid({ message: 'Invalid order id' }) });

/** Most pairs one GET /trading/tradable answers (a trending table or a page of search results). */
export const MAX_TRADABLE_PAIRS = 50;

/** GET /trading/tradable query: pairs separated by commas, `BASE/QUOTE` (symbols or mints). */
export const ZTradableQuerySchema = z.object({
  pairs: z
    .string()
    .min(1, { message: 'pairs is required' })
    .max(MAX_TRADABLE_PAIRS * 100)
    .transform((value) =>
      value
        .split(',')
        .map((pair) => pair.trim())
        .filter(Boolean),
    )
    .refine((pairs) => pairs.length >= 1 && pairs.length <= MAX_TRADABLE_PAIRS, {
      message: `pairs lists 1 to ${MAX_TRADABLE_PAIRS} pairs`,
    }),
});

/** Whether one pair can be traded on the configured venue and chain, and why not. */
export const ZPairTradabilitySchema = z.object({
  /** The pair as asked. */
  pair: z.string(),
  tradable: z.boolean(),
  /** The message a trade of this pair would fail with; null when tradable. */
  reason: z.string().nullable(),
});
export type TPairTradability = z.infer<typeof ZPairTradabilitySchema>;

/** GET /trading/tradable result, in the order asked. */
export const ZTradableSchema = z.object({ pairs: z.array(ZPairTradabilitySchema) });
export type TTradable = z.infer<typeof ZTradableSchema>;
