import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../errors/messages';
import { LEVERAGE_MAX, LEVERAGE_MIN } from '../rules/constants';
import { SpecDecimal } from '../rules/decimal';

// Perpetual futures (part 2 §2 Future, §3 futures saved trade and collateral payload, §5 futures
// order and deposit rules, §7 Futures calls, §9 constants). Prices, sizes and USDC amounts travel
// as decimal strings (exact); leverage as a whole number.

/** A decimal string: what every price, size and USDC amount of the futures API is. */
const ZDecimalString = z.string();

/** Orders and positions are Long or Short (the spec's side; direction 1 or −1). */
export const FUTURES_SIDES = ['Long', 'Short'] as const;
export const FUTURES_ORDER_TYPES = ['Market', 'Limit'] as const;
/** Trigger orders: off the book until the oracle price reaches `trigger_price`, then a market order. */
export const FUTURES_TRIGGER_TYPES = ['stop_market', 'take_profit_market'] as const;
/** An order row's type: a trigger order's is StopMarket or TakeProfitMarket. */
export const FUTURES_ORDER_ROW_TYPES = [...FUTURES_ORDER_TYPES, 'StopMarket', 'TakeProfitMarket'] as const;
export const FUTURES_ORDER_STATUSES = ['Open', 'Filled', 'PartiallyFilled', 'Cancelled'] as const;

/**
 * How a futures amount, price or size is written as a string: unsigned plain decimal digits with an
 * optional point ("12", "0.5", ".5", "5."), at most 30 digits either side — no sign, exponent, hex
 * prefix, spaces or words, which a decimal parser would otherwise read ("0x10" as 16, "1e3" as 1000).
 */
export const FUTURES_DECIMAL_PATTERN = /^(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})$/;

/**
 * A futures amount, price or size: a finite JSON number, or a string in
 * {@link FUTURES_DECIMAL_PATTERN}; null for anything else.
 *
 * @example
 * parseFuturesDecimal('0.5')?.toString(); // '0.5'
 * parseFuturesDecimal('0x10');            // null
 */
export function parseFuturesDecimal(input: unknown): SpecDecimal | null {
  if (typeof input === 'number') return Number.isFinite(input) ? new SpecDecimal(input) : null;
  if (typeof input !== 'string' || !FUTURES_DECIMAL_PATTERN.test(input)) return null;
  return new SpecDecimal(input);
}

/**
 * A number the user typed, as a JSON number or a decimal string (the route reads it with
 * {@link parseFuturesDecimal}, refusing anything else with its own message).
 */
const ZAmountInput = z.union(
  [
    z.number(),
    z.string().refine((text) => text.trim() !== '', VALIDATION_MESSAGES.futuresAmountAndPriceRequired),
  ],
  { message: VALIDATION_MESSAGES.futuresAmountAndPriceRequired },
);

/** A number a record carries (saved trades, the advisory exit price): a finite number or a decimal string. */
const ZRecordedDecimal = z.union([
  z.number().finite(),
  z.string().regex(FUTURES_DECIMAL_PATTERN, { message: 'Amount/Price invalid' }),
]);

const LEVERAGE_MESSAGE = `Leverage must be a whole number from ${LEVERAGE_MIN} to ${LEVERAGE_MAX}`;
const ZLeverage = z
  .number({ message: LEVERAGE_MESSAGE })
  .int({ message: LEVERAGE_MESSAGE })
  .min(LEVERAGE_MIN, { message: LEVERAGE_MESSAGE })
  .max(LEVERAGE_MAX, { message: LEVERAGE_MESSAGE });

/** POST /futures/leverage: the account's leverage in one market (1 to the market's maximum). */
export const ZFuturesLeverageRequestSchema = z.object({
  symbol: z.string({ message: 'symbol is required' }).trim().min(1).max(32),
  leverage: ZLeverage,
});
export type TFuturesLeverageRequest = z.infer<typeof ZFuturesLeverageRequestSchema>;

/** The account's leverage setting in a market. */
export const ZFuturesLeverageSettingSchema = z.object({
  symbol: z.string(),
  leverage: z.number().int(),
  max_leverage: z.number().int(),
  /** A position or open orders are margined at it (an order cannot change it then). */
  in_use: z.boolean(),
});
export type TFuturesLeverageSetting = z.infer<typeof ZFuturesLeverageSettingSchema>;

