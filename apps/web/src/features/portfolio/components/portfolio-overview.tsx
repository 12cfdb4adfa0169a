import type { ReactNode } from 'react';
import { Droplets, PieChart, RefreshCw, Wallet } from 'lucide-react';
import {
  DASHBOARD_MESSAGES,
  formatUsd,
  formatUsdPrice,
  shortenAddress,
  type TPortfolio,
} from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, Stat } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';
import { useAuth } from '../../auth';
import { TokenAvatar, useDashboardCoins } from '../../market';
import { useNetwork } from '../../network';
import { getWalletAccess } from '../../trading';
import {
  buildHoldingRows,
  getPortfolioErrorMessage,
  isPortfolioEmpty,
  type HoldingRow,
  repriceSol,
} from '../portfolio-model';
import { useFundWallet, usePortfolio, useUnwrapSol } from '../portfolio-queries';
import { formatPlainPercent, formatTokenAmount } from '../../../lib/format';

/** A stable hue per symbol, matching the token avatars. */
function hueOf(symbol: string): number {
  let hash = 0;
  for (const char of symbol.toUpperCase().slice(0, 3)) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

function AllocationBar({ rows }: { rows: readonly HoldingRow[] }) {
  const visible = rows.filter((row) => row.sharePercent > 0);
  if (visible.length === 0) return null;
  return (
    <div className="flex h-1.5 w-full overflow-hidden rounded-full bg-raised" aria-hidden="true">
      {visible.map((row) => (
        <span
          key={`${row.symbol}-${row.mintAddress ?? 'native'}`}
          style={{ width: `${row.sharePercent}%`, background: `hsl(${hueOf(row.symbol)} 70% 60%)` }}
          title={`${row.symbol} ${row.sharePercent}%`}
        />
      ))}
    </div>
  );
}

/** Wrapped SOL's Unwrap: the wallet signs the closeAccount that turns it back into SOL. */
function UnwrapButton() {
  const unwrap = useUnwrapSol();
  return (
    <Button
      size="xs"
      variant="secondary"
      className="h-6 px-2"
      isLoading={unwrap.isPending}
      onClick={() => unwrap.mutate()}
      title="Turn this wrapped SOL back into SOL (your wallet signs)"
    >
      Unwrap
    </Button>
  );
}

function HoldingsTable({ rows }: { rows: readonly HoldingRow[] }) {
  return (
    <Table aria-label="Holdings">
      <THead>
        <tr>
          <Th>Asset</Th>
          <Th isNumeric>Balance</Th>
          <Th isNumeric className="hidden sm:table-cell">
            Price
          </Th>
          <Th isNumeric>Value</Th>
          <Th isNumeric className="hidden sm:table-cell">
            Share
          </Th>
        </tr>
      </THead>
      <TBody>
        {rows.map((row) => (
          <Tr key={`${row.symbol}-${row.mintAddress ?? 'native'}`} data-testid={`holding-${row.symbol}`}>
            <Td>
              <span className="flex min-w-0 items-center gap-2">
                <TokenAvatar symbol={row.isWrappedSol ? 'SOL' : row.symbol} size={22} />
                <span className="min-w-0 leading-tight">
                  <span className="block font-semibold">{row.symbol}</span>
                  <span className="block max-w-32 truncate text-[11px] text-faint">{row.name}</span>
                </span>
                {row.isWrappedSol && <UnwrapButton />}
              </span>
            </Td>
            <Td isNumeric data-testid={`holding-balance-${row.symbol}`}>
              {formatTokenAmount(row.balance, row.symbol)}
            </Td>
            <Td isNumeric className="hidden text-muted sm:table-cell">
              {row.priceUsd === null ? '—' : formatUsdPrice(row.priceUsd)}
            </Td>
            <Td isNumeric className="font-medium">
              {formatUsd(row.valueUsd)}
            </Td>
            <Td isNumeric className="hidden text-muted sm:table-cell">
              {formatPlainPercent(row.sharePercent, 1)}
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

function PortfolioSkeleton() {
  return (
    <div className="space-y-4 p-4" aria-busy="true" aria-label="Loading portfolio">
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((index) => (
          <div key={index} className={cn(index === 2 && 'hidden sm:block')}>
            <Skeleton className="h-3 w-16" />
            <Skeleton className="mt-2 h-6 w-28" />
          </div>
        ))}
      </div>
      <Skeleton className="h-1.5 w-full" />
      {[0, 1].map((index) => (
        <Skeleton key={index} className="h-8 w-full" />
      ))}
    </div>
  );
}

function PortfolioFigures({ portfolio, rows }: { portfolio: TPortfolio; rows: readonly HoldingRow[] }) {
  const solRow = rows.find((row) => row.symbol === 'SOL' && row.mintAddress === null);
  return (
    <div className="space-y-3 px-4 pt-4 pb-3">
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <Stat
          label="Total value"
          value={<span data-testid="portfolio-total">{formatUsd(portfolio.total_value_usd)}</span>}
          footnote={`${rows.length} ${rows.length === 1 ? 'asset' : 'assets'}`}
        />
        <Stat
          label="SOL balance"
          value={
            <span data-testid="portfolio-sol">
              {formatTokenAmount(portfolio.sol_balance, 'SOL')}
              <span className="ml-1 text-sm font-medium text-muted">SOL</span>
            </span>
          }
          footnote={`≈ ${formatUsd(solRow?.valueUsd ?? 0)}`}
        />
        <Stat
          className="hidden sm:block"
          label="SOL price"
          value={formatUsdPrice(portfolio.sol_price_usd)}
          footnote="Priced from market data"
        />
      </div>
      <AllocationBar rows={rows} />
    </div>
  );
}

/** The figures and holdings of a loaded portfolio, or what to do with an empty wallet. */
function PortfolioHoldings({
  portfolio,
  canFund,
  fundAction,
}: {
  portfolio: TPortfolio;
  canFund: boolean;
  fundAction: ReactNode;
}) {
  const rows = buildHoldingRows(portfolio);
  return (
    <>
      <PortfolioFigures portfolio={portfolio} rows={rows} />
      {isPortfolioEmpty(portfolio) ? (
        <EmptyState
          className="border-t border-line py-8"
          icon={<Wallet className="size-4" />}
          title="This wallet is empty"
          description={
            canFund
              ? 'Fund it with test SOL and USDC from the local faucet to start trading.'
              : 'Send SOL or tokens to this address to start trading.'
          }
          action={fundAction}
        />
      ) : (
        <div className="border-t border-line">
          <HoldingsTable rows={rows} />
        </div>
      )}
    </>
  );
}

/**
 * The dashboard portfolio overview (spec part 1 §2): total value, SOL balance in SOL and USD, and
 * every token with balance and value, read from the chain for the account's Solana wallet. On test
 * networks a Fund button fills the wallet with SOL and USDC from the local faucet.
 */
export function PortfolioOverview({ className }: { className?: string }) {
  const { user } = useAuth();
  const access = getWalletAccess(user);
  const { isTestNetwork } = useNetwork();
  const query = usePortfolio(access);
  // One SOL price per screen: the coin card's live price, not the portfolio's 30 s-old snapshot.
  const coins = useDashboardCoins();
  const fund = useFundWallet();
  const canFund = isTestNetwork && access.kind === 'solana';

  const fundButton = (variant: 'primary' | 'secondary') => (
    <Button
      size="xs"
      variant={variant}
      onClick={() => fund.mutate()}
      isLoading={fund.isPending}
      aria-label="Fund wallet with test SOL and USDC"
    >
      {!fund.isPending && <Droplets className="size-3.5" aria-hidden="true" />}
      Fund
    </Button>
  );

  let body;
  if (access.kind === 'no_wallet') {
    body = (
      <EmptyState
        icon={<Wallet className="size-4" />}
        title={DASHBOARD_MESSAGES.noWallet}
        description={DASHBOARD_MESSAGES.noWalletConnectFirst}
      />
    );
  } else if (access.kind === 'not_solana') {
    body = (
      <div className="p-4">
        <Notice tone="warn">{DASHBOARD_MESSAGES.portfolioSolanaOnly}</Notice>
      </div>
    );
  } else if (query.isPending) {
    body = <PortfolioSkeleton />;
  } else if (query.isError) {
    body = (
      <div className="p-4">
        <Notice
          tone="error"
          action={
            <Button size="xs" variant="secondary" onClick={() => void query.refetch()}>
              Retry
            </Button>
          }
        >
          {getPortfolioErrorMessage(query.error)}
        </Notice>
      </div>
    );
  } else {
    body = (
      <PortfolioHoldings
        portfolio={repriceSol(query.data, coins.data?.sol.price)}
        canFund={canFund}
        fundAction={canFund ? fundButton('primary') : undefined}
      />
    );
  }

  return (
    <Card role="region" aria-label="Portfolio overview" className={cn('min-w-0 overflow-hidden', className)}>
      <CardHeader
        title="Portfolio"
        icon={<PieChart className="size-4" />}
        description={
          access.kind === 'solana' ? (
            <span className="font-mono" title={access.address}>
              {shortenAddress(access.address)}
            </span>
          ) : undefined
        }
        actions={
          access.kind === 'solana' ? (
            <>
              {canFund && fundButton('secondary')}
              <Button
                variant="ghost"
                size="xs"
                onClick={() => void query.refetch()}
                disabled={query.isFetching}
                aria-label="Refresh portfolio"
                className="w-7 px-0"
              >
                <RefreshCw className={cn('size-3.5', query.isFetching && 'animate-spin')} />
              </Button>
            </>
          ) : undefined
        }
      />
      {body}
    </Card>
  );
}
