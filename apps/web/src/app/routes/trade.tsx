import { useRef } from 'react';
import { ListOrdered } from 'lucide-react';
import { TablePreview, UpcomingPanel } from '../../components/layout/upcoming';
import { Card } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { OrderIntentPanel } from '../../features/market/components/order-intent-panel';
import { PairHeader } from '../../features/market/components/pair-header';
import { PriceChart } from '../../features/market/components/price-chart';
import { TrendingTokens } from '../../features/market/components/trending-tokens';
import { useTradingSelection } from '../../features/market/hooks/use-trading-selection';

/**
 * /trade (spec part 2 §2): the selected pair's price and live chart, the Place Order panel (its
 * form arrives with on-chain trading; a Trending Buy prefills it), and Trending Tokens.
 */
export default function TradePage() {
  const selection = useTradingSelection();
  const orderPanelRef = useRef<HTMLDivElement>(null);
  return (
    <>
      <PageHeader
        title="Trade"
        description="Spot trading on Solana, signed in your own wallet."
        className="mb-4"
      />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,1fr)_320px]">
        <Card className="min-w-0 overflow-hidden" aria-label="Chart">
          <PairHeader selection={selection} className="border-b border-line" />
          <PriceChart selection={selection} heightClassName="h-[340px] sm:h-[440px]" />
        </Card>
        <OrderIntentPanel selection={selection} ref={orderPanelRef} />
      </div>

      <div className="mt-4">
        <TrendingTokens
          onBuy={() => orderPanelRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'nearest' })}
        />
      </div>

      <UpcomingPanel
        className="mt-4"
        title="Your spot orders, positions and all trades"
        icon={ListOrdered}
        arrivesWith="on-chain trading"
        description="Balances, your spot orders with their on-chain status, open positions with a one-click Close, and the All Trades feed refreshed every 5 seconds."
        preview={<TablePreview columns={['Pair', 'Side', 'Type', 'Amount', 'Price', 'Status', 'Time']} />}
      />
    </>
  );
}
