import { Copy, Filter, Gauge, Search, Store, Users } from 'lucide-react';
import { TablePreview, UpcomingPage } from '../../components/layout/upcoming';
import { Card, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';

const CAPABILITIES = [
  { icon: Search, title: 'Search bots', text: 'Find public bots by name, creator or strategy.' },
  {
    icon: Filter,
    title: 'Filter by risk',
    text: 'All, Low, Medium or High — DCA and arbitrage count as low risk, snipers and scalpers as high.',
  },
  {
    icon: Users,
    title: 'Creator and users',
    text: 'See who built each bot, its profit and how many traders run it.',
  },
  {
    icon: Gauge,
    title: 'Detailed metrics',
    text: 'Open a bot for its full performance figures and live execution progress.',
  },
  {
    icon: Copy,
    title: 'Copy a bot',
    text: 'Copy any public bot into your own list in one click (needs a connected wallet).',
  },
];

/** /market: the bot marketplace (arrives with the bots issue). */
export default function MarketPage() {
  return (
    <>
      <PageHeader
        title="Marketplace"
        description="Discover and copy trading bots published by other traders."
      />
      <UpcomingPage
        arrivesWith="the bot runtime"
        summary="Every bot published as public appears here with its creator, strategy and track record."
        capabilities={CAPABILITIES}
        preview={
          <Card>
            <CardHeader title="Public bots" icon={<Store className="size-4" />} />
            <div className="opacity-40" aria-hidden="true">
              <TablePreview
                columns={['Name', 'Creator', 'Strategy', 'Profit', 'Risk', 'Users', '']}
                rows={4}
              />
            </div>
          </Card>
        }
      />
    </>
  );
}
