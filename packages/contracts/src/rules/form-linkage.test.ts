import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  EMPTY_FORM_LINKAGE_STATE,
  formatCalculatorValue,
  onAmountChange,
  onPriceChange,
  onTotalChange,
  type FormLinkageState,
} from './form-linkage';
import { SpecDecimal } from './decimal';

const LOADING = { type: 'info', message: 'Loading current price...' } as const;

function form(fields: Partial<FormLinkageState>): FormLinkageState {
  return { ...EMPTY_FORM_LINKAGE_STATE, ...fields };
}

describe('formatCalculatorValue', () => {
  it.each([
    ['0.123456789', '0.12345679'],
    ['0.123456785', '0.12345679'], // half up
    ['0.123456784', '0.12345678'],
    ['150.5000', '150.5'],
    ['300', '300'],
    ['0.000000004', '0'],
    ['0.000000005', '0.00000001'],
    ['1e-8', '0.00000001'],
    ['12345678901234.5', '12345678901234.5'],
    ['1e21', '1000000000000000000000'],
    ['-0.000000001', '0'],
  ] as const)('%s → %s', (value, expected) => {
    expect(formatCalculatorValue(new SpecDecimal(value))).toBe(expected);
  });
});

describe('onAmountChange', () => {
  it('computes the total from the price', () => {
    expect(onAmountChange(form({ price: '150' }), '2')).toEqual({
      state: { amount: '2', price: '150', total: '300', lastChangedField: 'amount' },
    });
  });

  it('accepts commas and caps the total at 8 decimals', () => {
    expect(onAmountChange(form({ price: '0.333333333' }), '1,000').state.total).toBe('333.333333');
    expect(onAmountChange(form({ price: '0.123456789' }), '1').state.total).toBe('0.12345679');
  });

  it.each([[''], ['0'], ['abc']])('shows Loading current price... with price %j', (price) => {
    const result = onAmountChange(form({ price, total: '5' }), '2');
    expect(result.toast).toEqual(LOADING);
    expect(result.state).toEqual({ amount: '2', price, total: '5', lastChangedField: 'amount' });
  });

  it('leaves the total while the amount is not a number yet', () => {
    expect(onAmountChange(form({ price: '150', total: '300' }), 'abc')).toEqual({
      state: { amount: 'abc', price: '150', total: '300', lastChangedField: 'amount' },
    });
  });

  it('computes while typing a trailing point', () => {
    expect(onAmountChange(form({ price: '150' }), '2.').state.total).toBe('300');
  });

  it('clearing the amount clears the total when the amount was the last field edited', () => {
    const state = form({ amount: '2', price: '150', total: '300', lastChangedField: 'amount' });
    expect(onAmountChange(state, '')).toEqual({
      state: { amount: '', price: '150', total: '', lastChangedField: 'amount' },
    });
  });

  it('clearing the amount keeps the total when another field was edited last', () => {
    const state = form({ amount: '2', price: '150', total: '300', lastChangedField: 'total' });
    expect(onAmountChange(state, '  ')).toEqual({
      state: { amount: '  ', price: '150', total: '300', lastChangedField: 'amount' },
    });
  });
});

describe('onTotalChange', () => {
  it('computes the amount from the price', () => {
    expect(onTotalChange(form({ price: '150' }), '300')).toEqual({
      state: { amount: '2', price: '150', total: '300', lastChangedField: 'total' },
    });
  });

  it('caps the amount at 8 decimals', () => {
    expect(onTotalChange(form({ price: '3' }), '1').state.amount).toBe('0.33333333');
    expect(onTotalChange(form({ price: '3' }), '2').state.amount).toBe('0.66666667');
  });

  it('shows Loading current price... without a price', () => {
    const result = onTotalChange(form({ amount: '1' }), '300');
    expect(result.toast).toEqual(LOADING);
    expect(result.state.amount).toBe('1');
  });

  it('clearing the total clears the amount only when the total was the last field edited', () => {
    const byTotal = form({ amount: '2', price: '150', total: '300', lastChangedField: 'total' });
    expect(onTotalChange(byTotal, '').state).toEqual({
      amount: '',
      price: '150',
      total: '',
      lastChangedField: 'total',
    });
    const byAmount = { ...byTotal, lastChangedField: 'amount' as const };
    expect(onTotalChange(byAmount, '').state).toEqual({
      amount: '2',
      price: '150',
      total: '',
      lastChangedField: 'total',
    });
  });
});

