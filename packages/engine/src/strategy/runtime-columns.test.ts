import { describe, expect, it, vi } from 'vitest';
import { Dec } from '../money/decimal';
import { FillColumns } from './fill-columns';
import { rfqVenue, StrategyRuntime } from './runtime';
import type { StrategyInstance } from './strategy';

// A runtime's fast fills price their fee and slippage from the fill columns' quotes when read: the
// runtime quotes fast only into columns holding its venue's own quotes. Columns without quotes, or
// with another venue's, get every fill priced with bigints, and read back as a runtime without
// columns makes them.

const decimals = { baseDecimals: 9, quoteDecimals: 6 };
const pricing = { halfSpreadBps: 5, venueFeeBps: 3, impactBpsPerUsd10k: 2.5, maxImpactBps: 40 };
const venueOf = (fee = pricing.venueFeeBps) =>
  rfqVenue({ ...decimals, quoteUsdPrice: new Dec(1), pricing: { ...pricing, venueFeeBps: fee } });
const closes = [101.37, 99.5, 104.25, 98.01, 100.7, 103.33, 97.9, 102.4];

function runOn(venue: ReturnType<typeof venueOf>, fillColumns?: FillColumns) {
  let i = 0;
  // Buys and sells in turn, two lots at most: every fill goes through openFast or closeFast.
  const strategy: StrategyInstance = {
    onCandle: () => ({ action: i++ % 3 === 2 ? 'sell' : 'buy', reason: `#${i}` }),
  };
  const runtime = new StrategyRuntime({
    strategy,
    risk: { amount: new Dec('1.5'), maxPositions: 2, stopLossPercent: null, takeProfitPercent: null },
    venue,
    ...decimals,
    initialCash: 10n ** 12n,
    ...(fillColumns ? { fillColumns } : {}),
  });
  closes.forEach((close, k) => runtime.onCandle(60 * (k + 1), close, close, close, close, 1));
  return { runtime, fills: fillColumns ? fillColumns.toArray() : runtime.fills };
}

describe('StrategyRuntime with fill columns', () => {
  const expected = runOn(venueOf());

  it.each([
    ['no quotes', () => new FillColumns()],
    ['another venue’s quotes (another fee)', () => new FillColumns(venueOf(30).fastQuotes)],
  ])('prices every fill with bigints into columns with %s, and reads them back', (_, columns) => {
    const { runtime, fills } = runOn(venueOf(), columns());
    expect(fills.length).toBeGreaterThan(4);
    expect(fills).toStrictEqual(expected.fills);
    expect(runtime.fees).toStrictEqual(expected.runtime.fees);
    expect(runtime.slippage).toStrictEqual(expected.runtime.slippage);
  });

  it('quotes fast into columns holding the venue’s quotes, the same fills', () => {
    const venue = venueOf();
    const read = vi.spyOn(venue.fastQuotes!, 'feeAndSlippage');
    const { runtime, fills } = runOn(venue, new FillColumns(venue.fastQuotes));
    // Every fill was quoted fast: each read made its fee and slippage from the quotes.
    expect(read).toHaveBeenCalledTimes(fills.length);
    expect(fills).toStrictEqual(expected.fills);
    expect(runtime.fees).toStrictEqual(expected.runtime.fees);
    expect(runtime.slippage).toStrictEqual(expected.runtime.slippage);
  });

  it('refuses a fast fill into columns without quotes', () => {
    const fast = { midN: 1, midScale: 0, atMid: 1, key: 0 };
    expect(() => new FillColumns().recordFast(0, false, 1n, 1n, fast, 'buy', 0n, Number.NaN)).toThrow(
      TypeError,
    );
  });
});
