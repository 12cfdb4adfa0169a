import type { OrderCheckField, OrderFormValues, SpotPair } from '../order-form-model';
import type { OrderPrefill } from '../order-prefill';
import type { TriggerCheckField } from '../trigger-order-model';
import { formatAmount } from '../../../lib/format';
import { tokenLabel } from './spot-cells';

// The Place Order form's state: its values, the pair they were typed for, the prefill it applied
// and the note and error it shows.

export interface FormError {
  readonly message: string;
  readonly field: OrderCheckField | TriggerCheckField | 'submit';
  readonly tone: 'error' | 'info';
}

export interface FormState {
  readonly values: OrderFormValues;
  /** The pair the values were typed for: a pair switch clears the amount and price. */
  readonly pair: string;
  readonly appliedPrefillId: number;
  /** The prefill note shown above the form, until the order is placed or dismissed. */
  readonly note: string | null;
  readonly error: FormError | null;
}

export type FormAction =
  | { type: 'change'; patch: Partial<OrderFormValues> }
  | { type: 'pair'; pair: string }
  | { type: 'prefill'; prefill: OrderPrefill; note: string | null }
  | { type: 'error'; error: FormError | null }
  | { type: 'placed' }
  | { type: 'dismiss-note' };

export function reduceOrderForm(state: FormState, action: FormAction): FormState {
  switch (action.type) {
    case 'change':
      return { ...state, values: { ...state.values, ...action.patch }, error: null };
    case 'pair':
      return {
        ...state,
        pair: action.pair,
        values: { ...state.values, amount: '', limitPrice: '', triggerPrice: '' },
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
      return {
        ...state,
        values: { ...state.values, amount: '', limitPrice: '', triggerPrice: '' },
        note: null,
        error: null,
      };
    case 'dismiss-note':
      return { ...state, note: null };
  }
}

export function describePrefill(prefill: OrderPrefill, pair: SpotPair): string | null {
  // A price picked in the book needs no note: the field itself shows it.
  if (!prefill.side && prefill.quantity === undefined) return null;
  const side = prefill.side ?? 'Buy';
  const size = prefill.quantity ? `${formatAmount(Number(prefill.quantity), 9)} ` : '';
  const preposition = side === 'Buy' ? 'with' : 'for';
  return `Prefilled from ${prefill.origin}: ${side} ${size}${tokenLabel(pair.base)} ${preposition} ${tokenLabel(pair.quote)}`;
}
