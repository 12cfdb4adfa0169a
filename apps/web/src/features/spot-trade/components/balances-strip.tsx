import type { ReactNode } from 'react';
import { RotateCw, Wallet } from 'lucide-react';
import { formatUsd, shortenAddress } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { usePairBalances } from '../hooks/use-spot-data';
import { getBalance, type SpotPair } from '../order-form-model';
import { formatAmount } from '../spot-format';
import { tokenLabel } from './spot-cells';

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
}: {
  label: string;
  children: ReactNode;
  isHighlighted?: boolean;
  testId?: string;
}) {
  return (
    <div className="min-w-0 px-4 py-2.5 md:min-w-32" data-testid={testId}>
      <dt className={cn('text-[11px] font-medium', isHighlighted ? 'text-accent' : 'text-faint')}>{label}</dt>
      <dd className="num mt-0.5 truncate text-[15px] font-semibold tracking-tight">{children}</dd>
    </div>
  );
}

/**
 * Balances for the pair (part 2 §2): SOL, USDC and the pair's tokens as read from the chain, the
 * wallet's total value, and a refresh. They refresh by themselves after every order.
 */
export function BalancesStrip({
  pair,
  walletAddress,
  className,
}: {
  pair: SpotPair;
  walletAddress: string | null;
  className?: string;
}) {
  const { suggestion, wallet } = usePairBalances(pair.pairId);
  const balances = suggestion.data?.available_balances;
  const tokens = getBalanceTokens(pair);
  const isRefreshing = suggestion.isFetching || wallet.isFetching;

  function refresh() {
    void suggestion.refetch();
    void wallet.refetch();
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
              formatAmount(getBalance(balances, token), token === 'SOL' ? 4 : 6)
            ) : suggestion.isPending ? (
              <Skeleton className="mt-1 h-4 w-20" />
            ) : (
              <span className="text-faint">—</span>
            )}
          </Figure>
        ))}
        <Figure label="Wallet value" testId="balance-total">
          {wallet.data ? (
            formatUsd(wallet.data.total_value_usd)
          ) : wallet.isPending ? (
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
