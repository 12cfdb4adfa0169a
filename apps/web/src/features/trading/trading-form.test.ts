import { describe, expect, it } from 'vitest';
import { MARKET_MESSAGES, SpecDecimal } from '@solterm/contracts';
import {
  applyMarketPrice,
  clearTradingForm,
  editTradingForm,
  EMPTY_TRADING_FORM,
  formatMarketPriceInput,
  type TradingFormState,
} from './trading-form';

const form = (overrides: Partial<TradingFormState> = {}): TradingFormState => ({
  ...EMPTY_TRADING_FORM,
  pairId: 'SOL/USDC',
  ...overrides,
});

describe('editTradingForm', () => {
  it('computes the total from the amount with the linkage rules', () => {
    const { state, toast } = editTradingForm(form({ price: '150' }), 'amount', '2');
    expect(state).toMatchObject({
      amount: '2',
      total: '300',
      lastChangedField: 'amount',
      isCalculating: false,
    });
    expect(toast).toBeUndefined();
  });

  it('waits for the price with an info toast and isCalculating', () => {
    const { state, toast } = editTradingForm(form(), 'amount', '2');
    expect(state.isCalculating).toBe(true);
    expect(toast).toEqual({ type: 'info', message: MARKET_MESSAGES.loadingCurrentPrice });
  });

  it('auto-fills 0.001 when the price is typed into an empty form, and stops following the market', () => {
    const { state, toast } = editTradingForm(form(), 'price', '150');
    expect(state).toMatchObject({ amount: '0.001', total: '0.15', isPriceFromMarket: false });
    expect(toast?.type).toBe('info');
  });

  it('computes the amount from the total', () => {
    const { state } = editTradingForm(form({ price: '150' }), 'total', '75');
    expect(state.amount).toBe('0.5');
  });

  it('strips commas', () => {
    const { state } = editTradingForm(form({ price: '1,000' }), 'amount', '1,5');
    expect(state.total).toBe('15000');
  });
});

describe('applyMarketPrice', () => {
  it('fills the price and recalculates the total of a typed amount', () => {
    const next = applyMarketPrice(
      form({ amount: '2', lastChangedField: 'amount', isCalculating: true }),
      '150',
    );
    expect(next).toMatchObject({ price: '150', total: '300', isCalculating: false });
  });

  it('keeps a typed total and recalculates the amount', () => {
    const next = applyMarketPrice(
      form({ price: '100', total: '300', amount: '3', lastChangedField: 'total' }),
      '150',
    );
    expect(next).toMatchObject({ price: '150', amount: '2', total: '300' });
  });

  it('never auto-fills an amount', () => {
    expect(applyMarketPrice(form(), '150')).toMatchObject({ price: '150', amount: '', total: '' });
  });

  it('leaves a price the user typed alone', () => {
    const typed = form({ price: '140', isPriceFromMarket: false });
    expect(applyMarketPrice(typed, '150')).toBe(typed);
  });

  it('ignores an unusable price', () => {
    const state = form({ price: '150' });
    expect(applyMarketPrice(state, '0')).toBe(state);
  });
});

describe('clearTradingForm', () => {
  it('clears amount and total and keeps the price', () => {
    const cleared = clearTradingForm(
      form({ amount: '1', price: '150', total: '150', lastChangedField: 'amount' }),
    );
    expect(cleared).toMatchObject({ amount: '', total: '', price: '150', lastChangedField: null });
  });
});

describe('formatMarketPriceInput', () => {
  it('uses the display precision from 1 up and plain decimals below', () => {
    expect(formatMarketPriceInput(new SpecDecimal('187.4249'))).toBe('187.42');
    expect(formatMarketPriceInput(new SpecDecimal('0.000012345678'))).toBe('0.00001235');
    expect(formatMarketPriceInput(new SpecDecimal('0.5'))).toBe('0.5');
  });
});
