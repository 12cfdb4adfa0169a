import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  ceil,
  compare,
  decimalOfNumber,
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

/** decimalOfNumber as it was: the test at each scale from 1 (the differential reference). */
function decimalOfNumberFromOne(value: number, out: Float64Array): boolean {
  if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) {
    out[0] = value;
    out[1] = 0;
    return true;
  }
  for (let k = 1; k <= 22; k += 1) {
    const scaled = value * 10 ** k;
    if (!(Math.abs(scaled) < 1e15)) break;
    const r = Math.round(scaled);
    if (r / 10 ** k === value) {
      out[0] = r;
      out[1] = k;
      return true;
    }
  }
  return false;
}

describe('decimalOfNumber', () => {
  // Its search starts at the scale it last found: any order of values must give the scan's answers.
  const decimal = fc.tuple(
    fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }),
    fc.integer({ min: -5, max: 24 }),
  );
  const doubles = fc.oneof(
    decimal.map(([n, scale]) => Number(`${n}e${-scale}`)),
    fc.double({ noDefaultInfinity: false, noNaN: false }),
    fc.constantFrom(0, -0, 0.1, 1e-22, 1e-23, 123456.789012345, 1e15 - 0.5, 999999999999999.9, 2 ** 53),
  );

  it('finds the fewest digits the scan from one finds, in any order of values', () => {
    const out = new Float64Array(2);
    const expected = new Float64Array(2);
    fc.assert(
      fc.property(fc.array(doubles, { maxLength: 40 }), (values) => {
        for (const value of values) {
          const found = decimalOfNumber(value, out);
          expect(found).toBe(decimalOfNumberFromOne(value, expected));
          if (found) expect([...out]).toEqual([...expected]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('walks down and up from the last scale', () => {
    const out = new Float64Array(2);
    for (const value of [
      150.1234567, 150.123456, 150.12, 150.1234567, 1.5e-7, 150.5, 0.001, 123.456789012345,
    ]) {
      const expected = new Float64Array(2);
      expect(decimalOfNumber(value, out)).toBe(decimalOfNumberFromOne(value, expected));
      expect([...out]).toEqual([...expected]);
    }
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
