import { useId, useState, type ReactNode } from 'react';
import { RotateCcw, Zap } from 'lucide-react';
import {
  DEFAULT_SLIPPAGE_BPS,
  formatPrice,
  getMinimumTradeAmount,
  groupThousands,
  MARKET_MESSAGES,
  parseSpecDecimal,
  QUICK_TRADE_AMOUNTS,
  SpecDecimal,
  TRADE_MESSAGES,
  type TOrderSide,
  type TradingContext,
} from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { ErrorBoundary } from '../../../components/ui/error-boundary';
import { Input, Label } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useAuth } from '../../auth';
import { getPairId, type PairSelection, TokenAvatar, usePairPrice } from '../../market';
import { ORDER_STAGE_LABELS } from '../order-stage';
import {
  formatDuration,
  formatPlainPercent,
  formatSlippageBps,
  formatTokenAmount,
  lamportsToSol,
} from '../../../lib/format';
import { formatMarketPriceInput, useTradingForm, type TradingFormControls } from '../trading-form';
import { useTradingSuggestion } from '../trading-queries';
import { useQuickTrade, type QuickTradeFill } from '../use-quick-trade';
import { getWalletAccess } from '../wallet-access';

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

function FieldRow({ label, htmlFor, aside }: { label: string; htmlFor: string; aside?: ReactNode }) {
  return (
    <div className="mb-1.5 flex items-center justify-between gap-2">
      <Label htmlFor={htmlFor} className="mb-0">
        {label}
      </Label>
      {aside}
    </div>
  );
}

function Unit({ children }: { children: ReactNode }) {
  return <span className="pr-1 text-[11px] font-semibold tracking-wide text-faint">{children}</span>;
}

/**
 * The pair's minimum trade amount as a user can type it: five significant digits rounded up, so the
 * shown figure itself passes the check (0.010025… on stablecoin quotes shows as 0.010026).
 *
 * @example formatMinimumForDisplay('USDC'); // '0.010026'
 */
export function formatMinimumForDisplay(quote: string): string {
  return getMinimumTradeAmount(quote).toSignificantDigits(5, SpecDecimal.ROUND_UP).toFixed();
}

