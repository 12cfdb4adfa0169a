import { Moon, RotateCw, Sun } from 'lucide-react';
import { CHART_INTERVALS, MARKET_MESSAGES, type ChartInterval, type ChartTheme } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatCompact, formatPlainPercent } from '../../../lib/format';
import { CHART_THEME_COLORS, formatChartPrice } from '../chart-options';
import type { CandlePoint } from '../market-ticks';
import type { ChartStatus } from './price-chart-data';

/** The chart's interval buttons, its updating spinner and its theme toggle. */
export function ChartToolbar({
  interval,
  onInterval,
  theme,
  onTheme,
  isRefreshing,
}: {
  interval: ChartInterval;
  onInterval: (interval: ChartInterval) => void;
  theme: ChartTheme;
  onTheme: (theme: ChartTheme) => void;
  isRefreshing: boolean;
}) {
  return (
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
            onClick={() => onInterval(value)}
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
          onClick={() => onTheme(theme === 'dark' ? 'light' : 'dark')}
          aria-label={theme === 'dark' ? 'Switch to light chart theme' : 'Switch to dark chart theme'}
          title={theme === 'dark' ? 'Light theme' : 'Dark theme'}
          className="flex h-7 items-center gap-1.5 rounded px-2 text-xs font-medium text-muted transition-colors hover:bg-hover hover:text-fg"
        >
          {theme === 'dark' ? <Sun className="size-3.5" /> : <Moon className="size-3.5" />}
          <span className="hidden sm:inline">{theme === 'dark' ? 'Light' : 'Dark'}</span>
        </button>
      </div>
    </div>
  );
}

/** The OHLC, change and volume of the candle under the crosshair (else the latest one). */
export function ChartLegend({
  candle,
  name,
  theme,
}: {
  candle: CandlePoint;
  name: string;
  theme: ChartTheme;
}) {
  const colors = CHART_THEME_COLORS[theme];
  const change = candle.open > 0 ? ((candle.close - candle.open) / candle.open) * 100 : 0;
  return (
    <div
      className="num pointer-events-none absolute top-2 right-16 left-3 z-10 flex flex-wrap items-center gap-x-2.5 gap-y-0.5 text-[11px]"
      style={{ color: colors.text }}
      data-testid="chart-legend"
    >
      <span className="font-semibold" style={{ color: theme === 'dark' ? '#e7e9ee' : '#12151b' }}>
        {name}
      </span>
      {(['open', 'high', 'low', 'close'] as const).map((field) => (
        <span key={field} className={field === 'close' ? undefined : 'hidden sm:inline'}>
          {field.charAt(0).toUpperCase()}{' '}
          <span style={{ color: change >= 0 ? colors.up : colors.down }}>
            {formatChartPrice(candle[field])}
          </span>
        </span>
      ))}
      <span style={{ color: change >= 0 ? colors.up : colors.down }}>
        {change >= 0 ? '+' : ''}
        {formatPlainPercent(change)}
      </span>
      <span className="hidden sm:inline">
        Vol{' '}
        <span style={{ color: theme === 'dark' ? '#c9ced8' : '#12151b' }}>
          ${formatCompact(candle.volume)}
        </span>
      </span>
    </div>
  );
}

/** Covers the chart while its data loads, or with the spec's text and Retry when it failed. */
export function ChartStatusOverlay({
  status,
  background,
  text,
  onRetry,
}: {
  status: ChartStatus;
  background: string;
  text: string;
  onRetry: () => void;
}) {
  return (
    <>
      {status.kind === 'loading' && (
        <div
          className="absolute inset-0 z-20 flex items-center justify-center"
          style={{ background: background }}
        >
          <Spinner size="md" label={MARKET_MESSAGES.chartLoadingTokenInfo} isLabelVisible />
        </div>
      )}
      {status.kind === 'error' && (
        <div
          className="absolute inset-0 z-20 flex flex-col items-center justify-center gap-3 px-6 text-center"
          style={{ background: background }}
        >
          <p role="alert" className="max-w-md text-sm" style={{ color: text }}>
            {status.message}
          </p>
          <Button variant="secondary" size="sm" onClick={onRetry}>
            <RotateCw className="size-3.5" />
            Retry
          </Button>
        </div>
      )}
    </>
  );
}
