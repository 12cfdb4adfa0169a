import {
  CandlestickSeries,
  ColorType,
  createChart,
  createSeriesMarkers,
  CrosshairMode,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type MouseEventParams,
  type Time,
} from 'lightweight-charts';
import type { ChartTheme } from '@solterm/contracts';
import {
  axisTickOptions,
  CHART_FONT_SIZE,
  CHART_THEME_COLORS,
  formatChartPrice,
  formatChartTime,
} from '../chart-options';
import type { CandlePoint } from '../market-ticks';
import { tickMarkFormatter, toBars } from './price-chart-data';

export interface MountedChart {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
  /** The candles' markers (the user's fills, a strategy's trades). */
  markers: ISeriesMarkersPluginApi<Time>;
  /** Stops following the container's size and the crosshair, and removes the chart. */
  dispose: () => void;
}

/**
 * Draws an empty candlestick + volume chart into `container`, sized to it (a ResizeObserver keeps it
 * so, with at most 10 ticks per axis), and reports the time under the crosshair (null off the candles).
 */
export function mountChart(
  container: HTMLElement,
  theme: ChartTheme,
  onCrosshairTime: (time: number | null) => void,
): MountedChart {
  const colors = CHART_THEME_COLORS[theme];
  const chart = createChart(container, {
    width: container.clientWidth,
    height: container.clientHeight,
    layout: {
      background: { type: ColorType.Solid, color: colors.background },
      textColor: colors.text,
      fontSize: CHART_FONT_SIZE,
      attributionLogo: false,
    },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    crosshair: { mode: CrosshairMode.Normal },
    rightPriceScale: { borderColor: colors.border, scaleMargins: { top: 0.12, bottom: 0.24 } },
    timeScale: {
      borderColor: colors.border,
      timeVisible: true,
      secondsVisible: false,
      rightOffset: 4,
      tickMarkFormatter,
    },
    localization: {
      priceFormatter: formatChartPrice,
      timeFormatter: (time: Time) => formatChartTime(time as number),
    },
  });
  const candles = chart.addSeries(CandlestickSeries, {
    upColor: colors.up,
    downColor: colors.down,
    borderVisible: false,
    wickUpColor: colors.up,
    wickDownColor: colors.down,
    priceFormat: { type: 'custom', formatter: formatChartPrice, minMove: 0.01 },
  });
  const volume = chart.addSeries(HistogramSeries, {
    priceFormat: { type: 'volume' },
    priceScaleId: '',
    lastValueVisible: false,
    priceLineVisible: false,
  });
  volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  const markers = createSeriesMarkers(candles, []);

  const onCrosshairMove = (param: MouseEventParams<Time>) => {
    onCrosshairTime(typeof param.time === 'number' ? param.time : null);
  };
  chart.subscribeCrosshairMove(onCrosshairMove);

  const applySize = (width: number, heightPx: number) => {
    if (width <= 0 || heightPx <= 0) return;
    const ticks = axisTickOptions(width, heightPx);
    chart.applyOptions({
      width,
      height: heightPx,
      timeScale: { tickMarkMaxCharacterLength: ticks.timeTickMarkMaxCharacterLength },
      rightPriceScale: { tickMarkDensity: ticks.priceTickMarkDensity },
    });
  };
  applySize(container.clientWidth, container.clientHeight);
  let observer: ResizeObserver | undefined;
  if (typeof ResizeObserver !== 'undefined') {
    observer = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box) applySize(Math.floor(box.width), Math.floor(box.height));
    });
    observer.observe(container);
  }

  return {
    chart,
    candles,
    volume,
    markers,
    dispose() {
      observer?.disconnect();
      chart.unsubscribeCrosshairMove(onCrosshairMove);
      chart.remove();
    },
  };
}

/** Recolours a mounted chart for `theme` (volume bars take their candle's direction colour). */
export function applyChartTheme(
  mounted: {
    chart: IChartApi | null;
    candles: ISeriesApi<'Candlestick'> | null;
    volume: ISeriesApi<'Histogram'> | null;
  },
  theme: ChartTheme,
  candles: readonly CandlePoint[],
): void {
  const colors = CHART_THEME_COLORS[theme];
  mounted.chart?.applyOptions({
    layout: { background: { type: ColorType.Solid, color: colors.background }, textColor: colors.text },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.border },
    timeScale: { borderColor: colors.border },
  });
  mounted.candles?.applyOptions({
    upColor: colors.up,
    downColor: colors.down,
    wickUpColor: colors.up,
    wickDownColor: colors.down,
  });
  if (candles.length > 0) mounted.volume?.setData(toBars([...candles], colors).volumes);
}