/** POST /futures/order. `amount` is in the base token (SOL for SOL-PERP). */
export const ZFuturesOrderRequestSchema = z.object({
  symbol: z.string({ message: 'symbol is required' }).trim().min(1).max(32),
  side: z.enum(FUTURES_SIDES, { message: 'side must be Long or Short' }),
  order_type: z
    .enum(FUTURES_ORDER_TYPES, { message: 'order_type must be Market or Limit' })
    .default('Market'),
  amount: ZAmountInput,
  /** A limit order's price (USDC). */
  price: ZAmountInput.optional(),
  /**
   * Optional: the account's leverage setting for the market is used. A different value is refused
   * while the market has a position or open orders (change it with POST /futures/leverage); with
   * nothing open there, it becomes the setting.
   */
  leverage: ZLeverage.optional(),
  reduce_only: z.boolean().default(false),
  post_only: z.boolean().default(false),
  /** Immediate or cancel: what does not fill at once is dropped. */
  ioc: z.boolean().default(false),
  /**
   * A trigger order instead of a market or limit one (`order_type`, `price`, `post_only` and `ioc`
   * are then not used): a stop market fires when the oracle price moves against the order's side
   * to `trigger_price` (a Short stop falls to it, a Long stop rises to it), a take profit market
   * when it moves for it; it then trades as a market order (no further than 8 % from the oracle),
   * once, at the leverage setting of that moment.
   */
  type: z
    .enum(FUTURES_TRIGGER_TYPES, { message: 'type must be stop_market or take_profit_market' })
    .optional(),
  /** A trigger order's trigger price (USDC), compared with the market's oracle price. */
  trigger_price: ZAmountInput.optional(),
});
export type TFuturesOrderRequest = z.infer<typeof ZFuturesOrderRequestSchema>;

/** A price to set, or null to cancel that leg; absent leaves it as it is. */
const ZTpslPrice = z.union([z.number(), z.string(), z.null()]).optional();

/**
 * POST /futures/position/tpsl: a take profit and/or stop loss for the whole position in a market
 * (reduce-only trigger orders that follow its size and are cancelled when it closes).
 */
export const ZFuturesTpslRequestSchema = z.object({
  symbol: z.string({ message: 'symbol is required' }).trim().min(1).max(32),
  take_profit_price: ZTpslPrice,
  stop_loss_price: ZTpslPrice,
});
export type TFuturesTpslRequest = z.infer<typeof ZFuturesTpslRequestSchema>;

/** A take profit or stop loss attached to a position. */
export const ZFuturesAttachedTriggerSchema = z.object({
  order_id: z.string(),
  trigger_price: ZDecimalString,
});
export type TFuturesAttachedTrigger = z.infer<typeof ZFuturesAttachedTriggerSchema>;

/** POST /futures/collateral/deposit, /withdraw and /account/initialize (part 2 §3 collateral payload). */
export const ZFuturesCollateralRequestSchema = z.object({
  amount: ZAmountInput,
  token: z.literal('USDC', { message: 'Only USDC is accepted as collateral' }).default('USDC'),
  token_mint: z.string().trim().max(64).optional(),
});
export type TFuturesCollateralRequest = z.infer<typeof ZFuturesCollateralRequestSchema>;

/** POST /futures/position/close: `exit_price` is advisory (the close trades at the book, within 8 % of the oracle). */
export const ZFuturesCloseRequestSchema = z.object({
  position_id: z.string({ message: 'position_id is required' }).trim().min(1).max(64),
  exit_price: ZRecordedDecimal.optional(),
});

/** DELETE-like cancel: POST /futures/orders/{id}/cancel. */
export const ZFuturesOrderIdParamsSchema = z.object({
  id: z.coerce.number({ message: 'Order not found' }).int().positive({ message: 'Order not found' }),
});

export const ZFuturesSymbolParamsSchema = z.object({ s: z.string().trim().min(1).max(32) });
export const ZFuturesPairIdParamsSchema = z.object({ id: z.string().trim().min(1).max(32) });

/** A perpetual market (GET /futures/pairs). */
export const ZFuturesPairSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  base_symbol: z.string(),
  market_index: z.number().int(),
  tick_size: ZDecimalString,
  min_order_size: ZDecimalString,
  max_leverage: z.number().int(),
  maintenance_margin_fraction: ZDecimalString,
  oracle_price: ZDecimalString.nullable(),
  taker_fee: ZDecimalString,
  maker_fee: ZDecimalString,
});
export type TFuturesPair = z.infer<typeof ZFuturesPairSchema>;

export const ZFuturesBookLevelSchema = z.object({
  price: ZDecimalString,
  size: ZDecimalString,
  orders: z.number(),
});
export const ZFuturesOrderBookSchema = z.object({
  symbol: z.string(),
  bids: z.array(ZFuturesBookLevelSchema),
  asks: z.array(ZFuturesBookLevelSchema),
  best_bid: ZDecimalString.nullable(),
  best_ask: ZDecimalString.nullable(),
  spread: ZDecimalString.nullable(),
  spread_percent: ZDecimalString.nullable(),
  at: z.string(),
});
export type TFuturesOrderBook = z.infer<typeof ZFuturesOrderBookSchema>;

