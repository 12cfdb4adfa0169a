import { useEffect, useRef, useState } from 'react';
import {
  type CandlestickData,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import {
  candlesChannel,
  DEFAULT_CHART_INTERVAL,
  type ChartInterval,
  type ChartTheme,
} from '@solterm/contracts';
import { cn } from '../../../lib/cn';
import { useChannel } from '../../../lib/ws-client';
import { applyChartTheme, mountChart } from './price-chart-canvas';
import { ChartLegend, ChartStatusOverlay, ChartToolbar } from './price-chart-parts';
import { useChartCandles } from './use-chart-candles';
import { CHART_THEME_COLORS, formatChartPrice, priceMinMove } from '../chart-options';
import { readCandleTick, type CandlePoint } from '../market-ticks';
import type { PairSelection } from '../trading-state';
import { THEME_STORAGE_KEY, readStoredTheme, toBars, volumeColor } from './price-chart-data';
import type { ChartMarker, ChartPriceLine } from '../chart-overlays';
import { useChartOverlays, type ChartWindow } from './use-chart-overlays';

export type { ChartWindow } from './use-chart-overlays';

export type { ChartMarker, ChartPriceLine } from '../chart-overlays';

interface PriceChartProps {
  selection: PairSelection;
  /** The legend's name of the series (the pair by default; `SOL-PERP oracle` on /future). */
  title?: string;
  /** Horizontal lines over the candles (a perp's mark price, a position's entry and liquidation). */
  priceLines?: readonly ChartPriceLine[];
  /** Markers on candles (the user's fills), each on the candle of the interval that contains it. */
  markers?: readonly ChartMarker[];
  /** Told which candles are loaded (pair, interval, first candle) whenever they change. */
  onWindowChange?: (window: ChartWindow) => void;
  /** Height classes of the drawing area. */
  heightClassName?: string;
  className?: string;
}

/**
 * A candlestick chart with volume of the selected pair (spec part 1 §2, part 2 §2): the eight
 * intervals (15M default), dark/light theme, at most 10 ticks per axis, candles from
 * GET /market/chart/{pair}, live from the `candles:<PAIR>:<interval>` channel (the forming candle
 * updates; a new one is appended when it opens), sized by a ResizeObserver. Loading and failure
 * show the spec's texts; Retry reloads the chart data (not the whole page).
 */
export function PriceChart({
  selection,
  heightClassName = 'h-[320px] sm:h-[420px]',
  className,
  title,
  ...overlays
}: PriceChartProps) {
  const [interval, setChartInterval] = useState<ChartInterval>(DEFAULT_CHART_INTERVAL);
  const [theme, setTheme] = useState<ChartTheme>(readStoredTheme);
  /** The candle under the crosshair, if any, with the `${pairId}:${interval}` it belongs to. */
  const [hovered, setHovered] = useState<{ key: string | null; candle: CandlePoint } | null>(null);
  /** The latest live candle, with the `${pairId}:${interval}` it belongs to. */
  const [liveCandle, setLiveCandle] = useState<{ key: string; candle: CandlePoint } | null>(null);

  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const candleSeriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volumeSeriesRef = useRef<ISeriesApi<'Histogram'> | null>(null);
  const markersRef = useRef<ISeriesMarkersPluginApi<Time> | null>(null);
  /** `${pairId}:${interval}` of the data on screen; live ticks of anything else are dropped. */
  const loadedKeyRef = useRef<string | null>(null);
  const lastTimeRef = useRef<number | null>(null);
  const candlesByTimeRef = useRef(new Map<number, CandlePoint>());
  const themeRef = useRef(theme);

  const { tokenQuery, chartQuery, token, pairId, status, isRefreshing, readyCandles } = useChartCandles(
    selection,
    interval,
  );

  // Create the chart once; remove it on unmount.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const mounted = mountChart(container, themeRef.current, (time) => {
      const candle = time === null ? undefined : candlesByTimeRef.current.get(time);
      setHovered(candle ? { key: loadedKeyRef.current, candle } : null);
    });
    chartRef.current = mounted.chart;
    candleSeriesRef.current = mounted.candles;
    volumeSeriesRef.current = mounted.volume;
    markersRef.current = mounted.markers;
    return () => {
      mounted.dispose();
      markersRef.current = null;
      chartRef.current = null;
      candleSeriesRef.current = null;
      volumeSeriesRef.current = null;
      loadedKeyRef.current = null;
    };
  }, []);

  // Theme.
  useEffect(() => {
    themeRef.current = theme;
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, theme);
    } catch {
      // Not remembered; the toggle still works for this page.
    }
    applyChartTheme(
      { chart: chartRef.current, candles: candleSeriesRef.current, volume: volumeSeriesRef.current },
      theme,
      [...candlesByTimeRef.current.values()],
    );
  }, [theme]);

  // Data: draw the loaded candles.
  useEffect(() => {
    const chart = chartRef.current;
    const candleSeries = candleSeriesRef.current;
    const volumeSeries = volumeSeriesRef.current;
    if (!chart || !candleSeries || !volumeSeries || !readyCandles || !pairId) return;
    const { bars, volumes } = toBars(readyCandles, CHART_THEME_COLORS[themeRef.current]);
    const last = readyCandles[readyCandles.length - 1] ?? null;
    candleSeries.applyOptions({
      priceFormat: { type: 'custom', formatter: formatChartPrice, minMove: priceMinMove(last?.close ?? 0) },
    });
    candleSeries.setData(bars);
    volumeSeries.setData(volumes);
    chart.applyOptions({ timeScale: { secondsVisible: interval === '1S' } });
    chart.timeScale().scrollToRealTime();
    candlesByTimeRef.current = new Map(readyCandles.map((candle) => [candle.time, candle]));
    lastTimeRef.current = last?.time ?? null;
    loadedKeyRef.current = `${pairId}:${interval}`;
  }, [readyCandles, pairId, interval]);

  const chartRefs = { series: candleSeriesRef, markerLayer: markersRef };
  const drawnMarkers = useChartOverlays(overlays, chartRefs, { readyCandles, pairId, interval, theme });

  // Live: the forming candle updates, a newer one is appended.
  useChannel(status.kind === 'ready' && pairId ? candlesChannel(pairId, interval) : null, (data) => {
    const tick = readCandleTick(data);
    if (tick?.kind !== 'candle' || loadedKeyRef.current !== `${pairId}:${interval}`) return;
    const { candle } = tick;
    const lastTime = lastTimeRef.current;
    if (lastTime !== null && candle.time < lastTime) return;
    const colors = CHART_THEME_COLORS[themeRef.current];
    candleSeriesRef.current?.update(toBars([candle], colors).bars[0] as CandlestickData<UTCTimestamp>);
    volumeSeriesRef.current?.update({
      time: candle.time as UTCTimestamp,
      value: candle.volume,
      color: volumeColor(candle, colors),
    });
    candlesByTimeRef.current.set(candle.time, candle);
    lastTimeRef.current = candle.time;
    setLiveCandle({ key: `${pairId}:${interval}`, candle });
  });

  function retry() {
    if (tokenQuery.isError || !token) void tokenQuery.refetch();
    else void chartQuery.refetch();
  }

  const colors = CHART_THEME_COLORS[theme];
  const currentKey = `${pairId}:${interval}`;
  const legendCandle =
    status.kind !== 'ready'
      ? undefined
      : ((hovered?.key === currentKey ? hovered.candle : undefined) ??
        (liveCandle?.key === currentKey ? liveCandle.candle : readyCandles?.[readyCandles.length - 1]));
  return (
    <div className={cn('flex min-w-0 flex-col', className)}>
      <ChartToolbar
        interval={interval}
        onInterval={setChartInterval}
        theme={theme}
        onTheme={setTheme}
        isRefreshing={isRefreshing}
      />

      <div
        className={cn('relative w-full overflow-hidden rounded-b-panel', heightClassName)}
        style={{ background: colors.background }}
        data-testid="price-chart"
        data-state={status.kind}
        data-interval={interval}
        data-theme={theme}
        data-pair={pairId ?? selection.pair}
        data-candles={readyCandles?.length ?? 0}
        data-price-lines={
          overlays.priceLines?.map((line) => `${line.title} ${line.price}`).join('; ') || undefined
        }
        data-marker-count={drawnMarkers.length}
        data-markers={drawnMarkers.map((marker) => marker.text).join('; ') || undefined}
      >
        <div
          ref={containerRef}
          className="absolute inset-0"
          aria-label={`${selection.pair} price chart`}
          role="img"
        />

        {/* right-16: wraps before the price scale rather than running under its labels. */}
        {legendCandle && (
          <ChartLegend
            candle={legendCandle}
            name={`${title ?? selection.pair} · ${interval}`}
            theme={theme}
          />
        )}

        <ChartStatusOverlay
          status={status}
          background={colors.background}
          text={colors.text}
          onRetry={retry}
        />
      </div>
    </div>
  );
}
