import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { equityOf, healthChange, healthOf, initialRequirementAt } from './perp-margin';
import {
  breaksMaintenanceUnits,
  freeMarginFloorCovers,
  freeMarginFloorUnits,
  healthAfterFloorHolds,
  healthAfterFloorUnits,
} from './perp-margin-units';
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

  it('the health floor’s yes/no answer says yes only where the floor is ≥ 0, and so the exact health after', () => {
    let yes = 0;
    fc.assert(
      fc.property(world, (w) => {
        const { markets, market, account } = setUp(w);
        if (!safe(w.lots, w.notional, w.fee)) return;
        const args = [units(w.lots), units(w.notional), units(w.fee)] as const;
        // At the edge: a fee that takes the floor to exactly 0 passes, one unit more does not.
        const floor = healthAfterFloorUnits(account, market, ...args);
        if (floor === floor && floor >= 0 && safe(w.fee + BigInt(floor) + 1n)) {
          const edge = units(w.fee) + floor;
          if (healthAfterFloorHolds(account, market, args[0], args[1], edge)) {
            expect(healthAfterFloorUnits(account, market, args[0], args[1], edge)).toBe(0);
          }
          expect(healthAfterFloorHolds(account, market, args[0], args[1], edge + 1)).toBe(false);
        }
        if (!healthAfterFloorHolds(account, market, ...args)) return;
        yes++;
        expect(healthAfterFloorUnits(account, market, ...args) >= 0).toBe(true);
        const exact = healthOf(markets, account) + healthChange(market, account, w.lots, w.notional, w.fee);
        expect(exact >= 0n).toBe(true);
      }),
      { numRuns: 5_000 },
    );
    // The yes path runs: ~120 of 5,000 worlds on average (101-135 in six runs), never near 25.
    expect(yes).toBeGreaterThan(25);
  });

  it('the free margin floor’s yes/no answer says yes only where the needs are within the floor, at any leverage', () => {
    let yes = 0;
    const needs = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 6n }),
      fc.bigInt({ min: 0n, max: 10n ** 12n }),
      fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
    );
    fc.assert(
      fc.property(world, needs, (w, need) => {
        const { markets, market, account } = setUp(w);
        const floor = freeMarginFloorUnits(account, market);
        const exact =
          equityOf(markets, account) - initialRequirementAt(markets, account, market.spec.symbol, w.leverage);
        // Random needs, and the floor itself and its neighbours (where a rounding would show).
        const tried =
          floor === floor ? [need, BigInt(floor) - 1n, BigInt(floor), BigInt(floor) + 1n] : [need];
        for (const n of tried) {
          if (!safe(n) || !freeMarginFloorCovers(account, market, units(n))) continue;
          yes++;
          expect(units(n) <= floor).toBe(true);
          expect(n <= exact).toBe(true);
        }
      }),
      { numRuns: 5_000 },
    );
    expect(yes).toBeGreaterThan(100);
  });

  it('the yes/no floors say no past their bounds (the exact-or-NaN floors answer there)', () => {
    const { market, account } = setUp({
      sizeDecimals: 3,
      maxLeverage: 100,
      oracle: 100_000_000n,
      otherOracle: 1n,
      collateral: 2n ** 51n + 1n,
      orderMargin: 0n,
      position: null,
      other: null,
      lots: 1n,
      notional: 0n,
      fee: 0n,
      leverage: 10,
    });
    // Far above any need, yet past the collateral bound: no yes/no answer, only the floor's own.
    expect(freeMarginFloorCovers(account, market, 1)).toBe(false);
    expect(freeMarginFloorUnits(account, market) >= 1).toBe(true);
    expect(healthAfterFloorHolds(account, market, 1, 100, 1)).toBe(false);
    expect(healthAfterFloorUnits(account, market, 1, 100, 1) >= 0).toBe(true);
    account.collateral = 2n ** 51n;
    expect(freeMarginFloorCovers(account, market, 1)).toBe(true);
    expect(healthAfterFloorHolds(account, market, 1, 100, 1)).toBe(true);
  });
});
