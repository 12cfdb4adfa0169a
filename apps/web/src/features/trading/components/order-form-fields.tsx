import { Link } from 'react-router';
import { Info, Lock, X } from 'lucide-react';
import { formatCalculatorValue, TRADE_MESSAGES, type SpecDecimal, type TOrderType } from '@solterm/contracts';
import { buttonClasses } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { SegmentedControl, type SegmentedOption } from '../../../components/ui/segmented-control';
import { cn } from '../../../lib/cn';
import { formatAmount, formatQuote, formatTokenAmount } from '../../../lib/format';
import {
  PRIORITY_FEE_LEVELS,
  PRIORITY_FEE_MICRO_LAMPORTS,
  SLIPPAGE_PRESETS_BPS,
  type AmountUnit,
  type OrderEstimate,
  type OrderFormValues,
  type PriorityFeeLevel,
  type SpotPair,
} from '../order-form-model';
import type { FormError } from './order-form-state';
import { tokenLabel } from './spot-cells';

// The parts of the Place Order form, top to bottom.

const PRIORITY_LABELS: Readonly<Record<PriorityFeeLevel, string>> = {
  none: 'None',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
};

const SHARES = [
  { label: '25%', share: 0.25 },
  { label: '50%', share: 0.5 },
  { label: '75%', share: 0.75 },
  { label: 'Max', share: 1 },
] as const;

/** Market and Limit, then the trigger types by their short names (full names for screen readers). */
const ORDER_TYPE_OPTIONS: readonly SegmentedOption<TOrderType>[] = [
  { value: 'Market', label: 'Market' },
  { value: 'Limit', label: 'Limit' },
  { value: 'TakeProfit', label: 'TP', ariaLabel: 'Take profit' },
  { value: 'StopLoss', label: 'SL', ariaLabel: 'Stop loss' },
  { value: 'TrailingStop', label: 'Trail', ariaLabel: 'Trailing stop' },
];

type ChangeValues = (patch: Partial<OrderFormValues>) => void;

/** Where a prefill came from, until it is dismissed or the order is placed. */
export function PrefillNote({ note, onDismiss }: { note: string | null; onDismiss: () => void }) {
  return (
    <>
      {note && (
        <div
          className="flex items-start gap-2 rounded-md border border-accent/25 bg-accent-soft px-3 py-2 text-xs text-fg/90"
          data-testid="order-intent"
        >
          <Info aria-hidden="true" className="mt-0.5 size-3.5 shrink-0 text-accent" />
          <span className="flex-1">{note}</span>
          <button
            type="button"
            onClick={onDismiss}
            aria-label="Dismiss"
            className="rounded text-faint hover:text-fg"
          >
            <X className="size-3.5" />
          </button>
        </div>
      )}
    </>
  );
}

/** Market or Limit with the current price, Buy or Sell, and what is available to spend. */
export function OrderKindControls({
  values,
  change,
  marketPrice,
  quoteLabel,
  available,
  spendToken,
}: {
  values: OrderFormValues;
  change: ChangeValues;
  marketPrice: SpecDecimal | null;
  quoteLabel: string;
  available: SpecDecimal | null;
  spendToken: string;
}) {
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
        <SegmentedControl
          ariaLabel="Order type"
          size="sm"
          value={values.orderType}
          onChange={(orderType) => change({ orderType })}
          options={ORDER_TYPE_OPTIONS}
        />
        <span className="num text-[11px] text-faint" title="Current price">
          {marketPrice ? `${formatQuote(marketPrice)} ${quoteLabel}` : 'Loading price…'}
        </span>
      </div>

      <SegmentedControl
        ariaLabel="Side"
        isBlock
        value={values.side}
        onChange={(side) => change({ side })}
        options={[
          { value: 'Buy', label: 'Buy', activeClassName: 'bg-up text-[#04150e] font-semibold' },
          { value: 'Sell', label: 'Sell', activeClassName: 'bg-down text-white font-semibold' },
        ]}
      />

      <div className="flex items-center justify-between text-[11px]">
        <span className="text-faint">Available</span>
        <span className="num text-muted" data-testid="available-balance">
          {available ? `${formatTokenAmount(available, spendToken)} ${tokenLabel(spendToken)}` : '—'}
        </span>
      </div>
    </>
  );
}

