import { PieChart, TrendingUp, Wallet } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { Card, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { Sparkline } from '../../components/ui/sparkline';
import { Table, TBody, Td, Th, THead, Tr } from '../../components/ui/table';
import { cn } from '../../lib/cn';
import { sampleWalk } from '../../features/landing/sample-market';
import { formatPlainPercent } from '../../lib/format';

interface Holding {
  symbol: string;
  name: string;
  balance: string;
  price: string;
  value: number;
  change: number;
  color: string;
}

const HOLDINGS: readonly Holding[] = [
  {
    symbol: 'SOL',
    name: 'Solana',
    balance: '48.2150',
    price: '$172.45',
    value: 8314.68,
    change: 3.21,
    color: '#8b7bff',
  },
  {
    symbol: 'USDC',
    name: 'USD Coin',
    balance: '3,250.00',
    price: '$1.00',
    value: 3250.0,
    change: 0.0,
    color: '#4aa8ff',
  },
  {
    symbol: 'JUP',
    name: 'Jupiter',
    balance: '1,420.00',
    price: '$1.1240',
    value: 1596.08,
    change: 5.77,
    color: '#16c784',
  },
  {
    symbol: 'BONK',
    name: 'Bonk',
    balance: '31,500,000',
    price: '$0.000024',
    value: 756.0,
    change: -2.35,
    color: '#f5b544',
  },
  {
    symbol: 'WIF',
    name: 'dogwifhat',
    balance: '142.50',
    price: '$2.8731',
    value: 409.42,
    change: 8.42,
    color: '#f0475a',
  },
];

const TOTAL = HOLDINGS.reduce((sum, holding) => sum + holding.value, 0);
const HISTORY = sampleWalk(13, 60, 12600, 0.018);

const usd = (value: number) =>
  value.toLocaleString('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });

const RING_RADIUS = 42;
const RING_CIRCUMFERENCE = 2 * Math.PI * RING_RADIUS;

/** One arc per holding, sized by its share of the total, each starting where the previous ended. */
const RING_ARCS = HOLDINGS.reduce<Array<{ holding: Holding; length: number; offset: number }>>(
  (arcs, holding) => {
    const previous = arcs[arcs.length - 1];
    const offset = previous ? previous.offset + previous.length : 0;
    return [...arcs, { holding, length: (holding.value / TOTAL) * RING_CIRCUMFERENCE, offset }];
  },
  [],
);

function AllocationRing() {
  return (
    <svg viewBox="0 0 100 100" className="size-40" aria-hidden="true">
      <circle cx="50" cy="50" r={RING_RADIUS} fill="none" stroke="var(--color-raised)" strokeWidth="10" />
      {RING_ARCS.map(({ holding, length, offset }) => (
        <circle
          key={holding.symbol}
          cx="50"
          cy="50"
          r={RING_RADIUS}
          fill="none"
          stroke={holding.color}
          strokeWidth="10"
          strokeDasharray={`${Math.max(0, length - 1)} ${RING_CIRCUMFERENCE}`}
          strokeDashoffset={-offset}
          transform="rotate(-90 50 50)"
        />
      ))}
    </svg>
  );
}

/** /potfolio: portfolio overview (static mock with sample figures, no calls). */
export default function PortfolioMockPage() {
  return (
    <>
      <PageHeader
        title="Portfolio"
        description="Holdings, allocation and performance across your wallet."
        eyebrow={<Badge tone="warn">Sample data</Badge>}
      />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card className="p-5">
          <div className="flex flex-wrap items-start justify-between gap-4">
            <div>
              <p className="flex items-center gap-1.5 text-xs text-muted">
                <Wallet className="size-3.5" /> Total value
              </p>
              <p className="num mt-1 text-3xl font-semibold tracking-tight">{usd(TOTAL)}</p>
              <p className="num mt-1 text-sm text-up">
                <TrendingUp className="mr-1 inline size-4" />+{usd(412.37)} (+2.93%) · 24h
              </p>
            </div>
            <div className="grid grid-cols-3 gap-6 text-right">
              {[
                { label: 'Assets', value: String(HOLDINGS.length) },
                { label: '30d PnL', value: '+$1,904.11', tone: 'text-up' },
                { label: 'Best 24h', value: 'WIF +8.42%', tone: 'text-up' },
              ].map((stat) => (
                <div key={stat.label}>
                  <p className="text-xs text-muted">{stat.label}</p>
                  <p className={cn('num mt-1 text-sm font-semibold', stat.tone)}>{stat.value}</p>
                </div>
              ))}
            </div>
          </div>
          <Sparkline values={HISTORY} width={600} height={120} className="mt-6 h-36" />
          <p className="mt-1 text-right text-[11px] text-faint">Last 60 days</p>
        </Card>
        <Card>
          <CardHeader title="Allocation" icon={<PieChart className="size-4" />} />
          <div className="flex flex-col items-center gap-4 p-4 sm:flex-row xl:flex-col">
            <AllocationRing />
            <ul className="w-full space-y-2 text-[13px]">
              {HOLDINGS.map((holding) => (
                <li key={holding.symbol} className="flex items-center justify-between gap-3">
                  <span className="flex items-center gap-2">
                    <span className="size-2.5 rounded-sm" style={{ backgroundColor: holding.color }} />
                    {holding.symbol}
                  </span>
                  <span className="num text-muted">
                    {formatPlainPercent((holding.value / TOTAL) * 100, 1)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </Card>
      </div>
      <Card className="mt-4">
        <CardHeader title="Holdings" icon={<Wallet className="size-4" />} />
        <Table>
          <THead>
            <tr>
              <Th>Asset</Th>
              <Th isNumeric>Balance</Th>
              <Th isNumeric>Price</Th>
              <Th isNumeric>Value</Th>
              <Th isNumeric>24h</Th>
              <Th isNumeric>Allocation</Th>
            </tr>
          </THead>
          <TBody>
            {HOLDINGS.map((holding) => (
              <Tr key={holding.symbol}>
                <Td>
                  <span className="font-medium">{holding.symbol}</span>
                  <span className="ml-2 text-xs text-muted">{holding.name}</span>
                </Td>
                <Td isNumeric>{holding.balance}</Td>
                <Td isNumeric className="text-muted">
                  {holding.price}
                </Td>
                <Td isNumeric className="font-medium">
                  {usd(holding.value)}
                </Td>
                <Td
                  isNumeric
                  className={holding.change > 0 ? 'text-up' : holding.change < 0 ? 'text-down' : 'text-muted'}
                >
                  {holding.change > 0 ? '+' : ''}
                  {formatPlainPercent(holding.change)}
                </Td>
                <Td isNumeric className="text-muted">
                  {formatPlainPercent((holding.value / TOTAL) * 100, 1)}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </Card>
    </>
  );
}