describe('onPriceChange', () => {
  it('computes the total from the amount', () => {
    expect(onPriceChange(form({ amount: '2' }), '150')).toEqual({
      state: { amount: '2', price: '150', total: '300', lastChangedField: 'price' },
    });
  });

  it('auto-fills an empty amount with 0.001 and says so', () => {
    expect(onPriceChange(EMPTY_FORM_LINKAGE_STATE, '150')).toEqual({
      state: { amount: '0.001', price: '150', total: '0.15', lastChangedField: 'price' },
      toast: { type: 'info', message: 'Amount auto-filled with 0.001 to calculate the total' },
    });
  });

  it('does not compute from a price that is not positive yet', () => {
    expect(onPriceChange(form({ amount: '2', total: '300' }), '0')).toEqual({
      state: { amount: '2', price: '0', total: '300', lastChangedField: 'price' },
    });
  });

  it('clearing the price clears the total only when the price was the last field edited', () => {
    const byPrice = form({ amount: '2', price: '150', total: '300', lastChangedField: 'price' });
    expect(onPriceChange(byPrice, '').state).toEqual({
      amount: '2',
      price: '',
      total: '',
      lastChangedField: 'price',
    });
    const byAmount = { ...byPrice, lastChangedField: 'amount' as const };
    expect(onPriceChange(byAmount, '').state).toEqual({
      amount: '2',
      price: '',
      total: '300',
      lastChangedField: 'price',
    });
  });
});

/** A positive decimal string of up to 6 integer and 8 fraction digits. */
const positiveDecimal = fc
  .tuple(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 99_999_999 }))
  .filter(([whole, fraction]) => whole > 0 || fraction > 0)
  .map(([whole, fraction]) => `${whole}.${fraction.toString().padStart(8, '0')}`);

describe('form linkage properties', () => {
  // The display rounds to 8 decimals (≤ 0.5e-8); the 18-digit product adds at most a relative 5e-18.
  const tolerance = (exact: SpecDecimal) => new SpecDecimal('0.5e-8').plus(exact.abs().times('1e-17'));

  it('editing the amount keeps amount × price = total within display rounding', () => {
    fc.assert(
      fc.property(positiveDecimal, positiveDecimal, (amount, price) => {
        const { state } = onAmountChange(form({ price }), amount);
        const exact = new SpecDecimal(amount).times(price);
        expect(new SpecDecimal(state.total).minus(exact).abs().lte(tolerance(exact))).toBe(true);
      }),
    );
  });

  it('editing the price keeps amount × price = total within display rounding', () => {
    fc.assert(
      fc.property(positiveDecimal, positiveDecimal, (amount, price) => {
        const { state } = onPriceChange(form({ amount }), price);
        const exact = new SpecDecimal(amount).times(price);
        expect(new SpecDecimal(state.total).minus(exact).abs().lte(tolerance(exact))).toBe(true);
      }),
    );
  });

  it('editing the total gives an amount whose product with the price is the total within price × rounding', () => {
    fc.assert(
      fc.property(positiveDecimal, positiveDecimal, (total, price) => {
        const { state } = onTotalChange(form({ price }), total);
        const product = new SpecDecimal(state.amount).times(price);
        const bound = new SpecDecimal(price).times('0.5e-8').plus(tolerance(new SpecDecimal(total)));
        expect(product.minus(total).abs().lte(bound)).toBe(true);
      }),
    );
  });

  it('calculated values never show more than 8 decimals or exponents', () => {
    fc.assert(
      fc.property(positiveDecimal, positiveDecimal, (a, b) => {
        for (const text of [
          onAmountChange(form({ price: b }), a).state.total,
          onTotalChange(form({ price: b }), a).state.amount,
        ]) {
          expect(text).toMatch(/^\d+(\.\d{1,8})?$/);
          expect(text).not.toMatch(/\.\d*0$/);
        }
      }),
    );
  });
});
