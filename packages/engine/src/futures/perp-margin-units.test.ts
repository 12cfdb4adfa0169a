import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { equityOf, healthChange, healthOf, initialRequirementAt } from './perp-margin';
import { breaksMaintenanceUnits, freeMarginFloorUnits, healthAfterFloorUnits } from './perp-margin-units';
import { Account, newMarketState, Position, type MarketState } from './perp-state';

// The division-free floors that let the hot path skip the exact margin sums (perp-margin-units.ts)
// against perp-margin.ts' bigint arithmetic: never above the exact value, and the checks that use
// them answer what the exact rules answer.

const big = (max: number) => fc.bigInt({ min: BigInt(-max), max: BigInt(max) });

const world = fc.record({
  sizeDecimals: fc.integer({ min: 0, max: 6 }),
  maxLeverage: fc.integer({ min: 1, max: 100 }),
  oracle: fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.bigInt({ min: 1n, max: 10n ** 16n })),
  otherOracle: fc.bigInt({ min: 1n, max: 10n ** 9n }),
  collateral: fc.oneof(big(10 ** 9), big(10 ** 15), big(2 ** 53)),
  orderMargin: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  position: fc.option(fc.tuple(fc.oneof(big(10 ** 4), big(10 ** 9)), fc.oneof(big(10 ** 9), big(10 ** 15)))),
  other: fc.option(fc.tuple(big(10 ** 6), big(10 ** 12))),
  lots: fc.oneof(big(100), big(10 ** 6)).filter((lots) => lots !== 0n),
  notional: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 6n }), fc.bigInt({ min: 0n, max: 10n ** 13n })),
  fee: fc.bigInt({ min: 0n, max: 10n ** 8n }),
  leverage: fc.integer({ min: 1, max: 100 }),
});

type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

function setUp(w: World): { markets: Map<string, MarketState>; market: MarketState; account: Account } {
  // The same symbols every run: each new one would take a slot in every account's MarketMap.
  const symbol = 'T-PERP';
  const market = newMarketState({
    symbol,
    sizeDecimals: w.sizeDecimals,
    tick: 1n,
    minSize: 1n,
    maxLeverage: w.maxLeverage,
  });
  market.oracle = w.oracle;
  const other = newMarketState({
    symbol: `O${symbol}`,
    sizeDecimals: 2,
    tick: 1n,
    minSize: 1n,
    maxLeverage: 20,
  });
  other.oracle = w.otherOracle;
  const account = new Account('a');
  account.collateral = w.collateral;
  account.orderMargin = w.orderMargin;
  if (w.position && w.position[0] !== 0n) account.positions.set(symbol, new Position(...w.position, 0n));
  if (w.other && w.other[0] !== 0n) account.positions.set(other.spec.symbol, new Position(...w.other, 0n));
  return {
    markets: new Map([
      [symbol, market],
      [other.spec.symbol, other],
    ]),
    market,
    account,
  };
}

const units = (n: bigint) => Number(n);
const safe = (...values: bigint[]) =>
  values.every((v) => v <= BigInt(Number.MAX_SAFE_INTEGER) && -v <= BigInt(Number.MAX_SAFE_INTEGER));

describe('margin floors', () => {
  it('the health floor after a fill is never above the exact health after it', () => {
    fc.assert(
      fc.property(world, (w) => {
        const { markets, market, account } = setUp(w);
        if (!safe(w.lots, w.notional, w.fee)) return;
        const floor = healthAfterFloorUnits(account, market, units(w.lots), units(w.notional), units(w.fee));
        if (floor !== floor) return;
        const exact = healthOf(markets, account) + healthChange(market, account, w.lots, w.notional, w.fee);
        expect(BigInt(floor) <= exact).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  });

  it('the free margin floor is never above equity less the initial requirement, at any leverage', () => {
    fc.assert(
      fc.property(world, (w) => {
        const { markets, market, account } = setUp(w);
        const floor = freeMarginFloorUnits(account, market);
        if (floor !== floor) return;
        const exact =
          equityOf(markets, account) - initialRequirementAt(markets, account, market.spec.symbol, w.leverage);
        expect(BigInt(floor) <= exact).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  });

  it('the maintenance check with its floor answers what the exact rule answers', () => {
    let decidedByFloor = 0;
    fc.assert(
      fc.property(world, (w) => {
        const { markets, market, account } = setUp(w);
        if (!safe(w.lots, w.notional, w.fee)) return;
        const fast = breaksMaintenanceUnits(
          markets,
          account,
          market,
          units(w.lots),
          units(w.notional),
          units(w.fee),
        );
        const change = healthChange(market, account, w.lots, w.notional, w.fee);
        const exact = change < 0n && healthOf(markets, account) + change < 0n;
        if (fast !== undefined) expect(fast).toBe(exact);
        if (healthAfterFloorUnits(account, market, units(w.lots), units(w.notional), units(w.fee)) >= 0)
          decidedByFloor++;
      }),
      { numRuns: 5_000 },
    );
    // The floor decided a good share of the cases (it is not a path that never runs).
    expect(decidedByFloor).toBeGreaterThan(100);
  });
});
