import { ArrowLeftRight, BookOpen, Flame, LineChart, ListOrdered, Wallet } from 'lucide-react';
import { ChartPreview, TablePreview, UpcomingPage } from '../../components/layout/upcoming';
import { Card, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';

const CAPABILITIES = [
  {
    icon: LineChart,
    title: 'Live chart',
    text: 'Dark or light theme, intervals 1S, 1M, 5M, 15M, 1H, 4H, 12H and 1D.',
  },
  {
    icon: ArrowLeftRight,
    title: 'Place orders',
    text: 'Market or limit, buy or sell, sized in the base token or as a USDC total; your wallet signs the transaction.',
  },
  {
    icon: Wallet,
    title: 'Balances',
    text: 'SOL, USDC, USDT and more from your connected wallet, checked before every order.',
  },
  {
    icon: ListOrdered,
    title: 'Orders and positions',
    text: 'Your spot orders with their on-chain status, and open positions with a one-click Close.',
  },
  { icon: BookOpen, title: 'All trades', text: 'A feed of the latest trades, refreshed every 5 seconds.' },
  {
    icon: Flame,
    title: 'Trending tokens',
    text: 'What is moving now; Buy switches the pair to that token against SOL and fills the form.',
  },
];

/** /trade: spot trading (arrives with on-chain trading). */
export default function TradePage() {
  return (
    <>
      <PageHeader title="Trade" description="Spot trading on Solana, signed in your own wallet." />
      <UpcomingPage
        arrivesWith="on-chain trading"
        summary="The terminal builds each swap as a Solana transaction with you as fee payer; your wallet signs it and the backend sends and confirms it."
        capabilities={CAPABILITIES}
        preview={
          <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <Card>
              <CardHeader title="SOL / USDC" icon={<LineChart className="size-4" />} />
              <div className="opacity-40" aria-hidden="true">
                <ChartPreview height="h-72" />
              </div>
            </Card>
            <Card>
              <CardHeader title="Your spot orders" icon={<ListOrdered className="size-4" />} />
              <div className="opacity-40" aria-hidden="true">
                <TablePreview columns={['Pair', 'Side', 'Amount', 'Status']} rows={5} />
              </div>
            </Card>
          </div>
        }
      />
    </>
  );
}
