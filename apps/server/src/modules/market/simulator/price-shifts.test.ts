import { describe, expect, it } from 'vitest';
import { PriceProcess } from './price-process';
import { buildSimulatedTokens } from './simulated-tokens';

const tokens = buildSimulatedTokens();
const params = (symbol: string) => tokens.find((token) => token.symbol === symbol)!.params;
// 2026-01-15 12:00:00 UTC, and a shift 30 s into that minute.
const HOUR_START = 1_768_478_400;
const SHIFT_AT = HOUR_START + 30;

describe('dev price shifts in the price process', () => {
  it('multiply prices from the shift second on and leave the seconds before it as they were', () => {
    const plain = new PriceProcess('shifts');
    const shifted = new PriceProcess('shifts');
    const sol = params('SOL');

    expect(shifted.shifts.shift(sol, SHIFT_AT, 1.1)).toBeCloseTo(1.1, 12);

    expect(shifted.priceAt(sol, SHIFT_AT - 1)).toBe(plain.priceAt(sol, SHIFT_AT - 1));
    expect(shifted.priceAt(sol, SHIFT_AT)).toBeCloseTo(plain.priceAt(sol, SHIFT_AT) * 1.1, 4);
    expect(shifted.priceAt(sol, SHIFT_AT + 600)).toBeCloseTo(plain.priceAt(sol, SHIFT_AT + 600) * 1.1, 4);
    // The minute the shift falls in: opens as before, closes shifted, its high reaches the shifted seconds
    const before = plain.minuteCandle(sol, HOUR_START);
    const across = shifted.minuteCandle(sol, HOUR_START);
    expect(across.open).toBe(before.open);
    expect(across.close).toBeCloseTo(before.close * 1.1, 4);
    const seconds = [...Array(61).keys()].map((i) => shifted.priceAt(sol, HOUR_START + i));
    expect(across.high).toBe(Math.max(...seconds));
    expect(across.low).toBe(Math.min(...seconds));
    // A whole later hour is the plain hour, shifted
    const later = shifted.hourCandle(sol, HOUR_START / 3600 + 1);
    const plainLater = plain.hourCandle(sol, HOUR_START / 3600 + 1);
    expect(later.high).toBeCloseTo(plainLater.high * 1.1, 4);
    expect(later.volumeCents).toBe(plainLater.volumeCents);
  });

  it('stack, reset to the simulation, and carry a pegged token with its reference', () => {
    const plain = new PriceProcess('shifts');
    const shifted = new PriceProcess('shifts');
    const sol = params('SOL');
    const msol = params('mSOL');
    expect(msol.peg?.ref).toBe(sol);

    shifted.shifts.shift(sol, SHIFT_AT, 1.1);
    expect(shifted.shifts.shift(sol, SHIFT_AT + 10, 1.1)).toBeCloseTo(1.21, 12);
    expect(shifted.priceAt(msol, SHIFT_AT + 20)).toBeCloseTo(plain.priceAt(msol, SHIFT_AT + 20) * 1.21, 3);
    expect(shifted.shifts.shift(sol, SHIFT_AT + 20, 1 / 1.21)).toBeCloseTo(1, 12);
    expect(shifted.priceAt(sol, SHIFT_AT + 25)).toBe(plain.priceAt(sol, SHIFT_AT + 25));
    // A factor of 1 only reads the total; it adds no step
    expect(shifted.shifts.count(sol)).toBe(3);
    shifted.shifts.shift(sol, SHIFT_AT + 30, 1);
    expect(shifted.shifts.count(sol)).toBe(3);
  });
});
