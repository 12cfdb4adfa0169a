import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  ArrowLeftRight,
  CandlestickChart,
  Eye,
  History,
  PieChart,
  ShieldCheck,
  UserRound,
  Wallet,
} from 'lucide-react';
import { formatWalletTypeName, getDisplayName, shortenAddress } from '@solterm/contracts';
import { TablePreview, UpcomingPanel } from '../../components/layout/upcoming';
import { Badge } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { useAuth } from '../../features/auth/use-auth';
import { CoinCards } from '../../features/market/components/coin-cards';
import { PairHeader } from '../../features/market/components/pair-header';
import { PriceChart } from '../../features/market/components/price-chart';
import { useTradingSelection } from '../../features/market/hooks/use-trading-selection';

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

/** /dashboard: welcome, live coin cards and chart, account, and the on-chain widgets (arriving). */
export default function DashboardPage() {
  const { user } = useAuth();
  const selection = useTradingSelection();
  return (
    <>
      <PageHeader
        eyebrow="Dashboard"
        title={`Welcome back, ${getDisplayName(user)}`}
        className="mb-4"
        actions={
          <Link to="/trade" className={buttonClasses({ size: 'sm' })}>
            <ArrowLeftRight className="size-4" />
            Trade
          </Link>
        }
      />

      <CoinCards />

      <div className="mt-4 grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card className="min-w-0 overflow-hidden" aria-label="Market chart">
          <PairHeader selection={selection} className="border-b border-line" />
          <PriceChart selection={selection} heightClassName="h-[300px] sm:h-[360px]" />
        </Card>
        <div className="flex min-w-0 flex-col gap-4">
          <AccountCard />
          <UpcomingPanel
            className="flex-1"
            title="Quick trade"
            icon={CandlestickChart}
            arrivesWith="on-chain trading"
            description="Buy or sell the selected pair at the market price with a linked amount / price / total calculator and 0.001 · 0.01 · 0.1 quick amounts. The terminal builds the swap; your wallet signs it."
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
      </div>

      <div className="mt-4 grid grid-cols-1 gap-4 xl:grid-cols-2">
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
        <UpcomingPanel
          title="Recent trades"
          icon={History}
          arrivesWith="on-chain trading"
          description="Your last 10 trades, newest first, with their on-chain status."
          preview={<TablePreview columns={RECENT_TRADE_COLUMNS} />}
        />
      </div>
    </>
  );
}
