import { useState } from 'react';
import { ListOrdered } from 'lucide-react';
import type { TSpotOrder } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { getErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { tradingApi } from '../trading-api';
import { useOrderRefresh, useSpotOrders } from '../hooks/use-spot-data';
import { orderTypeLabel } from '../order-type-label';
import { formatAmount, formatQuote, formatTradeTime } from '../../../lib/format';
import { OrderStatusBadge, PairCell, SideText, SkeletonRows, splitPair, tableMessageOf } from './spot-cells';
import { TxLink } from './tx-link';

const COLUMNS = 10;

/** Toast after a cancel (wording ours; the spec only says cancel refunds the escrow). */
export const ORDER_CANCELLED_MESSAGE = 'Order cancelled';
export const ORDER_CANCELLED_DETAIL = 'The escrowed funds are back in your wallet.';
export const CANCEL_FAILED_MESSAGE = 'Failed to cancel order';

function canCancel(order: TSpotOrder): boolean {
  return order.status === 'Pending' && order.order_type !== 'Market';
}

/** A trigger order's price cell: its (live) trigger, a trailing stop's trail, and why it is kept. */
function TriggerPrice({ order, quote }: { order: TSpotOrder; quote: string }) {
  return (
    <span className="flex flex-col items-end gap-0.5" data-testid="order-trigger">
      <span>
        <span className="text-faint">Trigger </span>
        {formatQuote(order.trigger_price!)} <span className="text-faint">{quote}</span>
      </span>
      {order.trail_percent != null && (
        <span className="text-[10px] text-faint">trails {order.trail_percent}% from the best price</span>
      )}
      {order.status_reason && (
        <span className="max-w-64 text-[10px] text-warn" data-testid="order-status-reason">
          {order.status_reason}
        </span>
      )}
    </span>
  );
}

function OrderRow({
  order,
  isCancelling,
  onCancel,
}: {
  order: TSpotOrder;
  isCancelling: boolean;
  onCancel: (order: TSpotOrder) => void;
}) {
  const { quote } = splitPair(order.symbol);
  const isPartial = order.filled_quantity > 0 && order.filled_quantity < order.quantity;
  return (
    <Tr data-testid="spot-order-row" data-order-id={order.id} data-status={order.status}>
      <Td className="num text-muted">{formatTradeTime(order.created_at)}</Td>
      <Td>
        <PairCell symbol={order.symbol} />
      </Td>
      <Td className="text-muted">
        {orderTypeLabel(order.order_type)}
        {order.oco_with && <span className="ml-1 text-[10px] text-faint">OCO</span>}
      </Td>
      <Td>
        <SideText side={order.side} />
      </Td>
      <Td isNumeric>{formatAmount(order.quantity)}</Td>
      <Td isNumeric>
        {order.trigger_price != null ? (
          <TriggerPrice order={order} quote={quote} />
        ) : order.price === null ? (
          <span className="text-faint">Market</span>
        ) : (
          <>
            {formatQuote(order.price)} <span className="text-faint">{quote}</span>
          </>
        )}
      </Td>
      <Td isNumeric className={isPartial ? 'text-warn' : undefined}>
        {formatAmount(order.filled_quantity)}
        {order.average_fill_price !== null && (
          <span className="block text-[10px] text-faint">avg {formatQuote(order.average_fill_price)}</span>
        )}
      </Td>
      <Td>
        <OrderStatusBadge status={order.status} />
      </Td>
      <Td>
        <div className="flex flex-col gap-0.5">
          <TxLink signature={order.tx_hash} />
          {order.settlement_tx_hash && (
            <span className="flex items-center gap-1 text-[10px] text-faint">
              {order.status === 'Cancelled' ? 'Refund' : 'Fill'}
              <TxLink signature={order.settlement_tx_hash} />
            </span>
          )}
        </div>
      </Td>
      <Td className="text-right">
        {canCancel(order) && (
          <Button
            variant="outline"
            size="xs"
            isLoading={isCancelling}
            onClick={() => onCancel(order)}
            aria-label={`Cancel ${order.side.toLowerCase()} order ${order.id}`}
          >
            Cancel
          </Button>
        )}
      </Td>
    </Tr>
  );
}

/**
 * Your Spot Orders (part 2 §2, §6): time, pair, type, side, quantity, price, filled (with its average price),
 * status, the transaction, and Cancel for a Pending limit order (the venue refunds the escrow).
 */
export function SpotOrdersTable() {
  const query = useSpotOrders();
  const refresh = useOrderRefresh();
  const [cancellingId, setCancellingId] = useState<string | null>(null);

  async function cancel(order: TSpotOrder) {
    setCancellingId(order.id);
    try {
      const cancelled = await tradingApi.cancelOrder(order.id);
      notify.success(ORDER_CANCELLED_MESSAGE, { description: ORDER_CANCELLED_DETAIL });
      refresh(cancelled);
    } catch (error) {
      notify.error(getErrorMessage(error, CANCEL_FAILED_MESSAGE));
      refresh();
    } finally {
      setCancellingId(null);
    }
  }

  const orders = query.data ?? [];
  const message = tableMessageOf(query, orders.length, {
    failedTitle: 'Orders could not be loaded',
    failedFallback: 'Failed to load trading data',
    empty: {
      icon: <ListOrdered className="size-4" />,
      title: 'No open orders',
      description: 'Market and limit orders you place show here with their on-chain status.',
    },
  });
  if (message) return message;
  return (
    <Table aria-label="Your spot orders">
      <THead>
        <tr>
          <Th>Time</Th>
          <Th>Pair</Th>
          <Th>Type</Th>
          <Th>Side</Th>
          <Th isNumeric>Quantity</Th>
          <Th isNumeric>Price</Th>
          <Th isNumeric>Filled · avg</Th>
          <Th>Status</Th>
          <Th>Tx</Th>
          <Th className="text-right">
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </THead>
      <TBody>
        {query.isPending ? (
          <SkeletonRows columns={COLUMNS} />
        ) : (
          orders.map((order) => (
            <OrderRow
              key={order.id}
              order={order}
              isCancelling={cancellingId === order.id}
              onCancel={(target) => void cancel(target)}
            />
          ))
        )}
      </TBody>
    </Table>
  );
}
