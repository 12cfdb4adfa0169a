import type { SeriesMarker, UTCTimestamp } from 'lightweight-charts';
import { alignToInterval, CHART_INTERVAL_SECONDS, type ChartInterval } from '@solterm/contracts';

// What a price chart draws over its candles besides the market: markers on candles (the user's
// fills, a strategy's trades, a trigger that fired) and horizontal price lines (open orders, a
// position's entry, trigger and liquidation prices). Any feature builds these; the chart draws them.

/** Buy and sell markers take the theme's up and down colours; `info` a neutral one. */
export type ChartMarkerTone = 'buy' | 'sell' | 'info';

/** A marker on the candle that contains `time`. */
export interface ChartMarker {
  /** Unix seconds of the event; drawn on the candle of the chart's interval that contains it. */
  time: number;
  tone: ChartMarkerTone;
  /** Short text beside the marker (`Buy Spot`, `Sell SOL-PERP`). */
  text: string;
  /** Where it happened: the marker points at this price instead of above or below the candle. */
  price?: number;
}

export type ChartLineStyle = 'solid' | 'dashed' | 'dotted';

/** A horizontal line over the candles, its title on the price axis. */
export interface ChartPriceLine {
  title: string;
  price: number;
  color: string;
  /** Dashed unless said (an order, an entry); solid for a level that acts (liquidation). */
  style?: ChartLineStyle;
}

/** The candles a chart has loaded: their interval and open times (ascending, unix seconds). */
export interface ChartCandleRange {
  interval: ChartInterval;
  times: readonly number[];
}

/**
 * The open time of the candle that holds `time`: the last loaded candle opening at or before it
 * while `time` is within that candle's interval; after the loaded candles, the interval's bucket
 * (the candle the live feed forms); before them, or in a gap of the feed, null.
 */
export function candleTimeOf(time: number, range: ChartCandleRange): number | null {
  const { times } = range;
  if (!Number.isFinite(time) || times.length === 0 || time < times[0]!) return null;
  let low = 0;
  let high = times.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (times[middle]! <= time) low = middle;
    else high = middle - 1;
  }
  const open = times[low]!;
  if (time < open + CHART_INTERVAL_SECONDS[range.interval]) return open;
  return low === times.length - 1 ? alignToInterval(time, range.interval) : null;
}

const INFO_COLOR = '#60a5fa';

/** Past this many markers on a chart their texts would cover the candles: only the arrows show. */
export const MARKER_LABEL_LIMIT = 40;

/**
 * The chart's markers as lightweight-charts draws them: each on the open time of its candle
 * ({@link candleTimeOf}), markers of one candle with the same tone and text merged into one (`×3`),
 * sorted by time. Markers before the first loaded candle are left out (nothing to draw them on);
 * later ones stay, on the candle the live feed forms. Past `labelLimit` markers the texts go (the
 * arrows' colour and direction still tell buys from sells).
 *
 * @example
 * toSeriesMarkers([{ time: 1_700_000_130, tone: 'buy', text: 'Buy Spot' }], { interval: '1M', times }, colors)
 * // [{ time: 1_700_000_100, position: 'belowBar', shape: 'arrowUp', text: 'Buy Spot', … }]
 */
export function toSeriesMarkers(
  markers: readonly ChartMarker[],
  range: ChartCandleRange,
  colors: { up: string; down: string },
  labelLimit = MARKER_LABEL_LIMIT,
): SeriesMarker<UTCTimestamp>[] {
  const groups = new Map<string, { marker: ChartMarker; bucket: number; count: number; prices: number[] }>();
  for (const marker of markers) {
    const at = candleTimeOf(marker.time, range);
    if (at === null) continue;
    const key = `${at}|${marker.tone}|${marker.text}`;
    const group = groups.get(key);
    if (group) {
      group.count += 1;
      if (marker.price !== undefined) group.prices.push(marker.price);
    } else {
      groups.set(key, {
        marker,
        bucket: at,
        count: 1,
        prices: marker.price === undefined ? [] : [marker.price],
      });
    }
  }
  const isLabelled = groups.size <= labelLimit;
  return [...groups.values()]
    .sort((a, b) => a.bucket - b.bucket || a.marker.text.localeCompare(b.marker.text))
    .map(({ marker, bucket, count, prices }) => {
      const label = count > 1 ? `${marker.text} ×${count}` : marker.text;
      const text = isLabelled ? label : '';
      const time = bucket as UTCTimestamp;
      if (marker.tone === 'info') {
        return { time, position: 'inBar', shape: 'circle', color: INFO_COLOR, text };
      }
      const isBuy = marker.tone === 'buy';
      const color = isBuy ? colors.up : colors.down;
      const shape = isBuy ? 'arrowUp' : 'arrowDown';
      // Merged fills point at their average price; a buy's arrow sits under it, a sell's over it.
      if (prices.length === count) {
        const price = prices.reduce((sum, value) => sum + value, 0) / prices.length;
        return { time, position: isBuy ? 'atPriceBottom' : 'atPriceTop', price, shape, color, text };
      }
      return { time, position: isBuy ? 'belowBar' : 'aboveBar', shape, color, text };
    });
}

/** How far from the candles' own range a price line may be and still be kept in view (a fraction of it). */
export const PRICE_LINE_VIEW_REACH = 0.25;

/**
 * The price range a chart scales to: the candles' own, widened to take in the price lines within
 * PRICE_LINE_VIEW_REACH of it (an order's trigger, a position's TP/SL just outside the candles stays on
 * screen; a line far away, such as a stop at half the price, would flatten the candles, so it stays off
 * it and is still listed in the chart's legend).
 */
export function rangeWithPriceLines(
  range: { minValue: number; maxValue: number },
  prices: readonly number[],
): { minValue: number; maxValue: number } {
  const low = range.minValue * (1 - PRICE_LINE_VIEW_REACH);
  const high = range.maxValue * (1 + PRICE_LINE_VIEW_REACH);
  let { minValue, maxValue } = range;
  for (const price of prices) {
    if (!Number.isFinite(price) || price < low || price > high) continue;
    minValue = Math.min(minValue, price);
    maxValue = Math.max(maxValue, price);
  }
  return { minValue, maxValue };
}
