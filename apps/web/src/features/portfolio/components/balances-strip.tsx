import type { ReactNode } from 'react';
import { RotateCw, Wallet } from 'lucide-react';
import { formatUsd, shortenAddress } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import {
  getBalance,
  getWalletValue,
  type SpotPair,
  tokenLabel,
  usePairBalances,
  useSpotOrders,
  type WalletAccess,
} from '../../trading';
import { usePortfolio } from '../portfolio-queries';
import { formatTokenAmount } from '../../../lib/format';

/** SOL and USDC always, then the pair's own tokens. */
export function getBalanceTokens(pair: SpotPair): string[] {
  const tokens = ['SOL', 'USDC'];
  for (const token of [pair.base, pair.quote]) {
    if (!tokens.some((known) => known.toUpperCase() === token.toUpperCase())) tokens.push(token);
  }
  return tokens;
}

function Figure({
  label,
  children,
  isHighlighted = false,
  testId,
  title,
}: {
  label: string;
  children: ReactNode;
  isHighlighted?: boolean;
  testId?: string;
  title?: string;
}) {
  return (
    <div className="min-w-0 px-4 py-2.5 md:min-w-32" data-testid={testId}>
      <dt className={cn('text-[11px] font-medium', isHighlighted ? 'text-accent' : 'text-faint')}>{label}</dt>
      <dd className="num mt-0.5 truncate text-[15px] font-semibold tracking-tight" title={title}>
        {children}
      </dd>
    </div>
  );
}

/**
 * Balances for the pair (part 2 §2): SOL, USDC and the pair's tokens as read from the chain (with
 * the dashboard's precision), the wallet's value — the dashboard's portfolio value plus what pending
 * limit orders hold in escrow — and a refresh. They refresh by themselves after every order.
 */
export function BalancesStrip({
  pair,
  walletAddress,
  access,
  className,
}: {
  pair: SpotPair;
  walletAddress: string | null;
  access: WalletAccess;
  className?: string;
}) {
  const { suggestion } = usePairBalances(pair.pairId);
  const portfolio = usePortfolio(access);
  const orders = useSpotOrders();
  const balances = suggestion.data?.available_balances;
  const tokens = getBalanceTokens(pair);
  const isRefreshing = suggestion.isFetching || portfolio.isFetching;
  const value = portfolio.data && orders.data ? getWalletValue(portfolio.data, orders.data) : null;
  const valueBreakdown = value
    ? `Holdings ${formatUsd(value.holdingsUsd)} + in open orders ${formatUsd(value.escrowedUsd)}${
        value.unpricedOrders > 0 ? ` (${value.unpricedOrders} unpriced order(s) left out)` : ''
      }`
    : undefined;

  function refresh() {
    void suggestion.refetch();
    void portfolio.refetch();
    void orders.refetch();
  }

  return (
    <Card className={cn('flex flex-col lg:flex-row lg:items-stretch', className)} data-testid="balances">
      <dl className="grid min-w-0 flex-1 grid-cols-2 divide-line sm:grid-cols-3 md:flex md:divide-x">
        {tokens.map((token) => (
          <Figure
            key={token}
            label={tokenLabel(token)}
            isHighlighted={token === pair.base || token === pair.quote}
            testId={`balance-${token}`}
          >
            {balances ? (
              formatTokenAmount(getBalance(balances, token), token)
            ) : suggestion.isPending ? (
              <Skeleton className="mt-1 h-4 w-20" />
            ) : (
              <span className="text-faint">—</span>
            )}
          </Figure>
        ))}
        <Figure label="Wallet value" testId="balance-total" title={valueBreakdown}>
          {value ? (
            formatUsd(value.totalUsd)
          ) : access.kind === 'solana' && (portfolio.isPending || orders.isPending) ? (
            <Skeleton className="mt-1 h-4 w-24" />
          ) : (
            <span className="text-faint">—</span>
          )}
        </Figure>
      </dl>
      <div className="flex items-center justify-between gap-3 border-t border-line px-4 py-2 lg:border-t-0 lg:border-l">
        <div className="min-w-0 text-[11px] leading-tight">
          {suggestion.isError && !balances ? (
            <span className="text-warn">{getErrorMessage(suggestion.error, 'Balances unavailable')}</span>
          ) : walletAddress ? (
            <span className="inline-flex items-center gap-1.5 text-muted">
              <Wallet aria-hidden="true" className="size-3.5" />
              <span className="font-mono" title={walletAddress}>
                {shortenAddress(walletAddress)}
              </span>
            </span>
          ) : (
            <span className="text-faint">No wallet connected</span>
          )}
        </div>
        <Button
          variant="ghost"
          size="xs"
          onClick={refresh}
          aria-label="Refresh balances"
          title="Refresh balances"
          disabled={isRefreshing}
        >
          <RotateCw className={cn('size-3.5', isRefreshing && 'animate-spin')} />
        </Button>
      </div>
    </Card>
  );
}
