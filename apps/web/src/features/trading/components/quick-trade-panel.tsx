import { useState } from 'react';
import { Zap } from 'lucide-react';
import {
  DEFAULT_SLIPPAGE_BPS,
  formatPrice,
  groupThousands,
  MARKET_MESSAGES,
  parseSpecDecimal,
  SpecDecimal,
  TRADE_MESSAGES,
  type TOrderSide,
  type TradingContext,
} from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { ErrorBoundary } from '../../../components/ui/error-boundary';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useAuth } from '../../auth';
import {
  getPairId,
  mintOfToken,
  type PairSelection,
  SafetyBadge,
  TokenAvatar,
  useDangerConfirmation,
  usePairPrice,
} from '../../market';
import { ORDER_STAGE_LABELS } from '../order-stage';
import {
  formatDuration,
  formatPlainPercent,
  formatSlippageBps,
  formatTokenAmount,
  lamportsToSol,
} from '../../../lib/format';
import { formatMarketPriceInput, useTradingForm } from '../trading-form';
import { useTradingSuggestion } from '../trading-queries';
import { useQuickTrade, type QuickTradeFill, type QuickTradePhase } from '../use-quick-trade';
import { getWalletAccess } from '../wallet-access';
import { QuickTradeFields } from './quick-trade-fields';

function SideToggle({ side, onChange }: { side: TOrderSide; onChange: (side: TOrderSide) => void }) {
  return (
    <div role="group" aria-label="Side" className="grid grid-cols-2 gap-1 rounded-md bg-canvas p-1">
      {(['Buy', 'Sell'] as const).map((value) => {
        const isActive = value === side;
        return (
          <button
            key={value}
            type="button"
            aria-pressed={isActive}
            onClick={() => onChange(value)}
            className={cn(
              'h-8 rounded text-[13px] font-semibold transition-colors',
              isActive && value === 'Buy' && 'bg-up text-[#04150e]',
              isActive && value === 'Sell' && 'bg-down text-white',
              !isActive && 'text-muted hover:bg-hover hover:text-fg',
            )}
          >
            {value}
          </button>
        );
      })}
    </div>
  );
}

function Balance({
  symbol,
  value,
  isSpent,
  isLoading,
}: {
  symbol: string;
  value: number | undefined;
  isSpent: boolean;
  isLoading: boolean;
}) {
  return (
    <div className="flex min-w-0 items-baseline justify-between gap-2">
      <dt className={cn('text-[11px] font-medium', isSpent ? 'text-muted' : 'text-faint')}>{symbol}</dt>
      <dd
        className={cn('num truncate text-[13px]', isSpent ? 'font-semibold text-fg' : 'text-muted')}
        data-testid={`quick-trade-balance-${symbol}`}
      >
        {isLoading ? (
          <Skeleton className="h-3.5 w-14" />
        ) : value === undefined ? (
          '—'
        ) : (
          formatTokenAmount(value, symbol)
        )}
      </dd>
    </div>
  );
}

/** The last fill in two lines: what filled at what price, then fees and how it landed. */
function LastFill({ fill }: { fill: QuickTradeFill }) {
  const receipt = fill.order?.receipt ?? null;
  const quoteDetails = fill.quoteDetails;
  const price = receipt?.filled_price ?? fill.order?.average_fill_price ?? quoteDetails?.price ?? null;
  const venueFee = receipt?.venue_fee ?? quoteDetails?.venue_fee ?? null;
  const networkFee =
    receipt?.network_fee_sol ?? (quoteDetails ? lamportsToSol(quoteDetails.network_fee_lamports) : null);
  const details = [
    venueFee !== null ? `Fee ${formatTokenAmount(venueFee, fill.quote)} ${fill.quote}` : null,
    networkFee !== null ? `Network ${formatTokenAmount(networkFee, 'SOL')} SOL` : null,
    receipt ? formatSlippageBps(receipt.slippage_bps) : null,
    receipt ? formatDuration(receipt.time_to_land_ms) : null,
  ].filter((part): part is string => part !== null);
  return (
    <section
      aria-label="Last fill"
      title={`Transaction ${fill.transactionHash}`}
      className="rounded-md border border-line bg-canvas/60 px-3 py-2 text-[11px]"
    >
      <div className="flex items-center justify-between gap-2">
        <span className="num min-w-0 truncate text-fg">
          <span className={cn('font-semibold', fill.side === 'Buy' ? 'text-up' : 'text-down')}>
            {fill.side === 'Buy' ? 'Bought' : 'Sold'}
          </span>{' '}
          {formatTokenAmount(fill.quantity, fill.base)} {fill.base}
          {price !== null && (
            <span className="text-muted">
              {' '}
              @ {formatPrice(price)} {fill.quote}
            </span>
          )}
        </span>
        <Badge tone="up">Filled</Badge>
      </div>
      {details.length > 0 && <p className="num mt-1 text-faint">{details.join(' · ')}</p>}
    </section>
  );
}

/** What the wallet has of the pair's two tokens; the one the side spends is highlighted. */
function AvailableBalances({
  base,
  quote,
  balances,
  side,
  isLoading,
}: {
  base: string;
  quote: string;
  balances: Readonly<Record<string, number>> | undefined;
  side: TOrderSide;
  isLoading: boolean;
}) {
  return (
    <div className="rounded-md border border-line bg-canvas/60 px-3 py-2">
      <p className="mb-1 text-[10px] font-semibold tracking-widest text-faint uppercase">Available</p>
      <dl aria-label="Available balances" className="grid grid-cols-2 gap-x-4">
        <Balance symbol={base} value={balances?.[base]} isSpent={side === 'Sell'} isLoading={isLoading} />
        <Balance symbol={quote} value={balances?.[quote]} isSpent={side === 'Buy'} isLoading={isLoading} />
      </dl>
    </div>
  );
}

