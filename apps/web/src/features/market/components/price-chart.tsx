import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  CrosshairMode,
  HistogramSeries,
  LineStyle,
  type CandlestickData,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { Moon, RotateCw, Sun } from 'lucide-react';
import {
  candlesChannel,
  CHART_INTERVAL_SECONDS,
  CHART_INTERVALS,
  DEFAULT_CHART_INTERVAL,
  MARKET_MESSAGES,
  type ChartInterval,
  type ChartTheme,
} from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useChannel } from '../../../lib/ws-client';
import { marketApi, marketKeys } from '../api/market-api';
import {
  axisTickOptions,
  CHART_FONT_SIZE,
  CHART_THEME_COLORS,
  formatChartPrice,
  formatChartTime,
  priceMinMove,
} from '../chart-options';
import { resolveChartToken } from '../chart-token';
import { readCandle, readCandleTick, type CandlePoint } from '../market-ticks';
import type { PairSelection } from '../trading-state';
import { formatCompact, formatPlainPercent } from '../../../lib/format';
import {
  CHART_INITIAL_CANDLES,
  THEME_STORAGE_KEY,
  type ChartPriceLine,
  readStoredTheme,
  getChartPairId,
  type ChartStatus,
  statusOfChartError,
  toBars,
  tickMarkFormatter,
  volumeColor,
} from './price-chart-data';

