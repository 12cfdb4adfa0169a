import { BookOpen, Landmark, SlidersHorizontal } from 'lucide-react';
import { LEVERAGE_PRESETS } from '@solterm/contracts';
import { UpcomingPanel } from '../../components/layout/upcoming';
import { Card } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { HolderAnalysis } from '../../features/market/components/holder-analysis';
import { PairHeader } from '../../features/market/components/pair-header';
import { PriceChart } from '../../features/market/components/price-chart';
import { useTradingSelection } from '../../features/market/hooks/use-trading-selection';

/**
 * /future (spec part 2 §2): the live chart of the selected pair and the holder analysis of its
 * token; the order panel, order book and collateral arrive with the perpetuals engine.
 */
export default function FuturePage() {
  const selection = useTradingSelection();
  return (
    <>
      <PageHeader
        title="Futures"
        description="Perpetual futures with cross-margin and up to 100x leverage."
        className="mb-4"
      />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,1fr)_320px]">
        <Card className="min-w-0 overflow-hidden" aria-label="Chart">
          <PairHeader selection={selection} className="border-b border-line" />
          <PriceChart selection={selection} heightClassName="h-[320px] sm:h-[420px]" />
        </Card>
        <div className="flex min-w-0 flex-col gap-4">
          <UpcomingPanel
            title="Futures order"
            icon={SlidersHorizontal}
            arrivesWith="perpetual futures"
            description={`Open, add to or close long and short ${selection.base}-PERP positions, market or limit, with 1–100x leverage (presets ${LEVERAGE_PRESETS.join(', ')}) and risk labels. Fees 0.0700% taker / 0.0400% maker.`}
            preview={
              <div className="space-y-2.5 p-4">
                <div className="grid grid-cols-2 gap-2">
                  <span className="h-8 rounded-md bg-up/30" />
                  <span className="h-8 rounded-md bg-down/25" />
                </div>
                {['Amount', 'Price', 'Leverage'].map((label) => (
                  <div
                    key={label}
                    className="flex h-9 items-center rounded-md border border-line px-3 text-xs text-faint"
                  >
                    {label}
                  </div>
                ))}
              </div>
            }
          />
          <UpcomingPanel
            title="Collateral"
            icon={Landmark}
            arrivesWith="perpetual futures"
            description="USDC collateral held on chain: initialise your account with a first deposit (minimum 1 USDC), then deposit or withdraw."
          />
        </div>
      </div>

      <div className="mt-4 grid grid-cols-1 items-start gap-4 xl:grid-cols-[minmax(0,1fr)_320px]">
        <HolderAnalysis selection={selection} />
        <UpcomingPanel
          title="Order book"
          icon={BookOpen}
          arrivesWith="perpetual futures"
          description="Bids, asks and the spread of the selected market, refreshed every 2 seconds, with your futures orders and positions (first 5 of each)."
        />
      </div>
    </>
  );
}
