import { useState } from 'react';
import {
  FUTURES_MESSAGES,
  FUTURES_TABLE_ROWS,
  type TFuturesOrder,
  type TFuturesPosition,
} from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { TabPanel, Tabs } from '../../../components/ui/tabs';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/toast';
import { formatFixed, formatSignedUsd, getToneClass } from '../../../lib/format';
import { AlertMeButton } from '../../alerts';
import { useCancelFuturesOrder, useCloseFuturesPosition } from '../use-futures';
import { ClosePositionDialog } from './close-position-dialog';
import { TpslDialog } from './tpsl-dialog';

type Tab = 'positions' | 'orders';
const ID_BASE = 'futures-tables';

const priceDecimals = (price: string | null) => {
  if (!price) return 2;
  const value = Math.abs(Number(price));
  return value >= 1000 ? 1 : value >= 1 ? 2 : 5;
};

export const NO_LIQUIDATION_EXPLANATION =
  'Cross margin: your whole account backs this position, and its equity covers the maintenance margin at any price (the liquidation price would be at or below 0). It appears once the account is levered enough to be liquidated.';

/** A position's liquidation price, or why it has none. */
function LiquidationCell({ position }: { position: TFuturesPosition }) {
  if (position.liquidation_price)
    return <>{formatFixed(position.liquidation_price, priceDecimals(position.mark_price))}</>;
  return (
    <span className="inline-flex flex-col items-end leading-tight" title={NO_LIQUIDATION_EXPLANATION}>
      <span className="text-fg">None</span>
      <span className="text-[10px] text-faint">covered at any price</span>
    </span>
  );
}

/** The take profit and stop loss attached to a position, or a dash. */
function TpslCell({ position }: { position: TFuturesPosition }) {
  const decimals = priceDecimals(position.mark_price);
  if (!position.take_profit && !position.stop_loss) return <span className="text-faint">—</span>;
  return (
    <span className="inline-flex flex-col items-end leading-tight" aria-label="Take profit / stop loss">
      <span className="text-up">
        TP {position.take_profit ? formatFixed(position.take_profit.trigger_price, decimals) : '—'}
      </span>
      <span className="text-down">
        SL {position.stop_loss ? formatFixed(position.stop_loss.trigger_price, decimals) : '—'}
      </span>
    </span>
  );
}

const ORDER_TYPE_LABELS: Record<TFuturesOrder['order_type'], string> = {
  Market: 'Market',
  Limit: 'Limit',
  StopMarket: 'Stop Market',
  TakeProfitMarket: 'Take Profit',
};

/** An order's type, a position TP/SL's leg, and a trigger order's trigger price. */
function OrderTypeCell({ order }: { order: TFuturesOrder }) {
  return (
    <span className="inline-flex flex-col leading-tight" title={order.status_reason ?? undefined}>
      <span>
        {ORDER_TYPE_LABELS[order.order_type]}
        {order.tpsl && <span className="text-faint"> · position {order.tpsl.toUpperCase()}</span>}
      </span>
      {order.trigger_price && (
        <span className="num text-[10px] text-faint">
          trigger {formatFixed(order.trigger_price, priceDecimals(order.trigger_price))}
        </span>
      )}
    </span>
  );
}

function PositionsHead() {
  return (
    <THead>
      <Tr>
        <Th>Market</Th>
        <Th>Side</Th>
        <Th isNumeric>Size</Th>
        <Th isNumeric>Entry · mark</Th>
        <Th isNumeric>Liq. price</Th>
        <Th isNumeric>TP / SL</Th>
        <Th isNumeric>PnL (USDC)</Th>
        <Th isNumeric className="hidden 2xl:table-cell">
          Funding
        </Th>
        <Th />
      </Tr>
    </THead>
  );
}

/** One row of Your Positions, with its TP/SL and Close actions. */
function PositionRow({
  position,
  isClosing,
  onClose,
  onProtect,
}: {
  position: TFuturesPosition;
  isClosing: boolean;
  onClose: () => void;
  onProtect: () => void;
}) {
  return (
    <Tr>
      <Td className="font-medium text-fg">{position.symbol}</Td>
      <Td>
        <Badge tone={position.side === 'Long' ? 'up' : 'down'}>
          {position.side} {position.leverage}x
        </Badge>
        <div className="num mt-0.5 text-[10px] text-faint" title={`Initial margin at ${position.leverage}x`}>
          margin {formatFixed(position.margin, 2)}
        </div>
      </Td>
      <Td isNumeric>{position.size}</Td>
      <Td isNumeric>
        {formatFixed(position.entry_price, priceDecimals(position.mark_price))}
        <span className="block text-[10px] text-faint" title="Mark price">
          {formatFixed(position.mark_price, priceDecimals(position.mark_price))}
        </span>
      </Td>
      <Td isNumeric className="text-warn">
        <LiquidationCell position={position} />
      </Td>
      <Td isNumeric className="num text-xs">
        <TpslCell position={position} />
      </Td>
      <Td isNumeric className={getToneClass(position.unrealized_pnl)}>
        {formatSignedUsd(position.unrealized_pnl)} <span className="text-[11px]">({position.pnl}%)</span>
      </Td>
      <Td isNumeric className={cn('hidden 2xl:table-cell', getToneClass(position.funding))}>
        {formatSignedUsd(position.funding)}
      </Td>
      <Td className="space-x-1 whitespace-nowrap text-right">
        <AlertMeButton compact target={{ kind: 'liquidation_risk', symbol: position.symbol }} />
        <Button size="xs" variant="ghost" onClick={onProtect}>
          TP/SL
        </Button>
        <Button size="xs" variant="secondary" onClick={onClose} isLoading={isClosing}>
          Close
        </Button>
      </Td>
    </Tr>
  );
}