/** The limit price, with a button that copies the market price in. */
export function LimitPriceField({
  idBase,
  value,
  marketPrice,
  quoteLabel,
  error,
  change,
}: {
  idBase: string;
  value: string;
  marketPrice: SpecDecimal | null;
  quoteLabel: string;
  error: FormError | null;
  change: ChangeValues;
}) {
  return (
    <div>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={`${idBase}-price`} className="text-xs font-medium text-muted">
          Limit price
        </label>
        {marketPrice && (
          <button
            type="button"
            className="text-[11px] font-medium text-accent hover:underline"
            onClick={() => change({ limitPrice: formatCalculatorValue(marketPrice) })}
          >
            Use market
          </button>
        )}
      </div>
      <Input
        id={`${idBase}-price`}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        value={value}
        onChange={(event) => change({ limitPrice: event.target.value })}
        trailing={<span className="pr-1 text-xs">{quoteLabel}</span>}
        aria-invalid={error?.field === 'price' && error.tone === 'error' ? true : undefined}
        className="num pr-14 text-right"
      />
    </div>
  );
}

/** The amount in base tokens or as a quote total, with quick shares of the available balance. */
export function AmountField({
  idBase,
  values,
  pair,
  error,
  balancesKnown,
  change,
  onChangeUnit,
  onFillShare,
}: {
  idBase: string;
  values: OrderFormValues;
  pair: SpotPair;
  error: FormError | null;
  balancesKnown: boolean;
  change: ChangeValues;
  onChangeUnit: (unit: AmountUnit) => void;
  onFillShare: (share: number) => void;
}) {
  const baseLabel = tokenLabel(pair.base);
  const quoteLabel = tokenLabel(pair.quote);
  const unitLabel = values.amountUnit === 'base' ? baseLabel : quoteLabel;
  return (
    <div>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={`${idBase}-amount`} className="text-xs font-medium text-muted">
          {values.amountUnit === 'base' ? 'Amount' : 'Total'}
        </label>
        <SegmentedControl
          ariaLabel="Amount unit"
          size="xs"
          value={values.amountUnit}
          onChange={onChangeUnit}
          options={[
            { value: 'base', label: baseLabel, ariaLabel: `Amount in ${baseLabel}` },
            { value: 'quote', label: quoteLabel, ariaLabel: `Total in ${quoteLabel}` },
          ]}
        />
      </div>
      <Input
        id={`${idBase}-amount`}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        value={values.amount}
        onChange={(event) => change({ amount: event.target.value })}
        trailing={<span className="pr-1 text-xs">{unitLabel}</span>}
        aria-invalid={error && (error.field === 'amount' || error.field === 'balance') ? true : undefined}
        className="num pr-14 text-right"
      />
      <div className="mt-1.5 grid grid-cols-4 gap-1">
        {SHARES.map(({ label, share }) => (
          <button
            key={label}
            type="button"
            disabled={!balancesKnown}
            onClick={() => onFillShare(share)}
            className="h-6 rounded border border-line text-[11px] font-medium text-muted transition-colors hover:border-line-strong hover:text-fg disabled:cursor-not-allowed disabled:opacity-40"
          >
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}

/** Slippage (market orders) and the priority fee. */
export function ExecutionOptions({
  showSlippage,
  values,
  change,
}: {
  showSlippage: boolean;
  values: OrderFormValues;
  change: ChangeValues;
}) {
  return (
    <div className="space-y-2 text-[11px]">
      {showSlippage && (
        <div className="flex items-center justify-between gap-2">
          <span className="text-faint">Slippage</span>
          <SegmentedControl
            ariaLabel="Slippage"
            size="xs"
            value={String(values.slippageBps)}
            onChange={(bps) => change({ slippageBps: Number(bps) })}
            options={SLIPPAGE_PRESETS_BPS.map((bps) => ({
              value: String(bps),
              label: `${bps / 100}%`,
            }))}
          />
        </div>
      )}
      <div className="flex items-center justify-between gap-2">
        <span className="text-faint">Priority fee</span>
        <SegmentedControl
          ariaLabel="Priority fee"
          size="xs"
          value={values.priorityFee}
          onChange={(priorityFee) => change({ priorityFee })}
          options={PRIORITY_FEE_LEVELS.map((level) => ({
            value: level,
            label: PRIORITY_LABELS[level],
            ariaLabel: `${PRIORITY_LABELS[level]} priority fee (${PRIORITY_FEE_MICRO_LAMPORTS[level]} micro-lamports per compute unit)`,
          }))}
        />
      </div>
    </div>
  );
}

const PRICE_LABELS: Partial<Record<TOrderType, string>> = {
  Limit: 'Limit price',
  TakeProfit: 'Trigger price',
  StopLoss: 'Trigger price',
};

function SummaryRow({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="text-muted">{label}</dt>
      <dd className="num truncate font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The price, quantity and total the order comes to. */
export function OrderSummary({
  values,
  estimate,
  pair,
}: {
  values: OrderFormValues;
  estimate: OrderEstimate;
  pair: SpotPair;
}) {
  const priceLabel = PRICE_LABELS[values.orderType] ?? 'Est. price';
  // Only a limit fills at its price; a trigger order fills at market within its slippage bound.
  const isExactPrice = priceLabel !== 'Est. price';
  const isLimit = values.orderType === 'Limit';
  const isBuy = values.side === 'Buy';
  const baseLabel = tokenLabel(pair.base);
  const quoteLabel = tokenLabel(pair.quote);
  return (
    <dl className="space-y-1.5 rounded-md border border-line bg-canvas/60 px-3 py-2.5 text-xs">
      <SummaryRow
        label={priceLabel}
        value={
          estimate.price ? `${isExactPrice ? '' : '≈ '}${formatQuote(estimate.price)} ${quoteLabel}` : '—'
        }
      />
      <SummaryRow
        label="Quantity"
        testId="order-quantity"
        value={estimate.quantity ? `${formatAmount(estimate.quantity, 9)} ${baseLabel}` : '—'}
      />
      <SummaryRow
        label={isBuy ? 'You pay' : 'You receive'}
        testId="order-total"
        value={estimate.total ? `${isLimit ? '' : '≈ '}${formatQuote(estimate.total)} ${quoteLabel}` : '—'}
      />
    </dl>
  );
}

/** The escrow note, the form's error, and why the order cannot be placed (pair, wallet). */
export function OrderNotices({
  escrowNote,
  error,
  pairUnavailable,
  showWalletRequired,
}: {
  escrowNote: string | null;
  error: FormError | null;
  pairUnavailable: string | null;
  showWalletRequired: boolean;
}) {
  return (
    <>
      {escrowNote && (
        <p className="flex items-start gap-1.5 text-[11px] leading-snug text-muted">
          <Lock aria-hidden="true" className="mt-0.5 size-3 shrink-0" />
          {escrowNote}
        </p>
      )}

      {error && (
        <p
          role="alert"
          className={cn('text-xs', error.tone === 'info' ? 'text-info' : 'text-down')}
          data-testid="order-error"
        >
          {error.message}
        </p>
      )}

      {pairUnavailable && (
        <Notice tone="warn" title="Not tradable here">
          {pairUnavailable}
        </Notice>
      )}

      {showWalletRequired && (
        <Notice
          tone="warn"
          title={TRADE_MESSAGES.walletRequired}
          action={
            <Link to="/wallet-connect" className={buttonClasses({ variant: 'secondary', size: 'xs' })}>
              Connect
            </Link>
          }
        >
          Connect a signing Solana wallet to place orders.
        </Notice>
      )}
    </>
  );
}
