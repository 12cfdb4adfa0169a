import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  ArrowLeftRight,
  CandlestickChart,
  Eye,
  History,
  LineChart,
  PieChart,
  ShieldCheck,
  UserRound,
  Wallet,
} from 'lucide-react';
import { formatWalletTypeName, getDisplayName, shortenAddress } from '@solterm/contracts';
import { ChartPreview, TablePreview, UpcomingPanel } from '../../components/layout/upcoming';
import { Badge } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { useAuth } from '../../features/auth/use-auth';

const COINS = [
  { symbol: 'BTC', name: 'Bitcoin', pair: 'BTC/SOL' },
  { symbol: 'ETH', name: 'Ethereum', pair: 'ETH/SOL' },
  { symbol: 'SOL', name: 'Solana', pair: 'SOL/USDC' },
];

const RECENT_TRADE_COLUMNS = ['Symbol', 'Side', 'Quantity', 'Price', 'Time', 'Order type', 'Status'];

function formatMemberSince(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? '—'
    : date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

function AccountRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3 py-2 text-[13px]">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 truncate text-right">{children}</dd>
    </div>
  );
}

function AccountCard() {
  const { user } = useAuth();
  if (!user) return null;
  const hasWallet = Boolean(user.solana_wallet_address);
  return (
    <Card>
      <CardHeader title="Account" icon={<UserRound className="size-4" />} />
      <CardBody className="py-2">
        <dl className="divide-y divide-line/70">
          <AccountRow label="Username">{user.username}</AccountRow>
          <AccountRow label="Email">{user.email ?? <span className="text-faint">Not set</span>}</AccountRow>
          <AccountRow label="Wallet">
            {hasWallet ? (
              <span className="num font-mono text-xs" title={user.solana_wallet_address ?? undefined}>
                {shortenAddress(user.solana_wallet_address ?? '')}
              </span>
            ) : (
              <span className="text-faint">No wallet connected</span>
            )}
          </AccountRow>
          <AccountRow label="Access">
            {user.is_watch_only ? (
              <Badge tone="warn" icon={<Eye className="size-3" />}>
                Watch-only
              </Badge>
            ) : hasWallet ? (
              <Badge tone="up" icon={<ShieldCheck className="size-3" />}>
                {user.wallet_type ? `Signing · ${formatWalletTypeName(user.wallet_type)}` : 'Signing wallet'}
              </Badge>
            ) : (
              <Badge tone="neutral">Email account</Badge>
            )}
          </AccountRow>
          <AccountRow label="Member since">{formatMemberSince(user.created_at)}</AccountRow>
        </dl>
      </CardBody>
      {!hasWallet && (
        <div className="border-t border-line p-3">
          <Link
            to="/wallet-connect"
            className={buttonClasses({ variant: 'secondary', size: 'sm', isBlock: true })}
          >
            <Wallet className="size-4" />
            Connect a wallet
          </Link>
        </div>
      )}
    </Card>
  );
}

function CoinCardPreview({ symbol, name, pair }: { symbol: string; name: string; pair: string }) {
  return (
    <Card className="p-4">
      <div className="flex items-center justify-between">
        <div className="flex items-center gap-2.5">
          <span className="flex size-8 items-center justify-center rounded-full bg-raised text-[11px] font-bold ring-1 ring-line">
            {symbol}
          </span>
          <div>
            <p className="text-sm font-semibold">{symbol}</p>
            <p className="text-xs text-muted">{name}</p>
          </div>
        </div>
        <span className="text-[11px] text-faint">{pair}</span>
      </div>
      <div className="mt-4 flex items-end justify-between">
        <div>
          <p className="num text-lg font-semibold text-faint">$ —</p>
          <p className="num text-xs text-faint">24h —</p>
        </div>
        <span className="h-8 w-24 rounded bg-gradient-to-r from-raised to-transparent" aria-hidden="true" />
      </div>
    </Card>
  );
}

/** /dashboard: welcome, account, and the market and trading widgets (arriving with their issues). */
export default function DashboardPage() {
  const { user } = useAuth();
  return (
    <>
      <PageHeader
        eyebrow="Dashboard"
        title={`Welcome back, ${getDisplayName(user)}`}
        description="Your account at a glance. Prices, portfolio and trading widgets fill in as the market and on-chain features go live."
        actions={
          <Link to="/trade" className={buttonClasses({ size: 'sm' })}>
            <ArrowLeftRight className="size-4" />
            Trade
          </Link>
        }
      />

      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <UpcomingPanel
          title="Portfolio overview"
          icon={PieChart}
          arrivesWith="on-chain trading"
          description="Total value in USD, SOL balance and every SPL token in your connected Solana wallet (Phantom or Solflare), priced live and refreshed every 30 seconds."
          preview={
            <div className="grid grid-cols-3 gap-4 p-4">
              {['Total value', 'SOL balance', 'Tokens'].map((label) => (
                <div key={label}>
                  <p className="text-xs text-muted">{label}</p>
                  <p className="num mt-1 text-xl font-semibold text-faint">—</p>
                </div>
              ))}
            </div>
          }
        />
        <AccountCard />
      </div>

      <section aria-label="Coin prices" className="mt-4">
        <div className="mb-2 flex items-center justify-between">
          <h2 className="text-[13px] font-semibold">Markets</h2>
          <Badge tone="neutral">Live prices arrive with market data</Badge>
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          {COINS.map((coin) => (
            <CoinCardPreview key={coin.symbol} {...coin} />
          ))}
        </div>
      </section>

      <div className="mt-4 grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <UpcomingPanel
          title="Market chart"
          icon={LineChart}
          arrivesWith="market data"
          description="A live chart of the selected pair with dark and light themes and intervals from 1 second to 1 day (15 minutes by default). Clicking a coin card switches the pair."
          preview={<ChartPreview />}
        />
        <UpcomingPanel
          title="Quick trade"
          icon={CandlestickChart}
          arrivesWith="on-chain trading"
          description="Buy or sell at the market price with a linked amount / price / total calculator and 0.001 · 0.01 · 0.1 quick amounts. The terminal builds the swap; your wallet signs it."
          preview={
            <div className="space-y-2.5 p-4">
              <div className="grid grid-cols-2 gap-2">
                <span className="h-8 rounded-md bg-up/30" />
                <span className="h-8 rounded-md bg-raised" />
              </div>
              {['Amount', 'Price', 'Total'].map((label) => (
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
      </div>

      <UpcomingPanel
        className="mt-4"
        title="Recent trades"
        icon={History}
        arrivesWith="on-chain trading"
        description="Your last 10 trades, newest first, with their on-chain status."
        preview={<TablePreview columns={RECENT_TRADE_COLUMNS} />}
      />
    </>
  );
}
