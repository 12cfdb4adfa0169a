import {
  type TChartFill,
  type TFuturesAttachedTrigger,
  type TFuturesOrder,
  type TFuturesPosition,
  type TFuturesTrade,
} from '@solterm/contracts';
import { Dec, initialMargin, notionalOf, type PerpExchange, type PerpFill } from '@solterm/engine';
import type { PerpOrderRow, PerpTradeRow } from './futures.repository';
import { findPerpMarket, type PerpMarket } from './perp-markets';
import { createPerpWire } from './perp-wire';

// The futures API's answers from the venue's state and the users' rows: positions marked to the
// oracle with their liquidation prices, orders with their average fill, each side of a fill.

const wire = createPerpWire();

/** The take profit and stop loss attached to the user's position in a market (or null each). */
function attachedOf(exchange: PerpExchange, userId: string, market: PerpMarket) {
  const legs = exchange.triggersOf(userId, market.symbol).filter((trigger) => trigger.attached !== null);
  const leg = (which: 'tp' | 'sl'): TFuturesAttachedTrigger | null => {
    const trigger = legs.find((candidate) => candidate.attached === which);
    return trigger
      ? { order_id: String(trigger.id), trigger_price: wire.price(trigger.triggerPrice, market) }
      : null;
  };
  return { take_profit: leg('tp'), stop_loss: leg('sl') };
}

/** The user's open positions, marked to the oracle, with the cross-margin liquidation price of each. */
export function positionsOf(exchange: PerpExchange, userId: string): TFuturesPosition[] {
  const account = exchange.accounts.get(userId);
  if (!account) return [];
  return [...account.positions].map(([symbol, position]) => {
    const market = findPerpMarket(symbol)!;
    const { oracle } = exchange.market(symbol);
    const notional = notionalOf(position.size, oracle, market.sizeDecimals);
    const leverage = exchange.leverageOf(account, symbol);
    const margin = initialMargin(notional, leverage);
    const unrealized = position.quote + (position.size * oracle) / 10n ** BigInt(market.sizeDecimals);
    const entry = new Dec((-position.quote).toString())
      .div(position.size.toString())
      .times(new Dec(10).pow(market.sizeDecimals))
      .div(1_000_000)
      .abs();
    const liquidation = exchange.liquidationPriceOf(account, symbol);
    return {
      id: symbol,
      symbol,
      market_symbol: symbol,
      direction: position.size > 0n ? 1 : -1,
      side: position.size > 0n ? 'Long' : 'Short',
      size: wire.size(position.size < 0n ? -position.size : position.size, market),
      entry_price: entry.toFixed(wire.priceDecimals(market) + 2),
      mark_price: wire.price(oracle, market),
      pnl: margin > 0n ? new Dec(unrealized.toString()).div(margin.toString()).times(100).toFixed(2) : '0.00',
      unrealized_pnl: wire.usdc(unrealized),
      liquidation_price: liquidation ? liquidation.div(1_000_000).toFixed(wire.priceDecimals(market)) : null,
      leverage,
      margin: wire.usdc(margin),
      notional: wire.usdc(notional),
      funding: wire.usdc(position.funding),
      ...attachedOf(exchange, userId, market),
    } satisfies TFuturesPosition;
  });
}

export function tradeToWire(row: PerpTradeRow): TFuturesTrade {
  const market = findPerpMarket(row.symbol)!;
  return {
    id: row.id,
    order_id: row.orderId.toString(),
    symbol: row.symbol,
    side: row.side as TFuturesTrade['side'],
    role: row.role as TFuturesTrade['role'],
    size: wire.size(BigInt(row.size), market),
    price: wire.price(BigInt(row.price), market),
    fee: wire.usdc(BigInt(row.fee)),
    realized_pnl: wire.usdc(BigInt(row.realizedPnl)),
    liquidation: row.liquidation,
    created_at: row.createdAt.toISOString(),
  };
}

/** A fill as a chart marker: a long fill buys, a short one sells; price in USDC, size in tokens. */
export function tradeToChartFill(row: PerpTradeRow): TChartFill {
  const market = findPerpMarket(row.symbol)!;
  return {
    id: row.id,
    source: 'futures',
    label: row.liquidation ? `${row.symbol} liquidation` : row.symbol,
    side: row.side === 'Long' ? 'Buy' : 'Sell',
    price: new Dec(row.price).div(1_000_000).toFixed(),
    quantity: new Dec(row.size).div(new Dec(10).pow(market.sizeDecimals)).toFixed(),
    time: Math.floor(row.createdAt.getTime() / 1000),
  };
}

export function fillToWire(fill: PerpFill, userId: string): TFuturesTrade {
  const market = findPerpMarket(fill.market)!;
  const taker = fill.taker === userId;
  const side = taker ? fill.side : fill.side === 'buy' ? 'sell' : 'buy';
  return {
    id: `${fill.takerOrderId}:${fill.makerOrderId}`,
    order_id: String(taker ? fill.takerOrderId : fill.makerOrderId),
    symbol: fill.market,
    side: side === 'buy' ? 'Long' : 'Short',
    role: taker ? 'taker' : 'maker',
    size: wire.size(fill.size, market),
    price: wire.price(fill.price, market),
    fee: wire.usdc(taker ? fill.takerFee : fill.makerFee),
    realized_pnl: wire.usdc(taker ? fill.takerRealized : fill.makerRealized),
    liquidation: fill.liquidation,
    created_at: new Date(fill.at).toISOString(),
  };
}

/**
 * An order row as the API shows it. `liveSize`: a waiting position TP/SL's size now (it follows the
 * position in the venue; the row keeps the size it was placed with until it fires).
 */
export function orderToWire(row: PerpOrderRow, liveSize?: bigint): TFuturesOrder {
  const market = findPerpMarket(row.symbol)!;
  const filled = BigInt(row.filledSize);
  return {
    id: row.id.toString(),
    symbol: row.symbol,
    side: row.side as TFuturesOrder['side'],
    order_type: row.orderType as TFuturesOrder['order_type'],
    size: wire.size(liveSize ?? BigInt(row.size), market),
    price: row.price === null ? null : wire.price(BigInt(row.price), market),
    trigger_price: row.triggerPrice === null ? null : wire.price(BigInt(row.triggerPrice), market),
    tpsl: row.tpsl === 'tp' || row.tpsl === 'sl' ? row.tpsl : null,
    triggered_at: row.triggeredAt?.toISOString() ?? null,
    status_reason: row.statusReason,
    filled_size: wire.size(filled, market),
    average_fill_price:
      filled > 0n
        ? new Dec(row.filledValue).div(row.filledSize).div(1_000_000).toFixed(wire.priceDecimals(market))
        : null,
    leverage: row.leverage,
    reduce_only: row.reduceOnly,
    post_only: row.postOnly,
    status: row.status as TFuturesOrder['status'],
    created_at: row.createdAt.toISOString(),
  };
}
