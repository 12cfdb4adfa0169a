import type { ReactNode } from 'react';
import { formatPrice, formatUsdPrice, groupThousands } from '@solterm/contracts';
import { AlertMeButton } from '../../alerts';
import { mintOfToken } from '../hooks/use-token-safety';
import { SafetyBadge } from './safety-badge';
import { cn } from '../../../lib/cn';
import { useRealtimeState } from '../../../lib/ws-client';
import { usePairPrice } from '../hooks/use-market-data';
import type { PairSelection } from '../trading-state';
import { ChangeText, CopyAddress, TokenAvatar, usePriceFlash } from './market-bits';

/** A small dot saying whether prices stream live or are polled. */
export function LiveIndicator({ className }: { className?: string }) {
  const state = useRealtimeState();
  const isLive = state === 'open';
  const label = isLive
    ? 'Live'
    : state === 'connecting' || state === 'reconnecting'
      ? 'Connecting'
      : 'Polling';
  return (
    <span
      className={cn('inline-flex items-center gap-1.5 text-[11px] font-medium text-muted', className)}
      title={isLive ? 'Prices stream in real time' : 'Real-time connection down: prices refresh periodically'}
      data-testid="live-indicator"
      data-state={state}
    >
      <span className="relative flex size-2">
        {isLive && <span className="absolute inset-0 animate-ping rounded-full bg-up/60" />}
        <span className={cn('relative size-2 rounded-full', isLive ? 'bg-up' : 'bg-warn')} />
      </span>
      {label}
    </span>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] text-faint">{label}</dt>
      <dd className="num mt-0.5 truncate text-[13px] font-medium">{children}</dd>
    </div>
  );
}

/**
 * The selected pair with its price in quote units (the spec's precision table, also for stablecoin
 * quotes), the base's USD price and the 24 h change; '0.00' with 'USD price not available' when every source failed.
 */
export function PairHeader({
  selection,
  actions,
  showSafety = false,
  alertMe = false,
  className,
}: {
  selection: PairSelection;
  actions?: ReactNode;
  /** Show the base token's safety badge (spot pages; a perp market has no mint to assess). */
  showSafety?: boolean;
  /** An "Alert me" price-alert shortcut for the pair (spot pairs). */
  alertMe?: boolean;
  className?: string;
}) {
  const price = usePairPrice(selection);
  const flash = usePriceFlash(price.price);
  return (
    <div
      className={cn('flex flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3', className)}
      data-testid="pair-header"
      data-pair={selection.pair}
    >
      <div className="flex min-w-0 items-center gap-3">
        <TokenAvatar symbol={selection.base} size={34} />
        <div className="min-w-0 leading-tight">
          <div className="flex items-center gap-2">
            <h2 className="text-base font-semibold tracking-tight" data-testid="pair-name">
              {selection.pair}
            </h2>
            <LiveIndicator />
            {showSafety && <SafetyBadge mint={mintOfToken(selection.base, selection.baseAddress)} />}
          </div>
          <div className="mt-0.5 flex min-w-0 items-center gap-2 text-xs text-muted">
            <span className="truncate">{selection.baseName}</span>
            {selection.baseAddress && selection.baseAddress !== selection.base && (
              <CopyAddress address={selection.baseAddress} />
            )}
          </div>
        </div>
      </div>

      <div className="min-w-0">
        {price.isLoading ? (
          <span className="block h-7 w-32 animate-pulse rounded bg-raised" aria-label="Loading price" />
        ) : (
          <p
            data-testid="pair-price"
            className={cn(
              '-mx-1 num rounded px-1 text-2xl font-semibold tracking-tight transition-colors duration-300',
              flash === 'up' && 'bg-up/10',
              flash === 'down' && 'bg-down/10',
            )}
          >
            {groupThousands(formatPrice(price.price?.toString()))}{' '}
            <span className="ml-0.5 text-sm font-medium text-muted">{selection.quote}</span>
          </p>
        )}
        {price.message && <p className="text-xs text-warn">{price.message}</p>}
      </div>

      <dl className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <Figure label="24h change">
          <ChangeText value={price.change24h ?? null} />
        </Figure>
        {/* Always in quote units above and in USD here: a USDC price shown with '$' read as a
            second SOL price beside the coin card's. */}
        <Figure label={`${selection.base} in USD`}>
          {price.baseUsd ? formatUsdPrice(price.baseUsd.toString()) : '—'}
        </Figure>
      </dl>

      {(actions || alertMe) && (
        <div className="ml-auto flex items-center gap-2">
          {alertMe && (
            <AlertMeButton target={{ kind: 'price', pair: selection.pair, price: price.price?.toNumber() }} />
          )}
          {actions}
        </div>
      )}
    </div>
  );
}
