import { useId, useReducer, type FormEvent, type Ref } from 'react';
import { ArrowLeftRight } from 'lucide-react';
import { TRADE_MESSAGES, type ErrorCode, type SpecDecimal } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { mintOfToken, useDangerConfirmation } from '../../market';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import type { OrderStage, SubmittedOrder } from '../submit-order';
import { getBalance } from '../spend-check';
import { usePairBalances } from '../hooks/use-spot-data';
import {
  convertAmountText,
  estimateOrder,
  getShareOfBalance,
  getSpendToken,
  INITIAL_ORDER_FORM_VALUES,
  type AmountUnit,
  type OrderFormValues,
  type SpotPair,
} from '../order-form-model';
import { describeEscrow, useOrderSubmit } from './order-form-submit';
import { OrderPriceFields } from './order-form-trigger-fields';
import type { OrderPrefill } from '../order-prefill';
import { tokenLabel } from './spot-cells';
import { describePrefill, reduceOrderForm } from './order-form-state';
import {
  AmountField,
  ExecutionOptions,
  OrderKindControls,
  OrderNotices,
  OrderSummary,
  PrefillNote,
} from './order-form-fields';

/** Place Order's submit button: Buy or Sell, showing the stage while the order is on its way. */
function SubmitOrderButton(props: { label: string; isBuy: boolean; isBusy: boolean; isDisabled: boolean }) {
  return (
    <Button
      type="submit"
      size="lg"
      isBlock
      variant={props.isBuy ? 'buy' : 'sell'}
      isLoading={props.isBusy}
      disabled={props.isDisabled}
      className="mt-auto"
    >
      {props.label}
    </Button>
  );
}

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

/** Why the venue cannot trade this pair (e.g. a token with no mint on the local cluster), or null. */
function getPairUnavailableMessage(error: unknown, pair: string): string | null {
  return error instanceof ApiError && error.code === PAIR_UNAVAILABLE
    ? (error.serverMessage ?? TRADE_MESSAGES.pairUnavailable(pair))
    : null;
}

/** The form's state; it follows a new pair or a new prefill while rendering (no effect round trip). */
function useOrderFormState(pair: SpotPair, prefill: OrderPrefill | null) {
  const [state, dispatch] = useReducer(reduceOrderForm, undefined, () => ({
    values: INITIAL_ORDER_FORM_VALUES,
    pair: pair.pair,
    // A prefill made before the form was on screen is stale (it was for an earlier visit).
    appliedPrefillId: prefill?.id ?? 0,
    note: null,
    error: null,
  }));
  if (state.pair !== pair.pair) {
    dispatch({ type: 'pair', pair: pair.pair });
  } else if (prefill && prefill.id !== state.appliedPrefillId && prefill.pair === pair.pair) {
    dispatch({ type: 'prefill', prefill, note: describePrefill(prefill, pair) });
  }
  return [state, dispatch] as const;
}

interface OrderFormProps {
  pair: SpotPair;
  /** The pair's current price (quote per base), or null while loading. */
  marketPrice: SpecDecimal | null;
  wallet: OrderFormWallet;
  /** The latest prefill; applied once when it is newer than the form and for this pair. */
  prefill: OrderPrefill | null;
  onPlaced?: (result: SubmittedOrder) => void;
  ref?: Ref<HTMLDivElement>;
  className?: string;
}

/**
 * Place Order (part 2 §2, §4, §5): Market, Limit, Take profit, Stop loss or Trailing stop; Buy or
 * Sell; an amount in base tokens or as a quote total; a limit or trigger price (or a trail %);
 * slippage (market; a bound for triggers) and an optional priority fee. Checks the order and the
 * balance locally, then builds, signs (in the user's wallet), executes and records it; toasts the
 * transaction hash, clears the form and refreshes orders, positions and balances 2 s later.
 */
export function OrderForm({ pair, marketPrice, wallet, prefill, onPlaced, ref, className }: OrderFormProps) {
  const idBase = useId();
  const [state, dispatch] = useOrderFormState(pair, prefill);
  const { suggestion } = usePairBalances(pair.pairId);
  const danger = useDangerConfirmation(pair.baseMint ?? mintOfToken(pair.base), tokenLabel(pair.base));

  const { values, error } = state;
  const balances = suggestion.data?.available_balances ?? null;
  const estimate = estimateOrder(values, marketPrice, pair.baseDecimals);
  const spendToken = getSpendToken(values.side, pair);
  const baseLabel = tokenLabel(pair.base);
  const quoteLabel = tokenLabel(pair.quote);
  const { stage, submit } = useOrderSubmit({
    values,
    estimate,
    pair,
    marketPrice,
    balances,
    wallet,
    dispatch,
    onPlaced,
  });
  const isBusy = stage !== null;
  const showWalletRequired = !wallet.isConnected && !wallet.isRestoring;
  // The venue cannot trade this pair (e.g. a token with no mint on the local cluster).
  const pairUnavailable = getPairUnavailableMessage(suggestion.error, pair.pair);

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

  const available = balances ? getBalance(balances, spendToken) : null;
  const escrowNote = describeEscrow(values, estimate, marketPrice, pair);

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
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            // A buy of a token whose safety reads danger waits for an explicit confirmation.
            if (!isBusy) danger.guard(values.side, () => void submit());
          }}
          className="flex flex-1 flex-col gap-3 p-4"
        >
          <PrefillNote note={state.note} onDismiss={() => dispatch({ type: 'dismiss-note' })} />

          <OrderKindControls
            values={values}
            change={change}
            marketPrice={marketPrice}
            quoteLabel={quoteLabel}
            available={available}
            spendToken={spendToken}
          />

          <OrderPriceFields
            idBase={idBase}
            values={values}
            marketPrice={marketPrice}
            quoteLabel={quoteLabel}
            error={error}
            change={change}
          />

          <AmountField
            idBase={idBase}
            values={values}
            pair={pair}
            error={error}
            balancesKnown={balances !== null}
            change={change}
            onChangeUnit={changeUnit}
            onFillShare={fillShare}
          />

          <ExecutionOptions showSlippage={values.orderType === 'Market'} values={values} change={change} />

          <OrderSummary values={values} estimate={estimate} pair={pair} />

          <OrderNotices
            escrowNote={escrowNote}
            error={error}
            pairUnavailable={pairUnavailable}
            showWalletRequired={showWalletRequired}
          />

          <SubmitOrderButton
            label={stage ? STAGE_LABELS[stage] : `${values.side} ${baseLabel}`}
            isBuy={values.side === 'Buy'}
            isBusy={isBusy}
            isDisabled={pairUnavailable !== null}
          />
        </form>
      </Card>
      {danger.modal}
    </div>
  );
}
