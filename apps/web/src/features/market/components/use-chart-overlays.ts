import { useEffect, useMemo, useRef, type RefObject } from 'react';
import {
  LineStyle,
  type AutoscaleInfo,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { ChartInterval, ChartTheme } from '@solterm/contracts';
import { CHART_THEME_COLORS } from '../chart-options';
import {
  rangeWithPriceLines,
  toSeriesMarkers,
  type ChartLineStyle,
  type ChartMarker,
  type ChartPriceLine,
} from '../chart-overlays';
import type { CandlePoint } from '../market-ticks';

/** The candles a chart shows: its pair, interval and the open time of its first loaded candle. */
export interface ChartWindow {
  pairId: string;
  interval: ChartInterval;
  /** Unix seconds. */
  from: number;
}

const LINE_STYLES: Record<ChartLineStyle, LineStyle> = {
  solid: LineStyle.Solid,
  dashed: LineStyle.Dashed,
  dotted: LineStyle.Dotted,
};

/**
 * Draws a chart's overlays on its candle series: the markers on the loaded candles (in the theme's
 * up and down colours) and the price lines, each redrawn when its values change; tells
 * `onWindowChange` which candles are loaded (overlays that depend on the window read it). Returns
 * the markers as drawn.
 */
export function useChartOverlays(
  overlays: {
    markers?: readonly ChartMarker[];
    priceLines?: readonly ChartPriceLine[];
    onWindowChange?: (window: ChartWindow) => void;
  },
  chart: {
    series: RefObject<ISeriesApi<'Candlestick'> | null>;
    markerLayer: RefObject<ISeriesMarkersPluginApi<Time> | null>;
  },
  loaded: {
    readyCandles: readonly CandlePoint[] | null;
    pairId: string | null;
    interval: ChartInterval;
    theme: ChartTheme;
  },
): SeriesMarker<UTCTimestamp>[] {
  const { markers, priceLines } = overlays;
  const { series: seriesRef, markerLayer } = chart;
  const { readyCandles, pairId, interval, theme } = loaded;

  const onWindowChange = useRef(overlays.onWindowChange);
  useEffect(() => {
    onWindowChange.current = overlays.onWindowChange;
  });
  const from = readyCandles?.[0]?.time ?? null;
  useEffect(() => {
    if (pairId !== null && from !== null) onWindowChange.current?.({ pairId, interval, from });
  }, [pairId, interval, from]);

  const drawnMarkers = useMemo(
    () =>
      readyCandles && markers
        ? toSeriesMarkers(
            markers,
            { interval, times: readyCandles.map((candle) => candle.time) },
            CHART_THEME_COLORS[theme],
          )
        : [],
    [markers, readyCandles, interval, theme],
  );
  useEffect(() => {
    markerLayer.current?.setMarkers(drawnMarkers);
  }, [markerLayer, drawnMarkers]);

  const linesKey = JSON.stringify(priceLines ?? []);
  useEffect(() => {
    const series = seriesRef.current;
    if (!series || !priceLines || priceLines.length === 0) return;
    const drawn = priceLines.map((line) =>
      series.createPriceLine({
        price: line.price,
        color: line.color,
        lineWidth: 1,
        lineStyle: LINE_STYLES[line.style ?? 'dashed'],
        axisLabelVisible: true,
        title: line.title,
      }),
    );
    const prices = priceLines.map((line) => line.price);
    series.applyOptions({
      autoscaleInfoProvider: (own: () => AutoscaleInfo | null) => {
        const scaled = own();
        return scaled?.priceRange
          ? { ...scaled, priceRange: rangeWithPriceLines(scaled.priceRange, prices) }
          : scaled;
      },
    });
    return () => {
      for (const line of drawn) series.removePriceLine(line);
      series.applyOptions({ autoscaleInfoProvider: (own: () => AutoscaleInfo | null) => own() });
    };
    // linesKey stands for priceLines' values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linesKey, readyCandles]);

  return drawnMarkers;
}