/** One row of Your Futures Orders, with Cancel while it is open. */
function OrderRow({
  order,
  isCancelling,
  onCancel,
}: {
  order: TFuturesOrder;
  isCancelling: boolean;
  onCancel: () => void;
}) {
  return (
    <Tr>
      <Td className="font-medium text-fg">{order.symbol}</Td>
      <Td className={order.side === 'Long' ? 'text-up' : 'text-down'}>
        {order.side} {order.leverage}x
      </Td>
      <Td>
        <OrderTypeCell order={order} />
      </Td>
      <Td isNumeric>{order.size}</Td>
      <Td isNumeric>
        {order.price
          ? formatFixed(order.price, priceDecimals(order.price))
          : formatFixed(order.average_fill_price, priceDecimals(order.average_fill_price))}
      </Td>
      <Td isNumeric>{order.filled_size}</Td>
      <Td>
        <Badge tone={order.status === 'Filled' ? 'up' : order.status === 'Cancelled' ? 'neutral' : 'info'}>
          {order.status}
        </Badge>
      </Td>
      <Td className="text-right">
        {(order.status === 'Open' || order.status === 'PartiallyFilled') && (
          <Button size="xs" variant="ghost" onClick={onCancel} isLoading={isCancelling}>
            Cancel
          </Button>
        )}
      </Td>
    </Tr>
  );
}

/** Your Positions and Your Futures Orders, the first 5 of each (spec §9). */
export function FuturesTables({
  positions,
  orders,
  isLoading,
}: {
  positions: TFuturesPosition[] | undefined;
  orders: TFuturesOrder[] | undefined;
  isLoading: boolean;
}) {
  const [tab, setTab] = useState<Tab>('positions');
  const [closing, setClosing] = useState<TFuturesPosition | null>(null);
  const [protecting, setProtecting] = useState<TFuturesPosition | null>(null);
  const close = useCloseFuturesPosition();
  const cancel = useCancelFuturesOrder();
  const shownPositions = (positions ?? []).slice(0, FUTURES_TABLE_ROWS);
  const shownOrders = (orders ?? []).slice(0, FUTURES_TABLE_ROWS);
  const openOrders = (orders ?? []).filter(
    (order) => order.status === 'Open' || order.status === 'PartiallyFilled',
  );

  async function closePosition(position: TFuturesPosition) {
    try {
      const result = await close.mutateAsync(position.id);
      notify.success(`Closed ${position.symbol}: realized ${formatSignedUsd(result.realized_pnl)} USDC`);
    } catch (caught) {
      notify.error(`${FUTURES_MESSAGES.closePositionFailed}: ${getErrorMessage(caught, 'try again')}`);
    } finally {
      setClosing(null);
    }
  }

  async function cancelOrder(order: TFuturesOrder) {
    try {
      await cancel.mutateAsync(order.id);
      notify.success(`Cancelled ${order.side} ${order.size} ${order.symbol}`);
    } catch (caught) {
      notify.error(getErrorMessage(caught, 'Failed to cancel the order'));
    }
  }

  return (
    <Card className="min-w-0 overflow-hidden" aria-label="Your futures">
      <ClosePositionDialog
        position={closing}
        priceDecimals={priceDecimals(closing?.mark_price ?? null)}
        isClosing={close.isPending}
        onConfirm={(position) => void closePosition(position)}
        onClose={() => setClosing(null)}
      />
      <TpslDialog position={protecting} onClose={() => setProtecting(null)} />
      <div className="border-b border-line px-3 pt-2">
        <Tabs
          variant="underline"
          size="sm"
          idBase={ID_BASE}
          ariaLabel="Your futures"
          value={tab}
          onChange={setTab}
          items={[
            { value: 'positions', label: `Your Positions (${positions?.length ?? 0})` },
            { value: 'orders', label: `Your Futures Orders (${openOrders.length} open)` },
          ]}
        />
      </div>
      <TabPanel idBase={ID_BASE} value={tab}>
        {tab === 'positions' &&
          (isLoading ? (
            <Skeleton className="m-3 h-20" />
          ) : shownPositions.length === 0 ? (
            <EmptyState title="No open positions" description="Open a long or short from the order panel." />
          ) : (
            <div className="overflow-x-auto">
              <Table>
                <PositionsHead />
                <TBody>
                  {shownPositions.map((position) => (
                    <PositionRow
                      key={position.id}
                      position={position}
                      isClosing={close.isPending && close.variables === position.id}
                      onClose={() => setClosing(position)}
                      onProtect={() => setProtecting(position)}
                    />
                  ))}
                </TBody>
              </Table>
            </div>
          ))}
        {tab === 'orders' &&
          (isLoading ? (
            <Skeleton className="m-3 h-20" />
          ) : shownOrders.length === 0 ? (
            <EmptyState
              title="No futures orders yet"
              description="Market, limit and trigger orders appear here."
            />
          ) : (
            <div className="overflow-x-auto">
              <Table>
                <THead>
                  <Tr>
                    <Th>Market</Th>
                    <Th>Side</Th>
                    <Th>Type</Th>
                    <Th isNumeric>Size</Th>
                    <Th isNumeric>Price</Th>
                    <Th isNumeric>Filled</Th>
                    <Th>Status</Th>
                    <Th />
                  </Tr>
                </THead>
                <TBody>
                  {shownOrders.map((order) => (
                    <OrderRow
                      key={order.id}
                      order={order}
                      isCancelling={cancel.isPending && cancel.variables === order.id}
                      onCancel={() => void cancelOrder(order)}
                    />
                  ))}
                </TBody>
              </Table>
            </div>
          ))}
      </TabPanel>
    </Card>
  );
}
