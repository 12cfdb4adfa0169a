import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Atr, Bollinger, CROSSED_DOWN, CROSSED_UP, Ema, Macd, Rsi, Sma } from './indicators';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const series = fc.array(fc.double({ min: 0.001, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 300 });
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('incremental indicators agree with their textbook definitions', () => {
  it('SMA is the mean of the last `period` values (NaN before)', () => {
    fc.assert(
      fc.property(series, fc.integer({ min: 1, max: 30 }), (xs, period) => {
        const sma = new Sma(period);
        xs.forEach((x, i) => {
          const value = sma.update(x);
          if (i + 1 < period) expect(value).toBeNaN();
          else expect(close(value, mean(xs.slice(i + 1 - period, i + 1)))).toBe(true);
        });
      }),
    );
  });

  it('EMA starts at the SMA of its first values, then moves α of the way', () => {
    const ema = new Ema(3);
    expect([1, 2, 3, 4, 5].map((x) => ema.update(x))).toEqual([Number.NaN, Number.NaN, 2, 3, 4]);
  });

  it('RSI is 100 on a rising series, 0 on a falling one, 50 on a flat one, in [0, 100] always', () => {
    const feed = (xs: number[], period = 3) => {
      const rsi = new Rsi(period);
      return xs.map((x) => rsi.update(x)).at(-1)!;
    };
    expect(feed([1, 2, 3, 4, 5])).toBe(100);
    expect(feed([5, 4, 3, 2, 1])).toBe(0);
    expect(feed([2, 2, 2, 2, 2])).toBe(50);
    // Wilder's textbook example (14 periods): RSI ≈ 70.46 after the 15th close.
    const closes = [
      44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28,
    ];
    expect(feed(closes, 14)).toBeCloseTo(70.46, 1);
    fc.assert(
      fc.property(series, (xs) => {
        const rsi = new Rsi(5);
        for (const x of xs) {
          const value = rsi.update(x);
          if (!Number.isNaN(value)) expect(value >= 0 && value <= 100).toBe(true);
        }
      }),
    );
  });

  it('Bollinger bands are the mean ± width population deviations', () => {
    fc.assert(
      fc.property(series, fc.integer({ min: 2, max: 20 }), (xs, period) => {
        const bands = new Bollinger(period, 2);
        xs.forEach((x, i) => {
          bands.update(x);
          if (i + 1 < period) return;
          const window = xs.slice(i + 1 - period, i + 1);
          const m = mean(window);
          const sd = Math.sqrt(mean(window.map((v) => (v - m) ** 2)));
          expect(close(bands.middle, m)).toBe(true);
          // Rounding error scales with the values seen since the last recompute (≤ two windows back).
          const recent = xs.slice(Math.max(0, i + 1 - 2 * period), i + 1);
          expect(Math.abs(bands.upper - (m + 2 * sd))).toBeLessThan(1e-6 * Math.max(1, ...recent));
        });
      }),
    );
  });

  it('ATR averages the true range, counting gaps from the previous close', () => {
    const atr = new Atr(2);
    expect(atr.update(10, 8, 9)).toBeNaN();
    // True range of the second candle: max(11 − 10, |11 − 9|, |10 − 9|) = 2; ATR = (2 + 2) / 2.
    expect(atr.update(11, 10, 10.5)).toBe(2);
    // Gap down: max(8 − 7, |8 − 10.5|, |7 − 10.5|) = 3.5; Wilder: (2 × 1 + 3.5) / 2.
    expect(atr.update(8, 7, 7.5)).toBe(2.75);
  });

  it('MACD is EMA(fast) − EMA(slow) with its signal EMA', () => {
    const macd = new Macd(2, 3, 2);
    const fast = new Ema(2);
    const slow = new Ema(3);
    for (const x of [1, 3, 2, 5, 4, 6]) {
      macd.update(x);
      const f = fast.update(x);
      const s = slow.update(x);
      if (!Number.isNaN(s)) expect(macd.macd).toBeCloseTo(f - s, 12);
    }
    expect(macd.histogram).toBeCloseTo(macd.macd - macd.signal, 12);
    expect(() => new Macd(5, 5, 2)).toThrow(RangeError);
  });

  it('refuses a period that is not a whole number from 1', () => {
    expect(() => new Sma(0)).toThrow(RangeError);
    expect(() => new Ema(1.5)).toThrow(RangeError);
  });
});

describe('updateAll', () => {
  it('gives the doubles update() gives, value for value, across blocks and re-sums', () => {
    const values = Float64Array.from(
      { length: 5000 },
      (_, i) => 150 + Math.sin(i / 7) * 30 + (i % 13) * 0.001,
    );
    for (const period of [1, 2, 5, 20, 333]) {
      for (const make of [() => new Sma(period), () => new Ema(period)]) {
        const one = make();
        const all = make();
        const out = new Float64Array(777);
        const expected: number[] = [];
        const got: number[] = [];
        for (const x of values) expected.push(one.update(x));
        for (let from = 0; from < values.length; from += out.length) {
          const to = Math.min(values.length, from + out.length);
          all.updateAll(values, from, to, out);
          got.push(...out.subarray(0, to - from));
        }
        expect(got).toEqual(expected);
        expect(Object.is(all.value, one.value)).toBe(true);
        expect(Object.is(all.update(151.25), one.update(151.25))).toBe(true);
      }
    }
  });

  it('Sma.crossings marks where update() − update() of two averages crosses zero, from any point of their windows', () => {
    const values = Float64Array.from(
      { length: 3000 },
      (_, i) => 150 + Math.sin(i / 5) * 20 + (i % 11) * 0.003,
    );
    const crossing = (before: number, diff: number) =>
      before <= 0 && diff > 0 ? CROSSED_UP : before >= 0 && diff < 0 ? CROSSED_DOWN : 0;
    for (const [p, q] of [
      [1, 2],
      [5, 20],
      [20, 50],
      [7, 333],
      // A warm-up longer than a block.
      [7, 777],
    ] as const) {
      for (const [fedFirst, block] of [
        [0, 500],
        [3, 500],
        [61, 500],
        [0, 1],
        [5, 7],
      ] as const) {
        const a = new Sma(p);
        const b = new Sma(q);
        const oneA = new Sma(p);
        const oneB = new Sma(q);
        const diffs: number[] = [];
        const previous = Float64Array.of(Number.NaN);
        for (let i = 0; i < fedFirst; i += 1) {
          diffs.push(oneA.update(values[i]!) - oneB.update(values[i]!));
          previous[0] = a.update(values[i]!) - b.update(values[i]!);
        }
        for (let i = fedFirst; i < values.length; i += 1)
          diffs.push(oneA.update(values[i]!) - oneB.update(values[i]!));
        const expected = diffs
          .slice(fedFirst)
          .map((diff, k) => crossing(diffs[fedFirst + k - 1] ?? Number.NaN, diff));
        const got: number[] = [];
        const lastDiffs: [number, number][] = [];
        const out = new Uint8Array(block);
        for (let from = fedFirst; from < values.length; from += block) {
          const to = Math.min(values.length, from + block);
          Sma.crossings(a, b, values, from, to, previous, out);
          got.push(...out.subarray(0, to - from));
          lastDiffs.push([previous[0]!, diffs[to - 1]!]);
        }
        expect(got).toEqual(expected);
        expect(got.filter((mark) => mark !== 0).length).toBeGreaterThan(10);
        // The difference left after each block is update() − update()'s, to the bit.
        for (const [left, right] of lastDiffs) expect(Object.is(left, right)).toBe(true);
        expect(Object.is(a.update(151.25), oneA.update(151.25))).toBe(true);
        expect(Object.is(b.update(151.25), oneB.update(151.25))).toBe(true);
      }
    }
  });
});
