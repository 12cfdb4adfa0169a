import type { FiredTrigger, PlaceOrderResult, TriggerOrder } from '@solterm/engine';
import type { PerpCommand } from './perp-commands';
import type { perpOrders } from './futures.tables';

// The rows of users' futures orders: as an order command placed them, as a trigger order waits,
// and what a fired trigger order became.

type PerpOrderRow = typeof perpOrders.$inferSelect;
type OrderCommand = Extract<PerpCommand, { k: 'order' }>;

/** The order row of a user's 'order' command: its size, what filled at once, and its status now. */
export function orderRowOf(command: OrderCommand, result: PlaceOrderResult, updatedAt: Date): PerpOrderRow {
  const filled = result.fills.reduce((sum, fill) => sum + fill.size, 0n);
  const value = result.fills.reduce((sum, fill) => sum + fill.size * fill.price, 0n);
  const size = result.resting + filled;
  return {
    id: BigInt(result.orderId),
    userId: command.account,
    symbol: command.market,
    side: command.side === 'buy' ? 'Long' : 'Short',
    orderType: command.type === 'market' ? 'Market' : 'Limit',
    size: (size > 0n ? size : BigInt(command.size)).toString(),
    price: command.price ?? null,
    filledSize: filled.toString(),
    filledValue: value.toString(),
    leverage: command.leverage,
    reduceOnly: command.reduceOnly,
    postOnly: command.postOnly,
    status:
      result.resting > 0n ? (filled > 0n ? 'PartiallyFilled' : 'Open') : filled > 0n ? 'Filled' : 'Cancelled',
    createdAt: new Date(command.at),
    updatedAt,
    triggerPrice: null,
    tpsl: null,
    triggeredAt: null,
    statusReason: null,
  };
}

/** The order row of a trigger order, waiting. */
export function triggerRowOf(trigger: TriggerOrder, leverage: number, updatedAt: Date): PerpOrderRow {
  return {
    id: BigInt(trigger.id),
    userId: trigger.account,
    symbol: trigger.market,
    side: trigger.side === 'buy' ? 'Long' : 'Short',
    orderType: trigger.kind === 'stop_market' ? 'StopMarket' : 'TakeProfitMarket',
    size: trigger.size.toString(),
    price: null,
    filledSize: '0',
    filledValue: '0',
    leverage,
    reduceOnly: trigger.reduceOnly,
    postOnly: false,
    status: 'Open',
    createdAt: new Date(trigger.createdAt),
    updatedAt,
    triggerPrice: trigger.triggerPrice.toString(),
    tpsl: trigger.attached,
    triggeredAt: null,
    statusReason: null,
  };
}

/** A fired trigger order's row: what its market order filled, or why it traded nothing. */
export function firedUpdateOf(fired: FiredTrigger, at: Date) {
  const fills = fired.result?.fills ?? [];
  const filled = fills.reduce((sum, fill) => sum + fill.size, 0n);
  const value = fills.reduce((sum, fill) => sum + fill.size * fill.price, 0n);
  return {
    size: fired.trigger.size.toString(),
    filledSize: filled.toString(),
    filledValue: value.toString(),
    status: filled > 0n ? 'Filled' : 'Cancelled',
    triggeredAt: at,
    statusReason: fired.refusal
      ? `Triggered, then refused: ${fired.refusal.message}`
      : filled > 0n
        ? null
        : 'Triggered, but nothing could be filled',
    updatedAt: at,
  };
}