/** GET /futures/market/{s}: a market's prices, book and statistics. */
export const ZFuturesMarketSchema = z.object({
  symbol: z.string(),
  oracle_price: ZDecimalString.nullable(),
  mark_price: ZDecimalString.nullable(),
  last_price: ZDecimalString.nullable(),
  funding_rate: ZDecimalString,
  next_funding_at: z.string(),
  open_interest: ZDecimalString,
  volume_24h: ZDecimalString,
  order_book: ZFuturesOrderBookSchema,
});
export type TFuturesMarket = z.infer<typeof ZFuturesMarketSchema>;

export const ZFuturesFundingSchema = z.object({
  symbol: z.string(),
  /** The last hourly rate (positive: longs pay shorts). */
  funding_rate: ZDecimalString,
  /** The rate the premium so far this hour points to. */
  predicted_rate: ZDecimalString,
  next_funding_at: z.string(),
  history: z.array(z.object({ rate: ZDecimalString, at: z.string() })),
});
export type TFuturesFunding = z.infer<typeof ZFuturesFundingSchema>;

export const ZFuturesOpenInterestSchema = z.object({
  symbol: z.string(),
  open_interest: ZDecimalString,
  open_interest_usd: ZDecimalString,
});
export const ZFuturesVolumeSchema = z.object({
  symbol: z.string(),
  volume_24h: ZDecimalString,
  trades_24h: z.number().int(),
});

/** GET /futures/account. */
export const ZFuturesAccountSchema = z.object({
  initialized: z.boolean(),
  wallet_address: z.string().nullable(),
  /** The venue's USDC vault: deposits go there, withdrawals come from it. */
  vault_address: z.string().nullable(),
  collateral: ZDecimalString,
  equity: ZDecimalString,
  unrealized_pnl: ZDecimalString,
  initial_margin: ZDecimalString,
  maintenance_margin: ZDecimalString,
  free_collateral: ZDecimalString,
  /** Total notional over equity. */
  leverage: ZDecimalString,
  open_orders: z.number().int(),
  open_positions: z.number().int(),
  /** The leverage setting of every market (the default until set). */
  leverage_settings: z.array(ZFuturesLeverageSettingSchema),
  /** Deposits and withdrawals in flight. */
  pending_transfers: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['deposit', 'withdraw']),
      amount: ZDecimalString,
      status: z.string(),
    }),
  ),
});
export type TFuturesAccount = z.infer<typeof ZFuturesAccountSchema>;

/** A futures order (open or past). */
export const ZFuturesOrderSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  side: z.enum(FUTURES_SIDES),
  order_type: z.enum(FUTURES_ORDER_ROW_TYPES),
  size: ZDecimalString,
  price: ZDecimalString.nullable(),
  /** A trigger order's trigger price (null for market and limit orders). */
  trigger_price: ZDecimalString.nullable(),
  /** 'tp' or 'sl' when the order is a position's take profit or stop loss. */
  tpsl: z.enum(['tp', 'sl']).nullable(),
  /** When a trigger order fired (null while it waits, and for other orders). */
  triggered_at: z.string().nullable(),
  /** Why a fired trigger order traded nothing, or why it was cancelled. */
  status_reason: z.string().nullable(),
  filled_size: ZDecimalString,
  average_fill_price: ZDecimalString.nullable(),
  leverage: z.number().int(),
  reduce_only: z.boolean(),
  post_only: z.boolean(),
  status: z.enum(FUTURES_ORDER_STATUSES),
  created_at: z.string(),
});
export type TFuturesOrder = z.infer<typeof ZFuturesOrderSchema>;

/** A position (part 2 §3 Position, with the futures fields). */
export const ZFuturesPositionSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  market_symbol: z.string(),
  direction: z.union([z.literal(1), z.literal(-1)]),
  side: z.enum(FUTURES_SIDES),
  size: ZDecimalString,
  entry_price: ZDecimalString,
  mark_price: ZDecimalString,
  /** Unrealized PnL as a percent of the position's initial margin. */
  pnl: ZDecimalString,
  unrealized_pnl: ZDecimalString,
  liquidation_price: ZDecimalString.nullable(),
  leverage: z.number().int(),
  margin: ZDecimalString,
  notional: ZDecimalString,
  /** Funding received (positive) or paid over the position's life. */
  funding: ZDecimalString,
  /** The take profit and stop loss attached with POST /futures/position/tpsl. */
  take_profit: ZFuturesAttachedTriggerSchema.nullable(),
  stop_loss: ZFuturesAttachedTriggerSchema.nullable(),
});
export type TFuturesPosition = z.infer<typeof ZFuturesPositionSchema>;

