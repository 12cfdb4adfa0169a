import { describe, expect, it } from 'vitest';
import { candleTimeOf, rangeWithPriceLines, toSeriesMarkers, type ChartMarker } from './chart-overlays';

const colors = { up: '#0f0', down: '#f00' };
const HOUR = 1_700_002_800; // a whole hour (UTC)

/** Loaded candles of `step` seconds from `first` to `last` (open times). */
function times(first: number, last: number, step: number): number[] {
  const out: number[] = [];
  for (let time = first; time <= last; time += step) out.push(time);
  return out;
}
const range = (interval: '1M' | '15M' | '1H', first: number, last: number) => ({
  interval,
  times: times(first, last, { '1M': 60, '15M': 900, '1H': 3600 }[interval]),
});

describe('candleTimeOf', () => {
  it('finds the loaded candle that holds the time, the forming bucket after them, nothing before or in a gap', () => {
    const loaded = { interval: '1M' as const, times: [HOUR, HOUR + 60, HOUR + 300] };
    expect(candleTimeOf(HOUR, loaded)).toBe(HOUR);
    expect(candleTimeOf(HOUR + 119, loaded)).toBe(HOUR + 60);
    // A gap in the feed (no candle from +120 to +299): nothing to draw on.
    expect(candleTimeOf(HOUR + 200, loaded)).toBeNull();
    expect(candleTimeOf(HOUR + 359, loaded)).toBe(HOUR + 300);
    expect(candleTimeOf(HOUR + 365, loaded)).toBe(HOUR + 360);
    expect(candleTimeOf(HOUR - 1, loaded)).toBeNull();
    expect(candleTimeOf(HOUR, { interval: '1M', times: [] })).toBeNull();
  });

  it('follows candles whose open times are not on the UTC grid', () => {
    const offGrid = { interval: '15M' as const, times: [1_700_000_000, 1_700_000_900] };
    expect(candleTimeOf(1_700_001_000, offGrid)).toBe(1_700_000_900);
  });
});

describe('toSeriesMarkers', () => {
  it('puts each marker on the open time of the candle that contains it, for the interval shown', () => {
    const fill: ChartMarker = { time: HOUR + 3599, tone: 'buy', text: 'Buy Spot' };
    expect(toSeriesMarkers([fill], range('1H', HOUR - 7200, HOUR), colors)[0]!.time).toBe(HOUR);
    expect(toSeriesMarkers([fill], range('15M', HOUR - 7200, HOUR + 2700), colors)[0]!.time).toBe(
      HOUR + 2700,
    );
    expect(toSeriesMarkers([fill], range('1M', HOUR - 7200, HOUR + 3540), colors)[0]!.time).toBe(HOUR + 3540);
  });

  it('draws buys as up arrows under the bar and sells as down arrows over it, in the theme colours', () => {
    const markers = toSeriesMarkers(
      [
        { time: HOUR + 60, tone: 'sell', text: 'Sell Bot "Grid"' },
        { time: HOUR, tone: 'buy', text: 'Buy Spot' },
        { time: HOUR + 120, tone: 'info', text: 'Stop triggered' },
      ],
      range('1M', HOUR, HOUR + 180),
      colors,
    );
    expect(markers).toEqual([
      { time: HOUR, position: 'belowBar', shape: 'arrowUp', color: '#0f0', text: 'Buy Spot' },
      { time: HOUR + 60, position: 'aboveBar', shape: 'arrowDown', color: '#f00', text: 'Sell Bot "Grid"' },
      {
        time: HOUR + 120,
        position: 'inBar',
        shape: 'circle',
        color: expect.any(String),
        text: 'Stop triggered',
      },
    ]);
  });

  it('points at the fill price when known, merging one candle’s fills of a kind into one marker at their mean', () => {
    const markers = toSeriesMarkers(
      [
        { time: HOUR + 10, tone: 'buy', text: 'Buy Spot', price: 100 },
        { time: HOUR + 50, tone: 'buy', text: 'Buy Spot', price: 102 },
        { time: HOUR + 20, tone: 'buy', text: 'Buy SOL-PERP', price: 101 },
        { time: HOUR + 30, tone: 'sell', text: 'Sell Spot', price: 103 },
      ],
      range('1M', HOUR, HOUR + 180),
      colors,
    );
    expect(markers).toEqual([
      expect.objectContaining({ text: 'Buy SOL-PERP', position: 'atPriceBottom', price: 101 }),
      expect.objectContaining({ text: 'Buy Spot ×2', position: 'atPriceBottom', price: 101 }),
      expect.objectContaining({ text: 'Sell Spot', position: 'atPriceTop', price: 103 }),
    ]);
  });

  it('leaves out markers before the first loaded candle and keeps later ones for the forming candle', () => {
    const markers = toSeriesMarkers(
      [
        { time: HOUR - 1, tone: 'buy', text: 'Buy Spot' },
        { time: HOUR + 86_400, tone: 'sell', text: 'Sell Spot' },
        { time: Number.NaN, tone: 'sell', text: 'Sell Spot' },
      ],
      range('1H', HOUR, HOUR + 3600),
      colors,
    );
    expect(markers.map((marker) => [marker.time, marker.text])).toEqual([[HOUR + 86_400, 'Sell Spot']]);
  });

  it('drops the texts past the label limit, keeping every arrow', () => {
    const many: ChartMarker[] = Array.from({ length: 5 }, (_, index) => ({
      time: HOUR + index * 60,
      tone: index % 2 ? 'sell' : 'buy',
      text: index % 2 ? 'Sell' : 'Buy',
    }));
    const loaded = range('1M', HOUR, HOUR + 600);
    expect(toSeriesMarkers(many, loaded, colors, 5).map((marker) => marker.text)).toEqual([
      'Buy',
      'Sell',
      'Buy',
      'Sell',
      'Buy',
    ]);
    const bare = toSeriesMarkers(many, loaded, colors, 4);
    expect(bare.map((marker) => [marker.text, marker.shape])).toEqual([
      ['', 'arrowUp'],
      ['', 'arrowDown'],
      ['', 'arrowUp'],
      ['', 'arrowDown'],
      ['', 'arrowUp'],
    ]);
  });
});

describe('rangeWithPriceLines', () => {
  it('takes in the price lines near the candles and leaves far ones out', () => {
    const candles = { minValue: 100, maxValue: 110 };
    // A take profit just above, a stop just below: both kept in view.
    expect(rangeWithPriceLines(candles, [118, 90])).toEqual({ minValue: 90, maxValue: 118 });
    // A stop at half the price and a target at twice it would flatten the candles: left out.
    expect(rangeWithPriceLines(candles, [50, 220, 105])).toEqual(candles);
    expect(rangeWithPriceLines(candles, [Number.NaN])).toEqual(candles);
  });
});
