import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Dec } from '../money/decimal';
import {
  allocate,
  crossLiquidationPrice,
  feeOf,
  fundingRate,
  initialMargin,
  isolatedLiquidationPrice,
  lotsOf,
  maintenanceMargin,
  notionalOf,
  PERP_MAKER_FEE_BPS,
  PERP_TAKER_FEE_BPS,
  priceUnitsOf,
} from './perp-math';

describe('perp arithmetic', () => {
  it.each([
    // size lots, decimals, price units, notional
    [10n, 3, 150_000_000n, 1_500_000n], // 0.010 SOL at 150 = 1.5 USDC
    [1n, 4, 65_000_000_000n, 6_500_000n], // 0.0001 BTC at 65,000 = 6.5 USDC
    [-2_500n, 3, 3_000_000_000n, 7_500_000_000n], // a short's notional is positive
    [3n, 3, 333_333n, 999n], // floored
  ])('notional of %s lots (%s dp) at %s = %s', (size, decimals, price, expected) => {
    expect(notionalOf(size, price, decimals)).toBe(expected);
  });

  it.each([
    [100_000_000n, 1, 100_000_000n],
    [100_000_000n, 10, 10_000_000n],
    [100_000_001n, 10, 10_000_001n], // rounded up: the venue never asks for less
    [100_000_000n, 100, 1_000_000n],
  ])('initial margin of %s at %sx = %s', (notional, leverage, expected) => {
    expect(initialMargin(notional, leverage)).toBe(expected);
  });

  it('maintenance is half the initial margin at the max leverage', () => {
    expect(maintenanceMargin(100_000_000n, 100)).toBe(500_000n); // 0.5 %
    expect(maintenanceMargin(100_000_000n, 20)).toBe(2_500_000n); // 2.5 %
  });

  it('fees are 0.07 % taker and 0.04 % maker, rounded up', () => {
    expect(feeOf(100_000_000n, PERP_TAKER_FEE_BPS)).toBe(70_000n);
    expect(feeOf(100_000_000n, PERP_MAKER_FEE_BPS)).toBe(40_000n);
    expect(feeOf(1n, PERP_TAKER_FEE_BPS)).toBe(1n);
    expect(feeOf(0n, PERP_TAKER_FEE_BPS)).toBe(0n);
  });

  it.each([
    ['Long', 10, 100, '90.4522613065326633'], // 100·0.9/0.995
    ['Short', 10, 100, '109.452736318407960'], // 100·1.1/1.005
    ['Long', 1, 100, '0'],
    ['Long', 100, 100, '99.4974874371859296'],
  ] as const)(
    'isolated liquidation price of a %s at %sx (max %s) from 100',
    (direction, leverage, max, expected) => {
      expect(isolatedLiquidationPrice(new Dec(100), leverage, direction, max).toFixed(13)).toBe(
        new Dec(expected).toFixed(13),
      );
    },
  );

  it('the liquidation price moves toward the entry as leverage grows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        (a, b, entryCents) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          const entry = new Dec(entryCents).div(100);
          expect(
            isolatedLiquidationPrice(entry, low, 'Long', 100).lte(
              isolatedLiquidationPrice(entry, high, 'Long', 100),
            ),
          ).toBe(true);
          expect(
            isolatedLiquidationPrice(entry, low, 'Short', 100).gte(
              isolatedLiquidationPrice(entry, high, 'Short', 100),
            ),
          ).toBe(true);
        },
      ),
    );
  });

  it('at the cross liquidation price, equity meets maintenance', () => {
    // 1 SOL long from 100 with 10 USDC of collateral: quote −100, E excluding mark = −90.
    const price = crossLiquidationPrice({
      size: 1_000n,
      sizeDecimals: 3,
      maxLeverage: 50,
      equityExcludingMark: -90_000_000n,
      otherMaintenance: 0n,
    })!;
    // E(P) = −90 + P; MM(P) = P/100 → P = 90/0.99
    expect(price.div(1_000_000).toFixed(6)).toBe(new Dec(90).div(0.99).toFixed(6));
    // A long covered in full has no liquidation price.
    expect(
      crossLiquidationPrice({
        size: 1_000n,
        sizeDecimals: 3,
        maxLeverage: 50,
        equityExcludingMark: 0n,
        otherMaintenance: 0n,
      }),
    ).toBeNull();
  });

  it('funding is a 24th of the premium, capped at 0.1 % an hour', () => {
    expect(fundingRate(new Dec(101), new Dec(100)).toString()).toBe(new Dec(0.01).div(24).toString());
    expect(fundingRate(new Dec(150), new Dec(100)).toString()).toBe('0.001');
    expect(fundingRate(new Dec(50), new Dec(100)).toString()).toBe('-0.001');
    expect(fundingRate(new Dec(100), new Dec(100)).isZero()).toBe(true);
  });

  it('allocate splits exactly, in proportion', () => {
    expect(allocate(10n, [1n, 1n, 1n])).toEqual([4n, 3n, 3n]);
    expect(allocate(0n, [5n, 7n])).toEqual([0n, 0n]);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 20 }),
        (total, weights) => {
          const parts = allocate(total, weights);
          const sum = weights.reduce((a, b) => a + b, 0n);
          if (sum === 0n) return;
          expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
          parts.forEach((part, i) => {
            const exact = (total * weights[i]!) / sum;
            expect(part === exact || part === exact + 1n).toBe(true);
          });
        },
      ),
    );
  });

  it('converts decimal prices and sizes', () => {
    expect(priceUnitsOf('150.255', 10_000n)).toBe(150_260_000n); // half up to the 0.01 tick
    expect(lotsOf('0.0019', 3)).toBe(1n); // sizes round down
    expect(() => lotsOf(Number.NaN, 3)).toThrow(RangeError);
  });
});