export const ZFuturesTradeSchema = z.object({
  id: z.string(),
  order_id: z.string(),
  symbol: z.string(),
  side: z.enum(FUTURES_SIDES),
  role: z.enum(['taker', 'maker']),
  size: ZDecimalString,
  price: ZDecimalString,
  fee: ZDecimalString,
  realized_pnl: ZDecimalString,
  liquidation: z.boolean(),
  created_at: z.string(),
});
export type TFuturesTrade = z.infer<typeof ZFuturesTradeSchema>;

/** What POST /futures/leverage answers: the new setting and the account's margins after it. */
export const ZFuturesLeverageResultSchema = ZFuturesLeverageSettingSchema.extend({
  initial_margin: ZDecimalString,
  free_collateral: ZDecimalString,
});
export type TFuturesLeverageResult = z.infer<typeof ZFuturesLeverageResultSchema>;

/** What POST /futures/order answers: the order and its fills so far. */
export const ZFuturesOrderResultSchema = z.object({
  order: ZFuturesOrderSchema,
  fills: z.array(ZFuturesTradeSchema),
});

/** What a deposit (or initialization) answers: the transfer the wallet signs, executed like any signed transaction. */
export const ZFuturesDepositSchema = z.object({
  deposit_id: z.string(),
  amount: ZDecimalString,
  vault_address: z.string(),
  unsigned_transaction: z.string(),
  message: z.string(),
});
export type TFuturesDeposit = z.infer<typeof ZFuturesDepositSchema>;

export const ZFuturesWithdrawSchema = z.object({
  withdraw_id: z.string(),
  amount: ZDecimalString,
  signature: z.string(),
  status: z.enum(['landed']),
});

export const ZFuturesClosePositionResultSchema = z.object({
  position_id: z.string(),
  realized_pnl: ZDecimalString,
  fills: z.array(ZFuturesTradeSchema),
});

/** POST /futures/save-trade (part 2 §3 futures saved trade). */
export const ZFuturesSavedTradeSchema = z.object({
  symbol: z.string().trim().min(1).max(32),
  side: z.string().trim().min(1).max(16),
  size: ZRecordedDecimal,
  price: ZRecordedDecimal,
  leverage: z.number().int().min(LEVERAGE_MIN).max(LEVERAGE_MAX),
  margin: ZRecordedDecimal.optional(),
  drift_trade_id: z.string().max(128).nullish(),
  drift_user_account: z.string().max(64).nullish(),
  drift_market_index: z.number().int().min(0).max(10_000).nullish(),
  tx_hash: z.string().max(128).nullish(),
  signature: z.string().max(128).nullish(),
});
export const ZFuturesSavedTradeResultSchema = z.object({ id: z.string(), saved: z.literal(true) });

/** The order book channel (`futures-book:SOL-PERP`) and the trades channel (`futures-trades:SOL-PERP`). */
export const FUTURES_BOOK_CHANNEL_PREFIX = 'futures-book:';
export const FUTURES_TRADES_CHANNEL_PREFIX = 'futures-trades:';
/** A market's prices and statistics (`futures-market:SOL-PERP`): GET /futures/market without its book. */
export const FUTURES_MARKET_CHANNEL_PREFIX = 'futures-market:';
/** A user's account and positions (`futures-account:<userId>`), marked to the oracle. */
export const FUTURES_ACCOUNT_CHANNEL_PREFIX = 'futures-account:';

/** What `futures-market:<SYMBOL>` carries (the book has its own channel, `futures-book:<SYMBOL>`). */
export const ZFuturesMarketStatsSchema = ZFuturesMarketSchema.omit({ order_book: true });
export type TFuturesMarketStats = z.infer<typeof ZFuturesMarketStatsSchema>;

/** What `futures-account:<userId>` carries: GET /futures/account and GET /futures/positions together. */
export const ZFuturesAccountTickSchema = z.object({
  account: ZFuturesAccountSchema,
  positions: z.array(ZFuturesPositionSchema),
});
export type TFuturesAccountTick = z.infer<typeof ZFuturesAccountTickSchema>;
export const ZFuturesPublicTradeSchema = z.object({
  symbol: z.string(),
  side: z.enum(FUTURES_SIDES),
  size: ZDecimalString,
  price: ZDecimalString,
  at: z.string(),
});
export const ZFuturesTradesTickSchema = z.object({
  symbol: z.string(),
  trades: z.array(ZFuturesPublicTradeSchema),
});
