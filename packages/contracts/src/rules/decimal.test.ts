import { describe, it, expect } from 'vitest';
import { Decimal } from 'decimal.js';
import { parseSpecDecimal, SpecDecimal } from './decimal';

describe('SpecDecimal', () => {
  it('has 18 significant digits and rounds half up', () => {
    expect(SpecDecimal.precision).toBe(18);
    expect(SpecDecimal.rounding).toBe(Decimal.ROUND_HALF_UP);
    expect(new SpecDecimal(2).div(3).toString()).toBe('0.666666666666666667');
    expect(new SpecDecimal('0.125').toDecimalPlaces(2).toString()).toBe('0.13');
    expect(new SpecDecimal('-0.125').toDecimalPlaces(2).toString()).toBe('-0.13');
  });
});

describe('parseSpecDecimal', () => {
  it.each([
    [1.5, '1.5'],
    [0.1, '0.1'],
    ['  2.50 ', '2.5'],
    ['1e-7', '1e-7'],
    [new Decimal('3.25'), '3.25'],
    [-4, '-4'],
  ] as const)('parses %s', (input, expected) => {
    const parsed = parseSpecDecimal(input);
    expect(parsed?.toString()).toBe(expected);
    expect(parsed).toBeInstanceOf(SpecDecimal);
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['   '],
    ['abc'],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    ['-Infinity'],
    ['NaN'],
  ])('returns null for %s', (input) => {
    expect(parseSpecDecimal(input)).toBeNull();
  });
});