/** What the order comes to, and the slippage it allows. */
function QuickTradeSummary({
  side,
  estimate,
  quote,
}: {
  side: TOrderSide;
  estimate: string | null;
  quote: string;
}) {
  return (
    <dl className="space-y-1 border-t border-line pt-3 text-[11px]">
      <div className="flex justify-between gap-2">
        <dt className="text-faint">{side === 'Buy' ? 'You pay' : 'You receive'}</dt>
        <dd className="num text-muted" data-testid="quick-trade-estimate">
          {estimate ? `≈ ${estimate} ${quote}` : '—'}
        </dd>
      </div>
      <div className="flex justify-between gap-2">
        <dt className="text-faint">Slippage tolerance</dt>
        <dd className="num text-muted">
          {formatPlainPercent(new SpecDecimal(DEFAULT_SLIPPAGE_BPS).div(100))}
        </dd>
      </div>
    </dl>
  );
}

/** Buy or Sell, showing each stage while the order is on its way. */
function QuickTradeSubmit({
  side,
  base,
  phase,
  onSubmit,
}: {
  side: TOrderSide;
  base: string;
  phase: QuickTradePhase;
  onSubmit: () => void;
}) {
  const isRunning = phase !== 'idle';
  return (
    <Button
      variant={side === 'Buy' ? 'buy' : 'sell'}
      size="lg"
      isBlock
      disabled={isRunning}
      onClick={onSubmit}
      data-testid="quick-trade-submit"
      data-phase={phase}
    >
      {isRunning ? (
        <>
          <Spinner size="sm" label={ORDER_STAGE_LABELS[phase as keyof typeof ORDER_STAGE_LABELS]} />
          <span aria-hidden="true">{ORDER_STAGE_LABELS[phase as keyof typeof ORDER_STAGE_LABELS]}</span>
        </>
      ) : (
        <span className="font-semibold">{`${side} ${base}`}</span>
      )}
    </Button>
  );
}

/**
 * The dashboard quick trade (spec part 1 §4–§5, §9): a market order for the selected pair with the
 * linked amount / price / total calculator, quick amounts, the wallet's available balances, and a
 * button that walks through build → sign → execute.
 */
export function QuickTradePanel({
  selection,
  context = 'dashboard',
  className,
}: {
  selection: PairSelection;
  context?: TradingContext;
  className?: string;
}) {
  const pairId = getPairId(selection);
  const { base, quote } = selection;
  const { user } = useAuth();
  const access = getWalletAccess(user);
  const livePrice = usePairPrice(selection);
  const marketPrice =
    livePrice.price && livePrice.price.gt(0) ? formatMarketPriceInput(livePrice.price) : null;
  const controls = useTradingForm(context, pairId, marketPrice);
  const [side, setSide] = useState<TOrderSide>('Buy');
  const suggestion = useTradingSuggestion(pairId, access.kind === 'solana');
  const balances = suggestion.data?.available_balances;
  const trade = useQuickTrade({ pairId, base, quote, side, form: controls.form, clearForm: controls.clear });
  const baseMint = mintOfToken(base, selection.baseAddress);
  const danger = useDangerConfirmation(baseMint, base);
  const isRunning = trade.phase !== 'idle';
  const isBalanceLoading = access.kind === 'solana' && suggestion.isPending;
  // "You pay" is the Total field's own decimal (amount × price from the linkage rules), grouped but
  // not re-rounded, so the two never show different figures.
  const total = parseSpecDecimal(controls.form.total.replace(/,/g, ''));
  const estimate = total && total.gt(0) ? groupThousands(total.toFixed()) : null;

  return (
    <Card role="region" aria-label="Quick trade" className={cn('flex min-w-0 flex-col', className)}>
      <CardHeader
        title="Quick trade"
        icon={<Zap className="size-4" />}
        actions={
          <div className="flex items-center gap-2">
            <TokenAvatar symbol={base} size={18} />
            <span className="text-[13px] font-semibold" data-testid="quick-trade-pair">
              {selection.pair}
            </span>
            <SafetyBadge mint={baseMint} />
            <Badge tone="neutral">Market</Badge>
          </div>
        }
      />
      <CardBody className="flex flex-1 flex-col gap-3">
        <SideToggle side={side} onChange={setSide} />

        <AvailableBalances
          base={base}
          quote={quote}
          balances={balances}
          side={side}
          isLoading={isBalanceLoading}
        />

        <ErrorBoundary
          fallback={(reset) => (
            <Notice
              tone="error"
              action={
                <Button size="xs" variant="secondary" onClick={reset}>
                  Try Again
                </Button>
              }
            >
              {MARKET_MESSAGES.calculationError}
            </Notice>
          )}
        >
          <QuickTradeFields
            controls={controls}
            pair={selection.pair}
            base={base}
            quote={quote}
            hasMarketPrice={marketPrice !== null}
            isDisabled={isRunning}
          />
        </ErrorBoundary>

        {trade.error && (
          <p role="alert" className="text-xs text-down" data-testid="quick-trade-error">
            {trade.error}
          </p>
        )}

        <div className="mt-auto space-y-3">
          <QuickTradeSummary side={side} estimate={estimate} quote={quote} />
          <QuickTradeSubmit
            side={side}
            base={base}
            phase={trade.phase}
            onSubmit={() => danger.guard(side, () => void trade.submit())}
          />
          {danger.modal}
          {!trade.isConnected && (
            <p className="text-center text-xs text-muted">{TRADE_MESSAGES.connectWalletToTrade}</p>
          )}
          {trade.lastFill && <LastFill fill={trade.lastFill} />}
        </div>
      </CardBody>
    </Card>
  );
}
