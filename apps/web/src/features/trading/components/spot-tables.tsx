import { useState } from 'react';
import { TRADE_MESSAGES, TRADES_FEED_POLL_MS, type TPosition } from '@solterm/contracts';
import { Card } from '../../../components/ui/card';
import { TabPanel, Tabs } from '../../../components/ui/tabs';
import { cn } from '../../../lib/cn';
import {
  useFailureToast,
  useLimitFillWatcher,
  usePositions,
  useSpotOrders,
  useTradesFeed,
} from '../hooks/use-spot-data';
import type { OrderFormWallet } from './order-form';
import { PositionsTable } from './positions-table';
import { SpotOrdersTable } from './spot-orders-table';
import { TradesFeed } from './trades-feed';

export type SpotTableTab = 'orders' | 'positions' | 'trades';

const ID_BASE = 'spot-tables';

function Count({ value, tone = 'neutral' }: { value: number | undefined; tone?: 'neutral' | 'warn' }) {
  if (value === undefined || value === 0) return null;
  return (
    <span
      className={cn(
        'num ml-1 rounded px-1 text-[10px] font-semibold',
        tone === 'warn' ? 'bg-warn-soft text-warn' : 'bg-raised text-muted',
      )}
    >
      {value}
    </span>
  );
}

/**
 * Your Spot Orders, Your Positions and All Trades in one tabbed panel. A read that starts failing
 * toasts once ('Failed to load trading data', 'Failed to fetch trades'), not on every poll.
 */
export function SpotTables({
  tab: controlledTab,
  onTabChange,
  onClosePosition,
  wallet,
  className,
}: {
  /** The shown tab when the page controls it (e.g. back to orders after placing one). */
  tab?: SpotTableTab;
  onTabChange?: (tab: SpotTableTab) => void;
  onClosePosition: (position: TPosition) => void;
  /** The page's wallet: positions then offer TP / SL. */
  wallet?: OrderFormWallet;
  className?: string;
}) {
  const [ownTab, setOwnTab] = useState<SpotTableTab>('orders');
  const tab = controlledTab ?? ownTab;
  const orders = useSpotOrders();
  const positions = usePositions();
  const trades = useTradesFeed();

  useFailureToast(orders.isError || positions.isError, TRADE_MESSAGES.tradingDataLoadFailed);
  useFailureToast(trades.isError, TRADE_MESSAGES.tradesFetchFailed);
  useLimitFillWatcher(orders.data);

  const pendingCount = orders.data?.filter((order) => order.status === 'Pending').length;

  function change(next: SpotTableTab) {
    setOwnTab(next);
    onTabChange?.(next);
  }

  return (
    <Card className={cn('flex min-w-0 flex-col', className)} data-testid="spot-tables">
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-1 border-b border-line px-4 pt-2">
        <Tabs
          idBase={ID_BASE}
          variant="underline"
          size="sm"
          value={tab}
          onChange={change}
          ariaLabel="Orders, positions and trades"
          className="-mb-px border-b-0 pt-1"
          items={[
            {
              value: 'orders',
              label: (
                <>
                  Your Spot Orders
                  <Count value={pendingCount} tone="warn" />
                </>
              ),
            },
            {
              value: 'positions',
              label: (
                <>
                  Your Positions
                  <Count value={positions.data?.length} />
                </>
              ),
            },
            {
              value: 'trades',
              label: (
                <>
                  All Trades
                  <Count value={trades.data?.length} />
                </>
              ),
            },
          ]}
        />
        {tab === 'trades' && (
          <span className="hidden pb-2 text-[11px] text-faint sm:inline" data-testid="trades-refresh">
            Latest 100 · refreshes every {TRADES_FEED_POLL_MS / 1000} s
          </span>
        )}
      </div>
      <TabPanel idBase={ID_BASE} value={tab} className="flex flex-1 flex-col">
        {tab === 'orders' && <SpotOrdersTable />}
        {tab === 'positions' && <PositionsTable onClosePosition={onClosePosition} wallet={wallet} />}
        {tab === 'trades' && <TradesFeed />}
      </TabPanel>
    </Card>
  );
}