/** Amount, price and total, linked by the contracts' rules; quick amounts 0.001 · 0.01 · 0.1. */
function QuickTradeFields({
  controls,
  pair,
  base,
  quote,
  hasMarketPrice,
  isDisabled,
}: {
  controls: TradingFormControls;
  pair: string;
  base: string;
  quote: string;
  hasMarketPrice: boolean;
  isDisabled: boolean;
}) {
  const id = useId();
  const { form } = controls;
  // A preset under the pair's minimum (0.001 and 0.01 on stablecoin quotes) would always be refused.
  const minimum = getMinimumTradeAmount(quote);
  const belowMinimumText = `Below the minimum trade amount of ${formatMinimumForDisplay(quote)} ${base} on ${pair} (fees included)`;
  const isWaitingForPrice = !hasMarketPrice && form.price.trim() === '';
  return (
    <div className="space-y-3">
      <div>
        <FieldRow
          label="Amount"
          htmlFor={`${id}-amount`}
          aside={
            <div className="relative flex gap-1" role="group" aria-label="Quick amounts">
              <span id={`${id}-below-minimum`} className="sr-only">
                {belowMinimumText}
              </span>
              {QUICK_TRADE_AMOUNTS.map((amount) => {
                const isBelowMinimum = minimum.gt(amount);
                return (
                  <button
                    key={amount}
                    type="button"
                    disabled={isDisabled || isBelowMinimum}
                    onClick={() => controls.setAmount(String(amount))}
                    aria-label={`Set amount to ${amount} ${base}`}
                    title={isBelowMinimum ? belowMinimumText : undefined}
                    aria-describedby={isBelowMinimum ? `${id}-below-minimum` : undefined}
                    className={cn(
                      'num h-5 rounded border px-1.5 text-[11px] transition-colors disabled:opacity-50',
                      isBelowMinimum && 'disabled:cursor-not-allowed disabled:border-dashed',
                      form.amount === String(amount)
                        ? 'border-accent/50 bg-accent-soft text-accent'
                        : 'border-line text-muted hover:border-line-strong hover:text-fg',
                    )}
                  >
                    {amount}
                  </button>
                );
              })}
            </div>
          }
        />
        <Input
          id={`${id}-amount`}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={form.amount}
          disabled={isDisabled}
          onChange={(event) => controls.setAmount(event.target.value)}
          trailing={<Unit>{base}</Unit>}
          className="num pr-16"
        />
      </div>
      <div>
        <FieldRow
          label="Price"
          htmlFor={`${id}-price`}
          aside={
            form.isPriceFromMarket ? (
              <span className="inline-flex items-center gap-1 text-[11px] text-faint">
                <span className="size-1.5 rounded-full bg-up" aria-hidden="true" />
                Market
              </span>
            ) : (
              <button
                type="button"
                onClick={controls.followMarketPrice}
                className="inline-flex items-center gap-1 text-[11px] text-accent hover:underline"
              >
                <RotateCcw className="size-3" aria-hidden="true" />
                Use market
              </button>
            )
          }
        />
        <Input
          id={`${id}-price`}
          name="price"
          inputMode="decimal"
          autoComplete="off"
          placeholder={isWaitingForPrice ? MARKET_MESSAGES.loadingCurrentPrice : '0.00'}
          value={form.price}
          disabled={isDisabled}
          onChange={(event) => controls.setPrice(event.target.value)}
          trailing={<Unit>{quote}</Unit>}
          className="num pr-16"
          hint={isWaitingForPrice ? MARKET_MESSAGES.loadingCurrentPrice : undefined}
        />
      </div>
      <div>
        <FieldRow
          label="Total"
          htmlFor={`${id}-total`}
          aside={form.isCalculating ? <Spinner size="sm" label="Calculating" /> : undefined}
        />
        <Input
          id={`${id}-total`}
          name="total"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={form.total}
          disabled={isDisabled}
          onChange={(event) => controls.setTotal(event.target.value)}
          trailing={<Unit>{quote}</Unit>}
          className="num pr-16"
        />
      </div>
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
            <Badge tone="neutral">Market</Badge>
          </div>
        }
      />
      <CardBody className="flex flex-1 flex-col gap-3">
        <SideToggle side={side} onChange={setSide} />

        <div className="rounded-md border border-line bg-canvas/60 px-3 py-2">
          <p className="mb-1 text-[10px] font-semibold tracking-widest text-faint uppercase">Available</p>
          <dl aria-label="Available balances" className="grid grid-cols-2 gap-x-4">
            <Balance
              symbol={base}
              value={balances?.[base]}
              isSpent={side === 'Sell'}
              isLoading={isBalanceLoading}
            />
            <Balance
              symbol={quote}
              value={balances?.[quote]}
              isSpent={side === 'Buy'}
              isLoading={isBalanceLoading}
            />
          </dl>
        </div>

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
          <Button
            variant={side === 'Buy' ? 'buy' : 'sell'}
            size="lg"
            isBlock
            disabled={isRunning}
            onClick={() => void trade.submit()}
            data-testid="quick-trade-submit"
            data-phase={trade.phase}
          >
            {isRunning ? (
              <>
                <Spinner
                  size="sm"
                  label={ORDER_STAGE_LABELS[trade.phase as keyof typeof ORDER_STAGE_LABELS]}
                />
                <span aria-hidden="true">
                  {ORDER_STAGE_LABELS[trade.phase as keyof typeof ORDER_STAGE_LABELS]}
                </span>
              </>
            ) : (
              <span className="font-semibold">{`${side} ${base}`}</span>
            )}
          </Button>
          {!trade.isConnected && (
            <p className="text-center text-xs text-muted">{TRADE_MESSAGES.connectWalletToTrade}</p>
          )}
          {trade.lastFill && <LastFill fill={trade.lastFill} />}
        </div>
      </CardBody>
    </Card>
  );
}
