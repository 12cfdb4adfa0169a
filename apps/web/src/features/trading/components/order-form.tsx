import { useId, useReducer, useState, type FormEvent, type Ref } from 'react';
import { Link } from 'react-router';
import { ArrowLeftRight, Info, Lock, X } from 'lucide-react';
import {
  formatCalculatorValue,
  shortenAddress,
  TRADE_MESSAGES,
  type ErrorCode,
  type SpecDecimal,
  type TOrderSide,
  type TOrderType,
} from '@solterm/contracts';
import { buttonClasses, Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/toast';
import { submitOrder, TradeError, type OrderStage, type SubmittedOrder } from '../submit-order';
import { getBalance } from '../spend-check';
import { formatTokenAmount } from '../trade-format';
import { usePairBalances, useOrderRefresh } from '../hooks/use-spot-data';
import {
  checkSpotOrder,
  convertAmountText,
  estimateOrder,
  getShareOfBalance,
  getSpendToken,
  INITIAL_ORDER_FORM_VALUES,
  limitEscrowPreview,
  PRIORITY_FEE_LEVELS,
  PRIORITY_FEE_MICRO_LAMPORTS,
  SLIPPAGE_PRESETS_BPS,
  type AmountUnit,
  type OrderCheckField,
  type OrderFormValues,
  type PriorityFeeLevel,
  type SpotPair,
} from '../order-form-model';
import type { OrderPrefill } from '../order-prefill';
import { formatAmount, formatQuote } from '../trade-format';
import { tokenLabel } from './spot-cells';

/** What the form needs of the page's wallet. */
export interface OrderFormWallet {
  readonly isConnected: boolean;
  /** True while a stored wallet reconnects on load (no Wallet Required notice meanwhile). */
  readonly isRestoring: boolean;
  signTransaction(wire: Uint8Array): Promise<Uint8Array>;
}

const PAIR_UNAVAILABLE: ErrorCode = 'TRADING__PAIR_UNAVAILABLE';

/** Button text while an order is on its way. */
export const STAGE_LABELS: Readonly<Record<OrderStage, string>> = {
  building: 'Building transaction…',
  signing: 'Approve in your wallet…',
  executing: 'Sending to Solana…',
  recording: 'Recording order…',
};

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

/** The success toast after an order (wording ours; the spec asks for the transaction hash). */
export function getOrderSuccessMessage(orderType: TOrderType, side: TOrderSide): string {
  return orderType === 'Limit' ? `Limit ${side.toLowerCase()} order placed` : `${side} order filled`;
}

interface FormError {
  readonly message: string;
  readonly field: OrderCheckField | 'submit';
  readonly tone: 'error' | 'info';
}

interface FormState {
  readonly values: OrderFormValues;
  /** The pair the values were typed for: a pair switch clears the amount and price. */
  readonly pair: string;
  readonly appliedPrefillId: number;
  /** The prefill note shown above the form, until the order is placed or dismissed. */
  readonly note: string | null;
  readonly error: FormError | null;
}

type FormAction =
  | { type: 'change'; patch: Partial<OrderFormValues> }
  | { type: 'pair'; pair: string }
  | { type: 'prefill'; prefill: OrderPrefill; note: string | null }
  | { type: 'error'; error: FormError | null }
  | { type: 'placed' }
  | { type: 'dismiss-note' };

function reduce(state: FormState, action: FormAction): FormState {
  switch (action.type) {
    case 'change':
      return { ...state, values: { ...state.values, ...action.patch }, error: null };
    case 'pair':
      return {
        ...state,
        pair: action.pair,
        values: { ...state.values, amount: '', limitPrice: '' },
        note: null,
        error: null,
      };
    case 'prefill': {
      const { prefill } = action;
      const values: OrderFormValues = {
        ...state.values,
        side: prefill.side ?? state.values.side,
        orderType: prefill.orderType ?? state.values.orderType,
        ...(prefill.quantity !== undefined ? { amount: prefill.quantity, amountUnit: 'base' as const } : {}),
        ...(prefill.limitPrice !== undefined ? { limitPrice: prefill.limitPrice } : {}),
      };
      return { ...state, values, appliedPrefillId: prefill.id, note: action.note ?? state.note, error: null };
    }
    case 'error':
      return { ...state, error: action.error };
    case 'placed':
      return { ...state, values: { ...state.values, amount: '', limitPrice: '' }, note: null, error: null };
    case 'dismiss-note':
      return { ...state, note: null };
  }
}

function describePrefill(prefill: OrderPrefill, pair: SpotPair): string | null {
  // A price picked in the book needs no note: the field itself shows it.
  if (!prefill.side && prefill.quantity === undefined) return null;
  const side = prefill.side ?? 'Buy';
  const size = prefill.quantity ? `${formatAmount(Number(prefill.quantity), 9)} ` : '';
  const preposition = side === 'Buy' ? 'with' : 'for';
  return `Prefilled from ${prefill.origin}: ${side} ${size}${tokenLabel(pair.base)} ${preposition} ${tokenLabel(pair.quote)}`;
}

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

/**
 * Place Order (part 2 §2, §4, §5): Market or Limit, Buy or Sell, an amount in base tokens or as a
 * quote total, a limit price, slippage (market) and an optional priority fee. Checks the order and
 * the balance locally, then builds, signs (in the user's wallet), executes and records it; toasts
 * the transaction hash, clears the form and refreshes orders, positions and balances 2 s later.
 */
export function OrderForm({
  pair,
  marketPrice,
  wallet,
  prefill,
  onPlaced,
  ref,
  className,
}: {
  pair: SpotPair;
  /** The pair's current price (quote per base), or null while loading. */
  marketPrice: SpecDecimal | null;
  wallet: OrderFormWallet;
  /** The latest prefill; applied once when it is newer than the form and for this pair. */
  prefill: OrderPrefill | null;
  onPlaced?: (result: SubmittedOrder) => void;
  ref?: Ref<HTMLDivElement>;
  className?: string;
}) {
  const idBase = useId();
  const [state, dispatch] = useReducer(reduce, undefined, () => ({
    values: INITIAL_ORDER_FORM_VALUES,
    pair: pair.pair,
    // A prefill made before the form was on screen is stale (it was for an earlier visit).
    appliedPrefillId: prefill?.id ?? 0,
    note: null,
    error: null,
  }));
  const [stage, setStage] = useState<OrderStage | null>(null);
  const { suggestion } = usePairBalances(pair.pairId);
  const refresh = useOrderRefresh();

  // Adjust to a new pair or a new prefill while rendering (no effect round trip).
  if (state.pair !== pair.pair) {
    dispatch({ type: 'pair', pair: pair.pair });
  } else if (prefill && prefill.id !== state.appliedPrefillId && prefill.pair === pair.pair) {
    dispatch({ type: 'prefill', prefill, note: describePrefill(prefill, pair) });
  }

  const { values, error } = state;
  const isLimit = values.orderType === 'Limit';
  const isBuy = values.side === 'Buy';
  const balances = suggestion.data?.available_balances ?? null;
  const estimate = estimateOrder(values, marketPrice, pair.baseDecimals);
  const spendToken = getSpendToken(values.side, pair);
  const baseLabel = tokenLabel(pair.base);
  const quoteLabel = tokenLabel(pair.quote);
  const unitLabel = values.amountUnit === 'base' ? baseLabel : quoteLabel;
  const isBusy = stage !== null;
  const showWalletRequired = !wallet.isConnected && !wallet.isRestoring;
  // The venue cannot trade this pair (e.g. a token with no mint on the local cluster).
  const pairUnavailable =
    suggestion.error instanceof ApiError && suggestion.error.code === PAIR_UNAVAILABLE
      ? (suggestion.error.serverMessage ?? TRADE_MESSAGES.pairUnavailable(pair.pair))
      : null;

  function change(patch: Partial<OrderFormValues>) {
    dispatch({ type: 'change', patch });
  }

  function changeUnit(unit: AmountUnit) {
    const amount = convertAmountText(
      values.amount,
      values.amountUnit,
      unit,
      estimate.price,
      pair.baseDecimals,
    );
    change({ amountUnit: unit, amount });
  }

  function fillShare(share: number) {
    if (!balances) return;
    const amount = getShareOfBalance(share, values.side, values.amountUnit, balances, pair, estimate.price);
    change({ amount });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isBusy) return;
    const check = checkSpotOrder({
      values,
      pair,
      marketPrice,
      balances,
      hasWallet: wallet.isConnected,
    });
    if (!check.ok) {
      dispatch({ type: 'error', error: { message: check.error, field: check.field, tone: check.tone } });
      if (check.tone === 'info') notify.info(check.error);
      else notify.error(check.error);
      return;
    }
    setStage('building');
    try {
      const result = await submitOrder(check.order, {
        signTransaction: (wire) => wallet.signTransaction(wire),
        onStage: setStage,
      });
      // A pending one is announced (and followed) by its signature already.
      if (!result.pending) {
        notify.success(getOrderSuccessMessage(values.orderType, values.side), {
          description: `Transaction ${shortenAddress(result.transactionHash, 8, 8)}`,
        });
      }
      dispatch({ type: 'placed' });
      refresh(result.order);
      onPlaced?.(result);
    } catch (caught) {
      const message = caught instanceof TradeError ? caught.message : TRADE_MESSAGES.placeOrderFailed;
      dispatch({ type: 'error', error: { message, field: 'submit', tone: 'error' } });
      notify.error(message);
    } finally {
      setStage(null);
    }
  }

  const available = balances ? getBalance(balances, spendToken) : null;
  // The escrow exactly as the server will lock it (the engine's rule, rounded up to whole units).
  const escrow =
    isLimit && estimate.quantity && estimate.price
      ? limitEscrowPreview(values.side, estimate.quantity, estimate.price, pair)
      : null;
  const escrowNote = escrow
    ? `Placing it escrows ${formatCalculatorValue(escrow.amount)} ${
        escrow.token === pair.quote ? quoteLabel : baseLabel
      } on chain until it fills or you cancel it.`
    : null;

  return (
    <div ref={ref} className={cn('scroll-mt-20', className)}>
      <Card className="flex h-full flex-col" data-testid="order-panel">
        <CardHeader
          title="Place Order"
          icon={<ArrowLeftRight className="size-4" />}
          actions={<span className="text-[11px] font-medium text-muted">{pair.pair}</span>}
          className="py-2.5"
        />
        <form
          aria-label="Place order"
          noValidate
          onSubmit={(event) => void submit(event)}
          className="flex flex-1 flex-col gap-3 p-4"
        >
          {state.note && (
            <div
              className="flex items-start gap-2 rounded-md border border-accent/25 bg-accent-soft px-3 py-2 text-xs text-fg/90"
              data-testid="order-intent"
            >
              <Info aria-hidden="true" className="mt-0.5 size-3.5 shrink-0 text-accent" />
              <span className="flex-1">{state.note}</span>
              <button
                type="button"
                onClick={() => dispatch({ type: 'dismiss-note' })}
                aria-label="Dismiss"
                className="rounded text-faint hover:text-fg"
              >
                <X className="size-3.5" />
              </button>
            </div>
          )}

          <div className="flex items-center justify-between gap-2">
            <SegmentedControl
              ariaLabel="Order type"
              size="sm"
              value={values.orderType}
              onChange={(orderType) => change({ orderType })}
              options={[
                { value: 'Market', label: 'Market' },
                { value: 'Limit', label: 'Limit' },
              ]}
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

          {isLimit && (
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
                value={values.limitPrice}
                onChange={(event) => change({ limitPrice: event.target.value })}
                trailing={<span className="pr-1 text-xs">{quoteLabel}</span>}
                aria-invalid={error?.field === 'price' && error.tone === 'error' ? true : undefined}
                className="num pr-14 text-right"
              />
            </div>
          )}

          <div>
            <div className="mb-1.5 flex items-center justify-between gap-2">
              <label htmlFor={`${idBase}-amount`} className="text-xs font-medium text-muted">
                {values.amountUnit === 'base' ? 'Amount' : 'Total'}
              </label>
              <SegmentedControl
                ariaLabel="Amount unit"
                size="xs"
                value={values.amountUnit}
                onChange={changeUnit}
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
              aria-invalid={
                error && (error.field === 'amount' || error.field === 'balance') ? true : undefined
              }
              className="num pr-14 text-right"
            />
            <div className="mt-1.5 grid grid-cols-4 gap-1">
              {SHARES.map(({ label, share }) => (
                <button
                  key={label}
                  type="button"
                  disabled={!balances}
                  onClick={() => fillShare(share)}
                  className="h-6 rounded border border-line text-[11px] font-medium text-muted transition-colors hover:border-line-strong hover:text-fg disabled:cursor-not-allowed disabled:opacity-40"
                >
                  {label}
                </button>
              ))}
            </div>
          </div>

          <div className="space-y-2 text-[11px]">
            {!isLimit && (
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

          <dl className="space-y-1.5 rounded-md border border-line bg-canvas/60 px-3 py-2.5 text-xs">
            <SummaryRow
              label={isLimit ? 'Limit price' : 'Est. price'}
              value={
                estimate.price ? `${isLimit ? '' : '≈ '}${formatQuote(estimate.price)} ${quoteLabel}` : '—'
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
              value={
                estimate.total ? `${isLimit ? '' : '≈ '}${formatQuote(estimate.total)} ${quoteLabel}` : '—'
              }
            />
          </dl>

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

          <Button
            type="submit"
            size="lg"
            isBlock
            variant={isBuy ? 'buy' : 'sell'}
            isLoading={isBusy}
            disabled={pairUnavailable !== null}
            className="mt-auto"
          >
            {stage ? STAGE_LABELS[stage] : `${values.side} ${baseLabel}`}
          </Button>
        </form>
      </Card>
    </div>
  );
}
