import { useState, type Dispatch } from 'react';
import {
  formatCalculatorValue,
  shortenAddress,
  TRADE_MESSAGES,
  type SpecDecimal,
  type TOrderSide,
  type TOrderType,
} from '@solterm/contracts';
import { notify } from '../../../lib/toast';
import { PRIORITY_FEE_MICRO_LAMPORTS, checkSpotOrder, limitEscrowPreview } from '../order-form-model';
import type { OrderEstimate, OrderFormValues, SpotPair, TokenBalances } from '../order-form-model';
import { orderTypeLabel } from '../order-type-label';
import {
  submitOrder,
  submitTriggerOrder,
  TradeError,
  type OrderStage,
  type SubmitOrderDeps,
  type SubmittedOrder,
} from '../submit-order';
import { checkTriggerOrder, isTriggerType, type TriggerOrderInput } from '../trigger-order-model';
import { useOrderRefresh } from '../hooks/use-spot-data';
import type { FormAction, FormError } from './order-form-state';
import { tokenLabel } from './spot-cells';

// How the Place Order form checks and sends its order: market and limit through
// get-unsigned-transaction, trigger orders through POST /trading/spot/order; both signed in the
// wallet and executed the same way.

/** The success toast after an order (wording ours; the spec asks for the transaction hash). */
export function getOrderSuccessMessage(orderType: TOrderType, side: TOrderSide): string {
  if (orderType === 'Market') return `${side} order filled`;
  return `${orderTypeLabel(orderType)} ${side.toLowerCase()} order placed`;
}

/** The form's values as a trigger order (a quote total becomes base tokens at the order's price). */
export function toTriggerInput(values: OrderFormValues, estimate: OrderEstimate): TriggerOrderInput | null {
  if (!isTriggerType(values.orderType)) return null;
  const amount =
    values.amountUnit === 'base' || values.amount.trim() === ''
      ? values.amount
      : (estimate.quantity?.toFixed() ?? '');
  return {
    type: values.orderType,
    side: values.side,
    amount,
    triggerPrice: values.triggerPrice,
    trailPercent: values.trailPercent,
    maxSlippageBps: values.maxSlippageBps,
    priorityFeeMicroLamports: PRIORITY_FEE_MICRO_LAMPORTS[values.priorityFee],
  };
}

/** What a limit or trigger order escrows, exactly as the server will lock it, or null. */
export function describeEscrow(
  values: OrderFormValues,
  estimate: OrderEstimate,
  marketPrice: SpecDecimal | null,
  pair: SpotPair,
): string | null {
  let escrow: { token: string; amount: SpecDecimal } | null = null;
  const trigger = toTriggerInput(values, estimate);
  if (trigger) {
    const check = checkTriggerOrder({ order: trigger, pair, marketPrice, balances: null, hasWallet: true });
    escrow = check.ok ? check.escrow : null;
  } else if (values.orderType === 'Limit' && estimate.quantity && estimate.price) {
    escrow = limitEscrowPreview(values.side, estimate.quantity, estimate.price, pair);
  }
  if (!escrow) return null;
  const token = tokenLabel(escrow.token === pair.quote ? pair.quote : pair.base);
  const until = trigger ? 'it triggers and fills' : 'it fills';
  return `Placing it escrows ${formatCalculatorValue(escrow.amount)} ${token} on chain until ${until} or you cancel it.`;
}

type OrderRequestCheck =
  | { ok: true; send: (deps: SubmitOrderDeps) => Promise<SubmittedOrder> }
  | { ok: false; error: string; field: FormError['field']; tone: 'error' | 'info' };

function checkFormOrder(input: {
  values: OrderFormValues;
  estimate: OrderEstimate;
  pair: SpotPair;
  marketPrice: SpecDecimal | null;
  balances: TokenBalances | null;
  hasWallet: boolean;
}): OrderRequestCheck {
  const trigger = toTriggerInput(input.values, input.estimate);
  if (trigger) {
    const check = checkTriggerOrder({ ...input, order: trigger });
    return check.ok ? { ok: true, send: (deps) => submitTriggerOrder(check.order, deps) } : check;
  }
  const check = checkSpotOrder(input);
  return check.ok ? { ok: true, send: (deps) => submitOrder(check.order, deps) } : check;
}

/**
 * The form's submit: checks the order (nothing reaches the wallet when it is refused, the error is
 * shown inline and toasted), then builds, signs, executes and records it, toasting the result.
 */
export function useOrderSubmit(input: {
  values: OrderFormValues;
  estimate: OrderEstimate;
  pair: SpotPair;
  marketPrice: SpecDecimal | null;
  balances: TokenBalances | null;
  wallet: { isConnected: boolean; signTransaction(wire: Uint8Array): Promise<Uint8Array> };
  dispatch: Dispatch<FormAction>;
  onPlaced?: (result: SubmittedOrder) => void;
}) {
  const [stage, setStage] = useState<OrderStage | null>(null);
  const refresh = useOrderRefresh();
  const { values, wallet, dispatch } = input;

  async function submit() {
    if (stage !== null) return;
    const check = checkFormOrder({ ...input, hasWallet: wallet.isConnected });
    if (!check.ok) {
      dispatch({ type: 'error', error: { message: check.error, field: check.field, tone: check.tone } });
      if (check.tone === 'info') notify.info(check.error);
      else notify.error(check.error);
      return;
    }
    setStage('building');
    try {
      const result = await check.send({
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
      input.onPlaced?.(result);
    } catch (caught) {
      const message = caught instanceof TradeError ? caught.message : TRADE_MESSAGES.placeOrderFailed;
      dispatch({ type: 'error', error: { message, field: 'submit', tone: 'error' } });
      notify.error(message);
    } finally {
      setStage(null);
    }
  }

  return { stage, submit };
}
