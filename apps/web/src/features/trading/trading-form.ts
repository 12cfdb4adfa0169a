import { createContext, useCallback, useContext, useEffect, useSyncExternalStore } from 'react';
import {
  EMPTY_FORM_LINKAGE_STATE,
  formatCalculatorValue,
  formatPrice,
  onAmountChange,
  onPriceChange,
  onTotalChange,
  SpecDecimal,
  type FormField,
  type FormLinkageResult,
  type FormLinkageState,
  type TradingContext,
} from '@solterm/contracts';
import { createStore } from '../../lib/create-store';
import { notify } from '../../lib/toast';

/*
 * The quick trade's linked amount / price / total form (spec part 1 §3 "Trading form per page:
 * amount, price, total, isCalculating, lastChangedField"), kept per page context so each page's
 * quick trade keeps its own values. The /trade Place Order form has its own model
 * (order-form-model.ts). The linkage rules are the contracts' (form-linkage.ts).
 */

export interface TradingFormState extends FormLinkageState {
  /** An amount or total waits for the price before the other field can be calculated. */
  readonly isCalculating: boolean;
  /** The price field follows the live pair price until the user types a price of their own. */
  readonly isPriceFromMarket: boolean;
  /** The pair the form was filled for; another pair starts from an empty form. */
  readonly pairId: string | null;
}

export const EMPTY_TRADING_FORM: TradingFormState = {
  ...EMPTY_FORM_LINKAGE_STATE,
  isCalculating: false,
  isPriceFromMarket: true,
  pairId: null,
};

const PLAIN_NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** A typed field as a decimal (commas stripped), or null while it is not a number. */
function readDecimal(text: string): SpecDecimal | null {
  const cleaned = text.replace(/,/g, '').trim();
  if (!PLAIN_NUMBER.test(cleaned)) return null;
  const value = new SpecDecimal(cleaned);
  return value.isFinite() ? value : null;
}

function hasUsablePrice(price: string): boolean {
  const value = readDecimal(price);
  return value !== null && value.gt(0);
}

/**
 * A live price as the price field shows it: the spec's display precision from 1 up (`187.42`),
 * else up to 8 decimals without exponent (`0.00001234`), so the field always holds a plain number.
 *
 * @example formatMarketPriceInput(new SpecDecimal('187.4249')); // '187.42'
 */
export function formatMarketPriceInput(price: SpecDecimal): string {
  return price.abs().gte(1) ? formatPrice(price) : formatCalculatorValue(price);
}

/** The form after the user typed into a field, and the info toast to show, if any. */
export function editTradingForm(
  state: TradingFormState,
  field: FormField,
  value: string,
): { state: TradingFormState; toast?: FormLinkageResult['toast'] } {
  const linkage =
    field === 'amount'
      ? onAmountChange(state, value)
      : field === 'total'
        ? onTotalChange(state, value)
        : onPriceChange(state, value);
  const isWaitingForPrice = field !== 'price' && value.trim() !== '' && !hasUsablePrice(state.price);
  return {
    state: {
      ...linkage.state,
      isCalculating: isWaitingForPrice,
      isPriceFromMarket: field === 'price' ? false : state.isPriceFromMarket,
      pairId: state.pairId,
    },
    toast: linkage.toast,
  };
}

/**
 * The live price moved: a form that follows the market takes it and recalculates the field the
 * user did not type (the amount when they typed the total, else the total). No auto-fill, no toast.
 */
export function applyMarketPrice(state: TradingFormState, price: string): TradingFormState {
  if (!state.isPriceFromMarket || !hasUsablePrice(price)) return state;
  if (state.price === price && !state.isCalculating) return state;
  const next: TradingFormState = { ...state, price, isCalculating: false };
  const priceValue = readDecimal(price) as SpecDecimal;
  if (state.lastChangedField === 'total') {
    const total = readDecimal(state.total);
    return total ? { ...next, amount: formatCalculatorValue(total.div(priceValue)) } : next;
  }
  const amount = readDecimal(state.amount);
  return amount ? { ...next, total: formatCalculatorValue(amount.times(priceValue)) } : next;
}

/** After an order: amount and total clear, the price stays (and keeps following the market if it did). */
export function clearTradingForm(state: TradingFormState): TradingFormState {
  return { ...state, amount: '', total: '', lastChangedField: null, isCalculating: false };
}

/** The per-context forms, kept for the page's life (a pair switch does not clear them). */
export function createTradingFormStore() {
  const forms = createStore<Readonly<Record<TradingContext, TradingFormState>>>({
    trade: EMPTY_TRADING_FORM,
    dashboard: EMPTY_TRADING_FORM,
    futures: EMPTY_TRADING_FORM,
  });
  return {
    get: (context: TradingContext): TradingFormState => forms.get()[context],
    set(context: TradingContext, state: TradingFormState): void {
      forms.set((current) => (current[context] === state ? current : { ...current, [context]: state }));
    },
    subscribe: forms.subscribe,
  };
}

export type TradingFormStore = ReturnType<typeof createTradingFormStore>;

/** The app's trading forms. */
export const tradingFormStore: TradingFormStore = createTradingFormStore();

/** The form store hooks use: the app's, or a test's own. */
export const TradingFormStoreContext = createContext<TradingFormStore>(tradingFormStore);

export interface TradingFormControls {
  readonly form: TradingFormState;
  setAmount(value: string): void;
  setPrice(value: string): void;
  setTotal(value: string): void;
  /** Follow the live price again (after the user typed one). */
  followMarketPrice(): void;
  /** Clears amount and total after an order. */
  clear(): void;
}

/**
 * A page context's trading form for a pair, its price following `marketPrice` (the live pair
 * price, formatted with {@link formatMarketPriceInput}) until the user types a price. Switching the
 * pair starts an empty form. Info toasts of the linkage rules ('Loading current price...', the
 * 0.001 auto-fill) show through the app's toasts.
 */
export function useTradingForm(
  context: TradingContext,
  pairId: string,
  marketPrice: string | null,
): TradingFormControls {
  const store = useContext(TradingFormStoreContext);
  const getSnapshot = useCallback(() => store.get(context), [store, context]);
  const form = useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);

  useEffect(() => {
    let current = store.get(context);
    if (current.pairId !== pairId) current = { ...EMPTY_TRADING_FORM, pairId };
    store.set(context, marketPrice ? applyMarketPrice(current, marketPrice) : current);
  }, [store, context, pairId, marketPrice, form.isPriceFromMarket]);

  const edit = useCallback(
    (field: FormField, value: string) => {
      const result = editTradingForm(store.get(context), field, value);
      store.set(context, result.state);
      if (result.toast) notify.info(result.toast.message);
    },
    [store, context],
  );

  return {
    form,
    setAmount: useCallback((value: string) => edit('amount', value), [edit]),
    setPrice: useCallback((value: string) => edit('price', value), [edit]),
    setTotal: useCallback((value: string) => edit('total', value), [edit]),
    followMarketPrice: useCallback(() => {
      const current = store.get(context);
      store.set(context, { ...current, isPriceFromMarket: true });
    }, [store, context]),
    clear: useCallback(() => store.set(context, clearTradingForm(store.get(context))), [store, context]),
  };
}
