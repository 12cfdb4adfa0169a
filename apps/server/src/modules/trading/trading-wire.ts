import type {
  TChartFill,
  TExecutionReceipt,
  TSpotOrder,
  TTrade,
  TUnsignedTransaction,
} from '@solterm/contracts';
import {
  Dec,
  fromBaseUnits,
  parseOrderState,
  publicOrderStatus,
  type ExecutionReceipt,
} from '@solterm/engine';
import { toSignificant, toWireNumber } from '../../lib/wire-decimal';
import type { OrderRow, TradeRow } from './trading.repository';
import type { SpotQuote, VenueToken } from './venues/spot-venue';

/** A decimal as the wire's price number (10 significant digits). */
export const priceNumber = (value: Dec | string): number => toWireNumber(toSignificant(new Dec(value)));
/** A token quantity as a wire number (15 significant digits at most). */
export const quantityNumber = (value: Dec | string): number =>
  toWireNumber(toSignificant(new Dec(value), 15));
/** A USD value as a wire number (6 decimal places). */
export const moneyNumber = (value: Dec): number =>
  toWireNumber(value.toDecimalPlaces(6, Dec.ROUND_HALF_UP).toFixed());
/** Basis points or a percentage as a wire number (2 decimal places). */
export const hundredthsNumber = (value: Dec): number =>
  toWireNumber(value.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed());

/** A swap's quote as the unsigned-transaction answer shows it. */
export function swapQuoteToWire(
  quote: SpotQuote,
  pair: { base: VenueToken; quote: VenueToken },
  context: { venue: string; quantity: string; slippageBps: number; networkFeeLamports: bigint },
): NonNullable<TUnsignedTransaction['quote']> {
  return {
    venue: context.venue,
    price: priceNumber(quote.price),
    market_price: priceNumber(quote.marketPrice),
    quantity: quantityNumber(context.quantity),
    quote_amount: quantityNumber(fromBaseUnits(quote.quoteAmount, pair.quote.decimals)),
    base_symbol: pair.base.symbol,
    quote_symbol: pair.quote.symbol,
    venue_fee: quantityNumber(quote.venueFee.toDecimalPlaces(pair.quote.decimals, Dec.ROUND_HALF_UP)),
    price_impact_bps: hundredthsNumber(quote.priceImpactBps),
    slippage_bps: context.slippageBps,
    network_fee_lamports: context.networkFeeLamports.toString(),
  };
}

/** A whole-token amount for messages: plain decimal, no exponent, trailing zeros trimmed. */
export function amountText(units: bigint, decimals: number): string {
  return fromBaseUnits(units, decimals).toFixed();
}

/** The one receipt shape on the wire, from the engine's exact receipt. */
export function receiptToWire(receipt: ExecutionReceipt, quoteDecimals: number): TExecutionReceipt {
  return {
    quoted_price: priceNumber(receipt.quotedPrice),
    filled_price: priceNumber(receipt.filledPrice),
    slippage_bps: hundredthsNumber(receipt.slippageBps),
    network_fee_sol: toWireNumber(receipt.networkFeeSol.toFixed()),
    venue_fee: quantityNumber(receipt.venueFee.toDecimalPlaces(quoteDecimals, Dec.ROUND_HALF_UP)),
    time_to_land_ms: receipt.timeToLandMs,
    priority_fee_micro_lamports: receipt.priorityFeeMicroLamports,
  };
}

export function orderToWire(row: OrderRow): TSpotOrder {
  return {
    id: row.id,
    symbol: row.symbol,
    order_type: row.orderType as TSpotOrder['order_type'],
    side: row.side as TSpotOrder['side'],
    quantity: quantityNumber(row.quantity),
    price: row.price === null ? null : priceNumber(row.price),
    stop_price: row.triggerPrice === null ? null : priceNumber(row.triggerPrice),
    leverage: 1,
    status: publicOrderStatus(parseOrderState(row.status)),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    tx_hash: row.txHash,
    settlement_tx_hash: row.settlementTxHash,
    filled_quantity: quantityNumber(row.filledQuantity),
    average_fill_price: row.averageFillPrice === null ? null : priceNumber(row.averageFillPrice),
    receipt: (row.receipt as TExecutionReceipt | null) ?? null,
    trigger_price: row.triggerPrice === null ? null : priceNumber(row.triggerPrice),
    trail_percent: row.trailPercent === null ? null : toWireNumber(new Dec(row.trailPercent).toFixed()),
    trail_reference_price: row.trailReference === null ? null : priceNumber(row.trailReference),
    max_slippage_bps: row.maxSlippageBps,
    oco_with: row.ocoWith,
    status_reason: row.statusReason,
  };
}

export function tradeToWire(row: TradeRow): TTrade {
  return {
    id: row.id,
    order_id: row.orderId,
    symbol: row.symbol,
    side: row.side as TTrade['side'],
    quantity: quantityNumber(row.quantity),
    price: priceNumber(row.price),
    value: toWireNumber(
      new Dec(row.quantity).times(row.price).toDecimalPlaces(6, Dec.ROUND_HALF_UP).toFixed(),
    ),
    order_type: row.orderType as TTrade['order_type'],
    status: 'Filled',
    tx_hash: row.txHash,
    timestamp: row.createdAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    receipt: (row.receipt as TExecutionReceipt | null) ?? null,
  };
}

/** A spot fill as a chart marker: exact decimals, the instant it was recorded. */
export function tradeToChartFill(row: TradeRow): TChartFill {
  return {
    id: row.id,
    source: 'spot',
    label: 'Spot',
    side: row.side as TChartFill['side'],
    price: new Dec(row.price).toFixed(),
    quantity: new Dec(row.quantity).toFixed(),
    time: Math.floor(row.createdAt.getTime() / 1000),
  };
}