export type { ChartPriceLine } from './price-chart-data';

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
  priceLines,
}: {
  selection: PairSelection;
  /** The legend's name of the series (the pair by default; `SOL-PERP oracle` on /future). */
  title?: string;
  /** Horizontal lines over the candles (a perp's mark price, a position's entry and liquidation). */
  priceLines?: readonly ChartPriceLine[];
  /** Height classes of the drawing area. */
  heightClassName?: string;
  className?: string;
}) {
  const queryClient = useQueryClient();
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
  /** `${pairId}:${interval}` of the data on screen; live ticks of anything else are dropped. */
  const loadedKeyRef = useRef<string | null>(null);
  const lastTimeRef = useRef<number | null>(null);
  const candlesByTimeRef = useRef(new Map<number, CandlePoint>());
  const themeRef = useRef(theme);

  // 1. Which token the chart is for (the spec's chart token lookup).
  const tokenQuery = useQuery({
    queryKey: marketKeys.chartToken(selection.pair, selection.baseAddress),
    queryFn: () =>
      resolveChartToken(selection, {
        search: (symbol) =>
          queryClient.fetchQuery({
            queryKey: marketKeys.search(symbol),
            queryFn: ({ signal }) => marketApi.searchPrimary(symbol, signal),
            staleTime: 5 * 60_000,
          }),
      }),
    staleTime: Infinity,
    retry: false,
  });
  const token = tokenQuery.data ?? null;
  const pairId = token && token.chain === 'solana' ? getChartPairId(selection, token) : null;

  // 2. Its candles for the chosen interval.
  const chartQuery = useQuery({
    queryKey: marketKeys.chart(pairId ?? '', interval),
    enabled: pairId !== null,
    queryFn: async ({ signal }) => {
      const step = CHART_INTERVAL_SECONDS[interval];
      const to = Math.floor(Date.now() / 1000);
      const from = to - (CHART_INITIAL_CANDLES - 1) * step;
      const chart = await marketApi.getChart(pairId as string, { interval, from, to }, signal);
      return (Array.isArray(chart?.candles) ? chart.candles : [])
        .map(readCandle)
        .filter((candle): candle is CandlePoint => candle !== null);
    },
    staleTime: 0,
    retry: false,
  });

  let status: ChartStatus;
  if (tokenQuery.isPending) status = { kind: 'loading' };
  else if (tokenQuery.isError) status = { kind: 'error', message: MARKET_MESSAGES.chartTokenInfoFailed };
  else if (!pairId) status = { kind: 'error', message: MARKET_MESSAGES.chartTokenNotSupported };
  else if (chartQuery.isPending) status = { kind: 'loading' };
  else if (chartQuery.isError) status = { kind: 'error', message: statusOfChartError(chartQuery.error) };
  else if (chartQuery.data.length === 0) status = { kind: 'error', message: MARKET_MESSAGES.chartLoadFailed };
  else status = { kind: 'ready', candles: chartQuery.data };
  const isRefreshing = status.kind === 'ready' && chartQuery.isFetching;
  const readyCandles = status.kind === 'ready' ? status.candles : null;

  // Create the chart once; remove it on unmount.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const colors = CHART_THEME_COLORS[themeRef.current];
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
    chartRef.current = chart;
    candleSeriesRef.current = candles;
    volumeSeriesRef.current = volume;

    const onCrosshairMove = (param: MouseEventParams<Time>) => {
      const time = typeof param.time === 'number' ? param.time : null;
      const candle = time === null ? undefined : candlesByTimeRef.current.get(time);
      setHovered(candle ? { key: loadedKeyRef.current, candle } : null);
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

    return () => {
      observer?.disconnect();
      chart.unsubscribeCrosshairMove(onCrosshairMove);
      chart.remove();
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
    const colors = CHART_THEME_COLORS[theme];
    chartRef.current?.applyOptions({
      layout: { background: { type: ColorType.Solid, color: colors.background }, textColor: colors.text },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      rightPriceScale: { borderColor: colors.border },
      timeScale: { borderColor: colors.border },
    });
    candleSeriesRef.current?.applyOptions({
      upColor: colors.up,
      downColor: colors.down,
      wickUpColor: colors.up,
      wickDownColor: colors.down,
    });
    const candles = [...candlesByTimeRef.current.values()];
    if (candles.length > 0) volumeSeriesRef.current?.setData(toBars(candles, colors).volumes);
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

  // Price lines: redrawn whenever their values change.
  const linesKey = JSON.stringify(priceLines ?? []);
  useEffect(() => {
    const series = candleSeriesRef.current;
    if (!series || !priceLines || priceLines.length === 0) return;
    const drawn = priceLines.map((line) =>
      series.createPriceLine({
        price: line.price,
        color: line.color,
        lineWidth: 1,
        lineStyle: LineStyle.Dashed,
        axisLabelVisible: true,
        title: line.title,
      }),
    );
    return () => {
      for (const line of drawn) series.removePriceLine(line);
    };
    // linesKey stands for priceLines' values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linesKey, readyCandles]);

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
  const legendChange =
    legendCandle && legendCandle.open > 0
      ? ((legendCandle.close - legendCandle.open) / legendCandle.open) * 100
      : 0;

  return (
    <div className={cn('flex min-w-0 flex-col', className)}>
      <div className="flex items-center justify-between gap-2 border-b border-line px-2 py-2 sm:px-3">
        <div
          role="group"
          aria-label="Chart interval"
          className="flex min-w-0 flex-1 items-center gap-0.5 overflow-x-auto"
        >
          {CHART_INTERVALS.map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={value === interval}
              onClick={() => setChartInterval(value)}
              className={cn(
                'num h-7 shrink-0 rounded px-1.5 text-xs font-semibold transition-colors sm:min-w-9 sm:px-2',
                value === interval ? 'bg-accent-soft text-accent' : 'text-muted hover:bg-hover hover:text-fg',
              )}
            >
              {value}
            </button>
          ))}
        </div>
        <div className="flex shrink-0 items-center gap-1">
          {isRefreshing && <Spinner size="sm" label="Updating chart" />}
          <button
            type="button"
            onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
            aria-label={theme === 'dark' ? 'Switch to light chart theme' : 'Switch to dark chart theme'}
            title={theme === 'dark' ? 'Light theme' : 'Dark theme'}
            className="flex h-7 items-center gap-1.5 rounded px-2 text-xs font-medium text-muted transition-colors hover:bg-hover hover:text-fg"
          >
            {theme === 'dark' ? <Sun className="size-3.5" /> : <Moon className="size-3.5" />}
            <span className="hidden sm:inline">{theme === 'dark' ? 'Light' : 'Dark'}</span>
          </button>
        </div>
      </div>

      <div
        className={cn('relative w-full overflow-hidden rounded-b-panel', heightClassName)}
        style={{ background: colors.background }}
        data-testid="price-chart"
        data-state={status.kind}
        data-interval={interval}
        data-theme={theme}
        data-pair={pairId ?? selection.pair}
        data-candles={readyCandles?.length ?? 0}
        data-price-lines={priceLines?.map((line) => `${line.title} ${line.price}`).join('; ') || undefined}
      >
        <div
          ref={containerRef}
          className="absolute inset-0"
          aria-label={`${selection.pair} price chart`}
          role="img"
        />

        {/* right-16: wraps before the price scale rather than running under its labels. */}
        {legendCandle && (
          <div
            className="num pointer-events-none absolute top-2 right-16 left-3 z-10 flex flex-wrap items-center gap-x-2.5 gap-y-0.5 text-[11px]"
            style={{ color: colors.text }}
            data-testid="chart-legend"
          >
            <span className="font-semibold" style={{ color: theme === 'dark' ? '#e7e9ee' : '#12151b' }}>
              {title ?? selection.pair} · {interval}
            </span>
            {(['open', 'high', 'low', 'close'] as const).map((field) => (
              <span key={field} className={field === 'close' ? undefined : 'hidden sm:inline'}>
                {field.charAt(0).toUpperCase()}{' '}
                <span style={{ color: legendChange >= 0 ? colors.up : colors.down }}>
                  {formatChartPrice(legendCandle[field])}
                </span>
              </span>
            ))}
            <span style={{ color: legendChange >= 0 ? colors.up : colors.down }}>
              {legendChange >= 0 ? '+' : ''}
              {formatPlainPercent(legendChange)}
            </span>
            <span className="hidden sm:inline">
              Vol{' '}
              <span style={{ color: theme === 'dark' ? '#c9ced8' : '#12151b' }}>
                ${formatCompact(legendCandle.volume)}
              </span>
            </span>
          </div>
        )}

        {status.kind === 'loading' && (
          <div
            className="absolute inset-0 z-20 flex items-center justify-center"
            style={{ background: colors.background }}
          >
            <Spinner size="md" label={MARKET_MESSAGES.chartLoadingTokenInfo} isLabelVisible />
          </div>
        )}
        {status.kind === 'error' && (
          <div
            className="absolute inset-0 z-20 flex flex-col items-center justify-center gap-3 px-6 text-center"
            style={{ background: colors.background }}
          >
            <p role="alert" className="max-w-md text-sm" style={{ color: colors.text }}>
              {status.message}
            </p>
            <Button variant="secondary" size="sm" onClick={retry}>
              <RotateCw className="size-3.5" />
              Retry
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
