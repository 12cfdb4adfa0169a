import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Spot orders. Amounts are exact: `base_amount` and the escrow legs in base units, prices and
 * quantities as decimals. A market order is written when its swap lands (Filled); a limit order when
 * its escrow lands (Pending), then Filled by the keeper or Cancelled with a refund.
 */
export const spotOrders = pgTable(
  'spot_orders',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    walletAddress: text('wallet_address').notNull(),
    symbol: text('symbol').notNull(),
    baseMint: text('base_mint').notNull(),
    quoteMint: text('quote_mint').notNull(),
    orderType: text('order_type').notNull(),
    side: text('side').notNull(),
    quantity: numeric('quantity').notNull(),
    baseAmount: numeric('base_amount').notNull(),
    price: numeric('price'),
    status: text('status').notNull(),
    txHash: text('tx_hash'),
    settlementTxHash: text('settlement_tx_hash'),
    /** While settling: the block height after which an unseen settlement transaction can never land. */
    settlementValidUntil: numeric('settlement_valid_until'),
    /**
     * While settling: the claimed settlement's signed bytes (base64), stored before it is sent, so the
     * same transaction (never a second one) can be sent again after a crash.
     */
    settlementTransaction: text('settlement_transaction'),
    filledQuantity: numeric('filled_quantity').notNull(),
    averageFillPrice: numeric('average_fill_price'),
    /** Limit orders: which leg sits in escrow, how much, and what the fill pays out (base units). */
    escrowLeg: text('escrow_leg'),
    escrowAmount: numeric('escrow_amount'),
    settleAmount: numeric('settle_amount'),
    /**
     * A limit fill at the maker's price (set when the fill is claimed): escrowed units paid to the
     * maker, and units of the other leg paid to the trader; the rest of the escrow is refunded.
     */
    fillMakerAmount: numeric('fill_maker_amount'),
    fillTraderAmount: numeric('fill_trader_amount'),
    receipt: jsonb('receipt'),
    /**
     * Trigger orders (TakeProfit, StopLoss, TrailingStop): the price that fires the order now (a
     * trailing stop's moves with `trail_reference`, the best price since placement: high for a sell,
     * low for a buy — stored, so a restart resumes from it), the trail in percent, and the bound in
     * basis points around the trigger the market execution must fill within.
     */
    triggerPrice: numeric('trigger_price'),
    trailPercent: numeric('trail_percent'),
    trailReference: numeric('trail_reference'),
    maxSlippageBps: integer('max_slippage_bps'),
    /** The order this one is linked to one-cancels-the-other with (set on the newer of the two). */
    ocoWith: uuid('oco_with'),
    /** Why a triggered order is still open (its slippage bound could not be met), or null. */
    statusReason: text('status_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('spot_orders_tx_hash_unique').on(table.txHash),
    index('spot_orders_oco_idx').on(table.ocoWith),
    index('spot_orders_user_idx').on(table.userId, table.createdAt),
    index('spot_orders_status_idx').on(table.status),
  ],
);

/** Fills: one per filled order (market swap or keeper fill), with its execution receipt. */
export const spotTrades = pgTable(
  'spot_trades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => spotOrders.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    orderType: text('order_type').notNull(),
    quantity: numeric('quantity').notNull(),
    price: numeric('price').notNull(),
    txHash: text('tx_hash').notNull(),
    receipt: jsonb('receipt'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('spot_trades_order_unique').on(table.orderId),
    index('spot_trades_user_idx').on(table.userId, table.createdAt),
  ],
);
