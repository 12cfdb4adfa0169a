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
import { useCancelFuturesOrder, useCloseFuturesPosition } from '../use-futures';
import { ClosePositionDialog } from './close-position-dialog';

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
                <THead>
                  <Tr>
                    <Th>Market</Th>
                    <Th>Side</Th>
                    <Th isNumeric>Size</Th>
                    <Th isNumeric>Entry</Th>
                    <Th isNumeric>Mark</Th>
                    <Th isNumeric>Liq. price</Th>
                    <Th isNumeric>PnL (USDC)</Th>
                    <Th isNumeric className="hidden 2xl:table-cell">
                      Funding
                    </Th>
                    <Th />
                  </Tr>
                </THead>
                <TBody>
                  {shownPositions.map((position) => (
                    <Tr key={position.id}>
                      <Td className="font-medium text-fg">{position.symbol}</Td>
                      <Td>
                        <Badge tone={position.side === 'Long' ? 'up' : 'down'}>
                          {position.side} {position.leverage}x
                        </Badge>
                        <div
                          className="num mt-0.5 text-[10px] text-faint"
                          title={`Initial margin at ${position.leverage}x`}
                        >
                          margin {formatFixed(position.margin, 2)}
                        </div>
                      </Td>
                      <Td isNumeric>{position.size}</Td>
                      <Td isNumeric>
                        {formatFixed(position.entry_price, priceDecimals(position.mark_price))}
                      </Td>
                      <Td isNumeric>
                        {formatFixed(position.mark_price, priceDecimals(position.mark_price))}
                      </Td>
                      <Td isNumeric className="text-warn">
                        <LiquidationCell position={position} />
                      </Td>
                      <Td isNumeric className={getToneClass(position.unrealized_pnl)}>
                        {formatSignedUsd(position.unrealized_pnl)}{' '}
                        <span className="text-[11px]">({position.pnl}%)</span>
                      </Td>
                      <Td isNumeric className={cn('hidden 2xl:table-cell', getToneClass(position.funding))}>
                        {formatSignedUsd(position.funding)}
                      </Td>
                      <Td className="text-right">
                        <Button
                          size="xs"
                          variant="secondary"
                          onClick={() => setClosing(position)}
                          isLoading={close.isPending && close.variables === position.id}
                        >
                          Close
                        </Button>
                      </Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
            </div>
          ))}
        {tab === 'orders' &&
          (isLoading ? (
            <Skeleton className="m-3 h-20" />
          ) : shownOrders.length === 0 ? (
            <EmptyState title="No futures orders yet" description="Market and limit orders appear here." />
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
                    <Tr key={order.id}>
                      <Td className="font-medium text-fg">{order.symbol}</Td>
                      <Td className={order.side === 'Long' ? 'text-up' : 'text-down'}>
                        {order.side} {order.leverage}x
                      </Td>
                      <Td>{order.order_type}</Td>
                      <Td isNumeric>{order.size}</Td>
                      <Td isNumeric>
                        {order.price
                          ? formatFixed(order.price, priceDecimals(order.price))
                          : formatFixed(order.average_fill_price, priceDecimals(order.average_fill_price))}
                      </Td>
                      <Td isNumeric>{order.filled_size}</Td>
                      <Td>
                        <Badge
                          tone={
                            order.status === 'Filled'
                              ? 'up'
                              : order.status === 'Cancelled'
                                ? 'neutral'
                                : 'info'
                          }
                        >
                          {order.status}
                        </Badge>
                      </Td>
                      <Td className="text-right">
                        {(order.status === 'Open' || order.status === 'PartiallyFilled') && (
                          <Button
                            size="xs"
                            variant="ghost"
                            onClick={() => void cancelOrder(order)}
                            isLoading={cancel.isPending && cancel.variables === order.id}
                          >
                            Cancel
                          </Button>
                        )}
                      </Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
            </div>
          ))}
      </TabPanel>
    </Card>
  );
}
