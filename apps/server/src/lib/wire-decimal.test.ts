import { describe, expect, it } from 'vitest';
import { Dec } from '@solterm/engine';
import { centsToUsd, percentChange, toSignificant, toWireNumber, usd } from './wire-decimal';

describe('toWireNumber: the rounded decimal as a JSON number', () => {
  it.each([
    ['187.42', 187.42],
    ['0.00002134', 0.00002134],
    ['1612345678.00', 1612345678],
    ['-3.25', -3.25],
    ['0.00000012', 1.2e-7],
    ['88000000000000', 88_000_000_000_000],
  ])('sends %s as %s', (text, number) => {
    expect(toWireNumber(text)).toBe(number);
    expect(toWireNumber(new Dec(text))).toBe(number);
  });

  it('keeps the text: the shortest form of the number is the decimal computed', () => {
    // Given values rounded in decimals as the market rounds them
    const price = toSignificant(new Dec('187.42').div('0.999912'));
    const change = percentChange('110.005', '100');
    const cap = usd(new Dec('0.00002134').times('77000000000000'));
    // Then each number prints as exactly that decimal
    expect(String(toWireNumber(price))).toBe(price);
    expect(String(toWireNumber(change))).toBe(new Dec(change).toString());
    expect(String(toWireNumber(cap))).toBe(new Dec(cap).toString());
    expect(JSON.stringify({ volume: toWireNumber(centsToUsd(123_456_789)) })).toBe('{"volume":1234567.89}');
  });

  it('rounds a decimal longer than a double carries to 15 significant digits, half up', () => {
    expect(toWireNumber('1234567890.123456789')).toBe(1234567890.12346);
    expect(toWireNumber(new Dec('26400000000000.12345'))).toBe(26400000000000.1);
    expect(toWireNumber('0.1234567890123456789')).toBe(0.123456789012346);
  });

  it('sends a negative zero as 0', () => {
    expect(Object.is(toWireNumber('-0.00'), 0)).toBe(true);
    expect(Object.is(toWireNumber(new Dec('-0')), 0)).toBe(true);
  });
});
