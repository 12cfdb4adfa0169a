import { describe, expect, it } from 'vitest';
import { CHART_AXIS_MAX_TICKS } from '@solterm/contracts';
import { axisTickOptions, CHART_FONT_SIZE, formatChartPrice, priceMinMove } from './chart-options';

/** The most time labels lightweight-charts can place: one per label width across the axis. */
function maxTimeTicks(width: number, characters: number): number {
  const labelWidth = (((CHART_FONT_SIZE + 4) * 5) / 8) * characters;
  return Math.floor(width / labelWidth) + 1;
}

/** The most price labels: one per tick-mark height down the axis. */
function maxPriceTicks(height: number, density: number): number {
  return Math.floor(height / Math.ceil(CHART_FONT_SIZE * density)) + 1;
}

describe('chart axes', () => {
  it.each([
    [320, 260],
    [640, 400],
    [900, 420],
    [1600, 900],
    [2560, 1400],
  ])('at %i×%i px each axis has at most 10 ticks', (width, height) => {
    const options = axisTickOptions(width, height);
    expect(maxTimeTicks(width, options.timeTickMarkMaxCharacterLength)).toBeLessThanOrEqual(
      CHART_AXIS_MAX_TICKS,
    );
    expect(maxPriceTicks(height, options.priceTickMarkDensity)).toBeLessThanOrEqual(CHART_AXIS_MAX_TICKS);
  });

  it('never packs labels tighter than the library defaults', () => {
    const options = axisTickOptions(100, 50);
    expect(options.timeTickMarkMaxCharacterLength).toBe(8);
    expect(options.priceTickMarkDensity).toBe(2.5);
  });

  it('steps prices at four significant digits below their magnitude', () => {
    expect(priceMinMove(185.9)).toBe(0.01);
    expect(priceMinMove(91_000)).toBe(0.01);
    expect(priceMinMove(0.2287)).toBeCloseTo(1e-5, 12);
    expect(priceMinMove(1.79e-7)).toBeCloseTo(1e-11, 20);
    expect(priceMinMove(0)).toBe(0.01);
  });

  it('labels prices with the precision table', () => {
    expect(formatChartPrice(185.917286)).toBe('185.92');
    expect(formatChartPrice(0.2287437)).toBe('0.2287');
    expect(formatChartPrice(0.001140148)).toBe('0.001140');
    expect(formatChartPrice(0.0000001792)).toBe('1.79e-7');
  });
});
