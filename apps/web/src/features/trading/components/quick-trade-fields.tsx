import { useId, type ReactNode } from 'react';
import { RotateCcw } from 'lucide-react';
import { getMinimumTradeAmount, MARKET_MESSAGES, QUICK_TRADE_AMOUNTS, SpecDecimal } from '@solterm/contracts';
import { Input, Label } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import type { TradingFormControls } from '../trading-form';

// The Quick Trade panel's amount, price and total fields.

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

/** The preset amounts; one under the pair's minimum (0.001 and 0.01 on stablecoin quotes) is disabled. */
function QuickAmountButtons({
  id,
  controls,
  pair,
  base,
  quote,
  isDisabled,
}: {
  id: string;
  controls: TradingFormControls;
  pair: string;
  base: string;
  quote: string;
  isDisabled: boolean;
}) {
  const { form } = controls;
  const minimum = getMinimumTradeAmount(quote);
  const belowMinimumText = `Below the minimum trade amount of ${formatMinimumForDisplay(quote)} ${base} on ${pair} (fees included)`;
  return (
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
  );
}

/** The price, following the market until the user types one (then "Use market" brings it back). */
function QuickTradePriceField({
  id,
  controls,
  quote,
  hasMarketPrice,
  isDisabled,
}: {
  id: string;
  controls: TradingFormControls;
  quote: string;
  hasMarketPrice: boolean;
  isDisabled: boolean;
}) {
  const { form } = controls;
  const isWaitingForPrice = !hasMarketPrice && form.price.trim() === '';
  return (
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
  );
}

/** Amount, price and total, linked by the contracts' rules; quick amounts 0.001 · 0.01 · 0.1. */
export function QuickTradeFields({
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
  return (
    <div className="space-y-3">
      <div>
        <FieldRow
          label="Amount"
          htmlFor={`${id}-amount`}
          aside={
            <QuickAmountButtons
              id={id}
              controls={controls}
              pair={pair}
              base={base}
              quote={quote}
              isDisabled={isDisabled}
            />
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
      <QuickTradePriceField
        id={id}
        controls={controls}
        quote={quote}
        hasMarketPrice={hasMarketPrice}
        isDisabled={isDisabled}
      />
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
