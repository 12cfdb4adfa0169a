import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FillColumns } from './fill-columns';
import type { RuntimeFill } from './runtime-fill';

// A backtest keeps its fills in columns and makes each fill object when read: every field must come
// back as it went in, bigints of any size and sign included (64-bit and 256-bit edges, zero).

const edges = [0n, 1n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 63n, -(2n ** 63n) - 1n, 2n ** 64n];
const wideEdges = [2n ** 256n - 1n, 2n ** 256n, -(2n ** 256n), 10n ** 39n, -(10n ** 39n), 2n ** 128n];
const anyBigint = fc.oneof(
  fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.constantFrom(...edges, ...wideEdges),
);

const fillOf = fc
  .record({
    time: fc.integer({ min: 0, max: 2 ** 40 }),
    sell: fc.boolean(),
    baseAmount: anyBigint,
    quoteAmount: anyBigint,
    mid: fc.record({ n: anyBigint, scale: fc.integer({ min: 0, max: 300 }) }),
    fee: fc.record({ n: anyBigint, scale: fc.integer({ min: 0, max: 300 }) }),
    slippage: fc.record({ n: anyBigint, scale: fc.integer({ min: 0, max: 300 }) }),
    reason: fc.string(),
    pnl: anyBigint,
    entryTime: fc.integer({ min: 0, max: 2 ** 40 }),
  })
  .map((f): RuntimeFill => ({
    time: f.time,
    side: f.sell ? 'Sell' : 'Buy',
    baseAmount: f.baseAmount,
    quoteAmount: f.quoteAmount,
    mid: { n: f.mid.n, scale: f.mid.scale },
    fee: { n: f.fee.n, scale: f.fee.scale },
    slippage: { n: f.slippage.n, scale: f.slippage.scale },
    reason: f.reason,
    pnl: f.sell ? f.pnl : null,
    entryTime: f.sell ? f.entryTime : null,
  }));

describe('FillColumns', () => {
  it('gives back every fill as recorded, in order, through its growth', () => {
    fc.assert(
      fc.property(fc.array(fillOf, { maxLength: 2500, size: 'max' }), (fills) => {
        const columns = new FillColumns();
        for (const f of fills) {
          const sell = f.side === 'Sell';
          columns.record(
            f.time,
            sell,
            f.baseAmount,
            f.quoteAmount,
            f.mid,
            f.fee,
            f.slippage,
            f.reason,
            f.pnl ?? 0n,
            f.entryTime ?? Number.NaN,
          );
        }
        expect(columns.length).toBe(fills.length);
        expect(columns.toArray()).toStrictEqual(fills);
        fills.forEach((f, i) => expect(columns.pnlAt(i)).toBe(f.pnl));
      }),
      { numRuns: 15 },
    );
  }, 60_000);
});
