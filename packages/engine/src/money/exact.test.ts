import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  ceil,
  compare,
  exactOf,
  exactOfNumber,
  ExactSum,
  exactUnits,
  floor,
  mul,
  shift,
  sub,
  toDec,
} from './exact';

const Wide = Decimal.clone({ precision: 500 });
const wide = (x: { n: bigint; scale: number }) => new Wide(x.n.toString()).div(new Wide(10).pow(x.scale));
const amount = fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 18 }));

describe('exact money arithmetic', () => {
  it('adds, subtracts and multiplies without rounding anything', () => {
    fc.assert(
      fc.property(amount, amount, ([an, as], [bn, bs]) => {
        const a = exactUnits(an, as);
        const b = exactUnits(bn, bs);
        expect(wide(add(a, b)).eq(wide(a).plus(wide(b)))).toBe(true);
        expect(wide(sub(a, b)).eq(wide(a).minus(wide(b)))).toBe(true);
        expect(wide(mul(a, b)).eq(wide(a).times(wide(b)))).toBe(true);
        expect(compare(a, b)).toBe(wide(a).cmp(wide(b)));
      }),
    );
  });

  it('rounds only when asked, in the direction asked', () => {
    expect(floor(exactOf(new Decimal('2.999')))).toBe(2n);
    expect(ceil(exactOf(new Decimal('2.001')))).toBe(3n);
    expect(floor(exactOf(new Decimal('-2.5')))).toBe(-3n);
    expect(floor(shift(exactUnits(1_234_567n, 6), 6))).toBe(1_234_567n);
    expect(toDec(exactUnits(1n, 30)).toString()).toBe('1e-30');
  });

  it('reads any finite decimal exactly, and refuses the rest', () => {
    expect(exactOf(new Decimal('123.4500'))).toEqual({ n: 12345n, scale: 2 });
    expect(() => exactOf(Number.NaN)).toThrow(RangeError);
  });
});

describe('exactOfNumber', () => {
  it('is the decimal a double prints as, in any notation', () => {
    for (const [value, expected] of [
      [0.1, '0.1'],
      [150, '150'],
      [1.5e-7, '0.00000015'],
      [-2.25, '-2.25'],
      [1e21, '1000000000000000000000'],
      [123456.789012345, '123456.789012345'],
    ] as const) {
      expect(toDec(exactOfNumber(value)).toFixed()).toBe(expected);
    }
    expect(() => exactOfNumber(Number.NaN)).toThrow(RangeError);
  });
});

describe('ExactSum', () => {
  it('ends with the n and scale of add() chained from ZERO', () => {
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 30 }), (terms) => {
        const sum = new ExactSum();
        let chained = { n: 0n, scale: 0 };
        for (const [n, scale] of terms) {
          sum.add(exactUnits(n, scale));
          chained = add(chained, exactUnits(n, scale));
        }
        expect(sum.value).toEqual(chained);
      }),
    );
  });
});
