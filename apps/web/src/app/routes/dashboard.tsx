import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeftRight, Eye, ShieldCheck, UserRound } from 'lucide-react';
import { formatWalletTypeName, getDisplayName, shortenAddress } from '@solterm/contracts';
import { Badge } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { useAuth } from '../../features/auth/use-auth';
import { CoinCards } from '../../features/market/components/coin-cards';
import { PairHeader } from '../../features/market/components/pair-header';
import { useTradingSelection } from '../../features/market/hooks/use-trading-selection';
import { PortfolioOverview } from '../../features/portfolio/components/portfolio-overview';
import { WalletConnectionCard } from '../../features/portfolio/components/wallet-connection-card';
import { QuickTradePanel } from '../../features/trading/components/quick-trade-panel';
import { RecentTrades } from '../../features/trading/components/recent-trades';
import { MyTradesChart } from '../../features/trading/components/my-trades-chart';
import { getWalletAccess } from '../../features/trading/wallet-access';

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
    </Card>
  );
}

/**
 * /dashboard (spec part 1 §2): welcome, coin cards, the selected pair's chart beside the quick
 * trade, the portfolio overview beside the wallet connection and account, and recent trades.
 */
export default function DashboardPage() {
  const { user } = useAuth();
  const selection = useTradingSelection();
  const hasSolanaWallet = getWalletAccess(user).kind === 'solana';
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
          <PairHeader selection={selection} showSafety alertMe className="border-b border-line" />
          <MyTradesChart selection={selection} heightClassName="h-[300px] sm:h-[380px] xl:h-[440px]" />
        </Card>
        <QuickTradePanel selection={selection} />
      </div>

      <div className="mt-4 grid grid-cols-1 items-start gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <PortfolioOverview />
        <div className="flex min-w-0 flex-col gap-4">
          <WalletConnectionCard />
          <AccountCard />
        </div>
      </div>

      <RecentTrades className="mt-4" isEnabled={hasSolanaWallet} />
    </>
  );
}
