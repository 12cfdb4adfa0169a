import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { Dec } from '../money/decimal';
import { derivePositions, type SpotFill } from './positions';

const Exact = Decimal.clone({ precision: 500 });

function fill(symbol: string, side: 'Buy' | 'Sell', quantity: string, price: string, at: number): SpotFill {
  return { symbol, side, quantity: new Dec(quantity), price: new Dec(price), at };
}

const marks = (prices: Record<string, string>) => (symbol: string) =>
  prices[symbol] === undefined ? undefined : new Dec(prices[symbol]);

describe('derivePositions', () => {
  it('averages the cost of buys and realizes a sell at that average', () => {
    const bought = derivePositions(
      [fill('SOL', 'Buy', '1', '100', 1), fill('SOL', 'Buy', '1', '200', 2)],
      marks({}),
    );
    expect(bought).toHaveLength(1);
    expect(bought[0]!.size.toString()).toBe('2');
    expect(bought[0]!.averageEntryPrice.toString()).toBe('150');

    const [position] = derivePositions(
      [
        fill('SOL', 'Buy', '1', '100', 1),
        fill('SOL', 'Buy', '1', '200', 2),
        fill('SOL', 'Sell', '1', '180', 3),
      ],
      marks({ SOL: '170' }),
    );
    expect(position).toBeDefined();
    expect(position!.size.toString()).toBe('1');
    expect(position!.averageEntryPrice.toString()).toBe('150');
    expect(position!.realizedPnl.toString()).toBe('30');
    expect(position!.markPrice.toString()).toBe('170');
    expect(position!.value.toString()).toBe('170');
    expect(position!.unrealizedPnl.toString()).toBe('20');
    expect(position!.pnlPercent.toFixed(6)).toBe('13.333333');
  });

  it('applies fills in time order', () => {
    const [position] = derivePositions(
      [
        fill('SOL', 'Sell', '1', '180', 3),
        fill('SOL', 'Buy', '1', '200', 2),
        fill('SOL', 'Buy', '1', '100', 1),
      ],
      marks({}),
    );
    expect(position!.size.toString()).toBe('1');
    expect(position!.realizedPnl.toString()).toBe('30');
  });

  it('realizes only the open part of an oversized sell and ignores the excess', () => {
    const fills = [
      fill('BONK', 'Sell', '3', '1', 0),
      fill('BONK', 'Buy', '2', '10', 1),
      fill('BONK', 'Sell', '5', '12', 2),
    ];
    expect(derivePositions(fills, marks({}))).toEqual([]);
    const [reopened] = derivePositions([...fills, fill('BONK', 'Buy', '1', '20', 3)], marks({ BONK: '25' }));
    expect(reopened!.size.toString()).toBe('1');
    expect(reopened!.averageEntryPrice.toString()).toBe('20');
    expect(reopened!.realizedPnl.toString()).toBe('4'); // (12 − 10) × 2, kept after going flat
    expect(reopened!.unrealizedPnl.toString()).toBe('5');
    expect(reopened!.pnlPercent.toString()).toBe('25');
  });

  it('marks at the average entry with no pnl when there is no mark', () => {
    const [position] = derivePositions(
      [fill('JUP', 'Buy', '3', '1', 1), fill('JUP', 'Buy', '1', '2', 2)],
      marks({}),
    );
    expect(position!.markPrice.toString()).toBe('1.25');
    expect(position!.value.toString()).toBe('5');
    expect(position!.unrealizedPnl.isZero()).toBe(true);
    expect(position!.pnlPercent.isZero()).toBe(true);
  });

  it('sorts by value descending and reports free tokens at 0 %', () => {
    const positions = derivePositions(
      [fill('A', 'Buy', '1', '10', 1), fill('B', 'Buy', '1', '0', 2), fill('C', 'Buy', '2', '10', 3)],
      marks({ A: '10', B: '50', C: '10' }),
    );
    expect(positions.map((p) => p.symbol)).toEqual(['B', 'C', 'A']);
    expect(positions[0]!.pnlPercent.isZero()).toBe(true);
    expect(positions[0]!.unrealizedPnl.toString()).toBe('50');
  });

  it('rejects malformed fills', () => {
    expect(() => derivePositions([fill('A', 'Buy', '0', '1', 1)], marks({}))).toThrow(RangeError);
    expect(() => derivePositions([fill('A', 'Buy', '1', '-1', 1)], marks({}))).toThrow(RangeError);
    expect(() => derivePositions([fill('A', 'Buy', '1', '1', Number.NaN)], marks({}))).toThrow(RangeError);
  });

  const symbols = ['SOL', 'JUP', 'BONK'] as const;
  const fills = fc.array(
    fc.record({
      symbol: fc.constantFrom(...symbols),
      side: fc.constantFrom('Buy' as const, 'Sell' as const),
      quantity: fc.integer({ min: 1, max: 1_000_000_000 }).map((n) => new Dec(n).div(1000)),
      price: fc.integer({ min: 0, max: 100_000_000 }).map((n) => new Dec(n).div(100)),
      at: fc.integer({ min: 0, max: 50 }),
    }),
    { maxLength: 40 },
  );
  const markPrices = fc.record({
    SOL: fc.option(
      fc.integer({ min: 0, max: 100_000_000 }).map((n) => new Dec(n).div(100)),
      { nil: undefined },
    ),
    JUP: fc.option(
      fc.integer({ min: 0, max: 100_000_000 }).map((n) => new Dec(n).div(100)),
      { nil: undefined },
    ),
    BONK: fc.option(
      fc.integer({ min: 0, max: 100_000_000 }).map((n) => new Dec(n).div(100)),
      { nil: undefined },
    ),
  });

  /** Replays the fills in time order with exact arithmetic: clamped size, buy cost, closed proceeds. */
  function replay(all: readonly SpotFill[], symbol: string) {
    const ordered = all
      .map((f, index) => ({ f, index }))
      .filter(({ f }) => f.symbol === symbol)
      .sort((a, b) => a.f.at - b.f.at || a.index - b.index)
      .map(({ f }) => f);
    let size = new Exact(0);
    let boughtCost = new Exact(0);
    let closedProceeds = new Exact(0);
    let scale = new Exact(0);
    for (const f of ordered) {
      const notional = new Exact(f.quantity).times(f.price);
      scale = scale.plus(notional);
      if (f.side === 'Buy') {
        size = size.plus(f.quantity);
        boughtCost = boughtCost.plus(notional);
      } else {
        const closed = Decimal.min(size, f.quantity);
        closedProceeds = closedProceeds.plus(closed.times(f.price));
        size = size.minus(closed);
      }
    }
    return { size, boughtCost, closedProceeds, scale };
  }

  it('holds the clamped running size per symbol, and only open positions', () => {
    fc.assert(
      fc.property(fills, markPrices, (all, prices) => {
        const positions = derivePositions(all, (symbol) => prices[symbol as keyof typeof prices]);
        for (const symbol of symbols) {
          const expected = replay(all, symbol).size;
          const position = positions.find((p) => p.symbol === symbol);
          if (expected.isZero()) expect(position).toBeUndefined();
          else expect(position?.size.eq(expected)).toBe(true);
        }
        for (let i = 1; i < positions.length; i++)
          expect(positions[i - 1]!.value.gte(positions[i]!.value)).toBe(true);
      }),
    );
  });

  it('conserves value: realized + unrealized = closed proceeds + open value − cost of everything bought', () => {
    fc.assert(
      fc.property(fills, markPrices, (all, prices) => {
        const positions = derivePositions(all, (symbol) => prices[symbol as keyof typeof prices]);
        for (const position of positions) {
          const { boughtCost, closedProceeds, scale } = replay(all, position.symbol);
          const pnl = new Exact(position.realizedPnl).plus(position.unrealizedPnl);
          const expected = closedProceeds.plus(position.value).minus(boughtCost);
          // Dec keeps 18 significant digits per operation; allow that, relative to the traded value.
          const tolerance = scale.plus(position.value).times('1e-15').plus('1e-15');
          expect(pnl.minus(expected).abs().lte(tolerance)).toBe(true);
          // Average cost: the open size is carried at its average entry.
          const cost = position.value.minus(position.unrealizedPnl);
          expect(
            new Exact(position.averageEntryPrice).times(position.size).minus(cost).abs().lte(tolerance),
          ).toBe(true);
        }
      }),
    );
  });

  it('keeps the average entry through a partial sell and within the prices bought at', () => {
    fc.assert(
      fc.property(fills, fc.integer({ min: 1, max: 999 }), (all, permille) => {
        const buys = all.filter((f) => f.side === 'Buy').map((f) => ({ ...f, symbol: 'SOL' }));
        fc.pre(buys.length > 0);
        const [before] = derivePositions(buys, () => undefined);
        const size = before!.size;
        const sell: SpotFill = {
          symbol: 'SOL',
          side: 'Sell',
          quantity: size.times(permille).div(1000),
          price: new Dec(1),
          at: 1_000,
        };
        const [after] = derivePositions([...buys, sell], () => undefined);
        const drift = after!.averageEntryPrice.minus(before!.averageEntryPrice).abs();
        expect(drift.lte(before!.averageEntryPrice.times('1e-15'))).toBe(true);
        const prices = buys.map((f) => f.price);
        expect(before!.averageEntryPrice.gte(Dec.min(...prices))).toBe(true);
        expect(before!.averageEntryPrice.lte(Dec.max(...prices))).toBe(true);
      }),
    );
  });
});
