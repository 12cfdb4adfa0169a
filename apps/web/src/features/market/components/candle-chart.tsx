import { useEffect, useMemo, useRef } from 'react';
import type { ChartInterval } from '@solterm/contracts';
import { CHART_THEME_COLORS } from '../chart-options';
import { toSeriesMarkers, type ChartMarker } from '../chart-overlays';
import type { CandlePoint } from '../market-ticks';
import { mountChart } from './price-chart-canvas';
import { toBars } from './price-chart-data';

/**
 * A still candlestick chart of given candles (no live feed, no toolbar), with markers on them: a
 * backtest's price over its tested period with the strategy's trades. Dark, sized to its box.
 */
export function CandleChart({
  candles,
  interval,
  markers,
  heightPx,
  label,
}: {
  candles: readonly CandlePoint[];
  interval: ChartInterval;
  markers: readonly ChartMarker[];
  heightPx: number;
  label: string;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const colors = CHART_THEME_COLORS.dark;
  const drawn = useMemo(
    () =>
      toSeriesMarkers(
        markers,
        { interval, times: candles.map((candle) => candle.time) },
        CHART_THEME_COLORS.dark,
      ),
    [markers, candles, interval],
  );

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const mounted = mountChart(container, 'dark', () => undefined);
    const { bars, volumes } = toBars(candles, CHART_THEME_COLORS.dark);
    mounted.candles.setData(bars);
    mounted.volume.setData(volumes);
    mounted.markers.setMarkers(drawn);
    mounted.chart.applyOptions({ timeScale: { rightOffset: 0 } });
    mounted.chart.timeScale().fitContent();
    return () => mounted.dispose();
  }, [candles, drawn]);

  return (
    <div
      className="relative w-full overflow-hidden rounded-panel"
      style={{ height: heightPx, background: colors.background }}
      data-testid="candle-chart"
      data-candles={candles.length}
      data-marker-count={drawn.length}
      data-markers={drawn.map((marker) => marker.text).join('; ') || undefined}
    >
      <div ref={containerRef} className="absolute inset-0" role="img" aria-label={label} />
    </div>
  );
}
