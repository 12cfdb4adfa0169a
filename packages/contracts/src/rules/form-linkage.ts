import { MARKET_MESSAGES } from '../errors/messages';
import { CALCULATOR_MAX_DECIMALS, DEFAULT_AUTO_FILL_AMOUNT } from './constants';
import { SpecDecimal } from './decimal';

/** A field of the trading form. */
export type FormField = 'amount' | 'price' | 'total';

/** The linked fields of a trading form (one per trading context), as the user typed them. */
export interface FormLinkageState {
  readonly amount: string;
  readonly price: string;
  readonly total: string;
  /** The field the user edited last; decides what clearing a field clears. */
  readonly lastChangedField: FormField | null;
}

/** A notice to show beside the state change. */
export interface FormLinkageToast {
  readonly type: 'info';
  readonly message: string;
}

/** The form after one edit, and the notice to show, if any. */
export interface FormLinkageResult {
  readonly state: FormLinkageState;
  readonly toast?: FormLinkageToast;
}

/** An empty trading form. */
export const EMPTY_FORM_LINKAGE_STATE: FormLinkageState = {
  amount: '',
  price: '',
  total: '',
  lastChangedField: null,
};

const PLAIN_NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** A typed field as a non-negative decimal (commas stripped), or `null` while it is not one. */
function readField(text: string): SpecDecimal | null {
  const cleaned = text.replace(/,/g, '').trim();
  if (!PLAIN_NUMBER.test(cleaned)) return null;
  const value = new SpecDecimal(cleaned);
  return value.isFinite() ? value : null;
}

function readPrice(text: string): SpecDecimal | null {
  const price = readField(text);
  return price && price.gt(0) ? price : null;
}

function loadingPriceToast(): FormLinkageToast {
  return { type: 'info', message: MARKET_MESSAGES.loadingCurrentPrice };
}

/**
 * Formats a calculated value for the form: at most 8 decimals (rounded half up), trailing zeros
 * trimmed, never exponential notation.
 *
 * @example
 * formatCalculatorValue(new SpecDecimal('0.123456789')); // '0.12345679'
 * formatCalculatorValue(new SpecDecimal('150.5000'));    // '150.5'
 */
export function formatCalculatorValue(value: SpecDecimal): string {
  const rounded = value.toDecimalPlaces(CALCULATOR_MAX_DECIMALS, SpecDecimal.ROUND_HALF_UP);
  return rounded.isZero() ? '0' : rounded.toFixed();
}

/**
 * The user edited the amount: the total becomes amount × price. Without a usable price the total
 * stays and an info 'Loading current price...' shows. Clearing the amount clears the total when the
 * amount was the last field edited.
 *
 * @example
 * onAmountChange({ amount: '', price: '150', total: '', lastChangedField: null }, '2').state.total; // '300'
 */
export function onAmountChange(state: FormLinkageState, value: string): FormLinkageResult {
  const next: FormLinkageState = { ...state, amount: value, lastChangedField: 'amount' };
  if (value.trim() === '') {
    return { state: state.lastChangedField === 'amount' ? { ...next, total: '' } : next };
  }
  const price = readPrice(state.price);
  if (!price) return { state: next, toast: loadingPriceToast() };
  const amount = readField(value);
  if (!amount) return { state: next };
  return { state: { ...next, total: formatCalculatorValue(amount.times(price)) } };
}

/**
 * The user edited the total: the amount becomes total ÷ price. Without a usable price the amount
 * stays and an info 'Loading current price...' shows. Clearing the total clears the amount when the
 * total was the last field edited.
 *
 * @example
 * onTotalChange({ amount: '', price: '150', total: '', lastChangedField: null }, '300').state.amount; // '2'
 */
export function onTotalChange(state: FormLinkageState, value: string): FormLinkageResult {
  const next: FormLinkageState = { ...state, total: value, lastChangedField: 'total' };
  if (value.trim() === '') {
    return { state: state.lastChangedField === 'total' ? { ...next, amount: '' } : next };
  }
  const price = readPrice(state.price);
  if (!price) return { state: next, toast: loadingPriceToast() };
  const total = readField(value);
  if (!total) return { state: next };
  return { state: { ...next, amount: formatCalculatorValue(total.div(price)) } };
}

/**
 * The user edited the price: the total becomes amount × price. With an empty amount, the amount is
 * auto-filled with 0.001 and an info toast says so. Clearing the price clears the total when the
 * price was the last field edited.
 *
 * @example
 * const { state, toast } = onPriceChange(EMPTY_FORM_LINKAGE_STATE, '150');
 * // state: { amount: '0.001', price: '150', total: '0.15', lastChangedField: 'price' }; toast: info
 */
export function onPriceChange(state: FormLinkageState, value: string): FormLinkageResult {
  const next: FormLinkageState = { ...state, price: value, lastChangedField: 'price' };
  if (value.trim() === '') {
    return { state: state.lastChangedField === 'price' ? { ...next, total: '' } : next };
  }
  const price = readPrice(value);
  if (!price) return { state: next };
  if (state.amount.trim() === '') {
    const amount = new SpecDecimal(DEFAULT_AUTO_FILL_AMOUNT);
    return {
      state: { ...next, amount: DEFAULT_AUTO_FILL_AMOUNT, total: formatCalculatorValue(amount.times(price)) },
      toast: { type: 'info', message: MARKET_MESSAGES.amountAutoFilled },
    };
  }
  const amount = readField(state.amount);
  if (!amount) return { state: next };
  return { state: { ...next, total: formatCalculatorValue(amount.times(price)) } };
}
