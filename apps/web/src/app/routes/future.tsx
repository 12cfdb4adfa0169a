import { BookOpen, CandlestickChart, Landmark, Layers, SlidersHorizontal, Users } from 'lucide-react';
import { ChartPreview, UpcomingPage } from '../../components/layout/upcoming';
import { Card, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';

const CAPABILITIES = [
  {
    icon: Landmark,
    title: 'USDC collateral',
    text: 'Initialise your futures account with a first deposit (minimum 1 USDC), then deposit or withdraw at will.',
  },
  {
    icon: SlidersHorizontal,
    title: 'Order panel',
    text: 'Open, add to or close long and short positions, market or limit, with 1–100x leverage and risk labels.',
  },
  { icon: BookOpen, title: 'Order book', text: 'Bids, asks and the spread, refreshed every 2 seconds.' },
  {
    icon: Layers,
    title: 'Orders and positions',
    text: 'Your latest futures orders and open positions with entry, mark price and PnL.',
  },
  {
    icon: CandlestickChart,
    title: 'Markets',
    text: 'SOL-PERP, BTC-PERP, ETH-PERP and more, with funding, open interest and volume. Fees 0.0700% taker / 0.0400% maker.',
  },
  {
    icon: Users,
    title: 'Holder analysis',
    text: 'Top holders of the traded token with tabs All, Smart 1, KOL/VC12, Remarks and Tracking.',
  },
];

/** /future: perpetual futures (arrives with the futures issue). */
export default function FuturePage() {
  return (
    <>
      <PageHeader
        title="Futures"
        description="Perpetual futures with cross-margin and up to 100x leverage."
      />
      <UpcomingPage
        arrivesWith="the perpetuals engine"
        summary="Trade perpetual contracts against a price-time-priority order book, with hourly funding and liquidation below maintenance margin."
        capabilities={CAPABILITIES}
        preview={
          <Card>
            <CardHeader title="SOL-PERP" icon={<CandlestickChart className="size-4" />} />
            <div className="opacity-40" aria-hidden="true">
              <ChartPreview height="h-64" />
            </div>
          </Card>
        }
      />
    </>
  );
}
