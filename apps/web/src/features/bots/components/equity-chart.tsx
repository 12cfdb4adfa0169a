import { useEffect, useMemo, useRef } from 'react';
import {
  ColorType,
  createChart,
  LineSeries,
  LineStyle,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { BACKTEST_CHART_HEIGHT_PX, type TBacktestResult } from '@solterm/contracts';
import { axisTickOptions, CHART_FONT_SIZE, CHART_THEME_COLORS } from '../../market';
import { backtestChartModel } from '../backtest-chart-model';
import { formatFixed, formatPlainPercent } from '../../../lib/format';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** X labels show the date only (part 2 §2): `21 Nov`, `2025` at a year boundary. */
const dateLabel = (time: Time) => {
  const date = new Date((time as number) * 1000);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
};
const fullDate = (time: Time) => new Date((time as number) * 1000).toISOString().slice(0, 10);
const money = (value: number) => formatFixed(value, 2);

/**
 * The backtest chart (part 2 §2): 400 px, portfolio value (and buy and hold, dashed) on the left axis, drawdown % from the running
 * peak on the right (only with more than 2 points), long curves thinned, Start and End points when
 * there is no curve, date-only x labels, at most 10 ticks per axis.
 */
export function EquityChart({ result, quote }: { result: TBacktestResult; quote: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const model = useMemo(() => backtestChartModel(result), [result]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const colors = CHART_THEME_COLORS.dark;
    const chart = createChart(container, {
      width: container.clientWidth,
      height: BACKTEST_CHART_HEIGHT_PX,
      layout: {
        background: { type: ColorType.Solid, color: colors.background },
        textColor: colors.text,
        fontSize: CHART_FONT_SIZE,
        attributionLogo: false,
      },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      // Value in the upper part, drawdown below it: the two lines never hide each other.
      leftPriceScale: {
        visible: true,
        borderColor: colors.border,
        scaleMargins: model.drawdown ? { top: 0.06, bottom: 0.36 } : { top: 0.1, bottom: 0.1 },
      },
      rightPriceScale: {
        visible: model.drawdown !== null,
        borderColor: colors.border,
        scaleMargins: { top: 0.7, bottom: 0.04 },
      },
      timeScale: {
        borderColor: colors.border,
        tickMarkFormatter: dateLabel,
        fixLeftEdge: true,
        fixRightEdge: true,
      },
      localization: { timeFormatter: fullDate },
      handleScroll: false,
      handleScale: false,
    });
    const equity = chart.addSeries(LineSeries, {
      priceScaleId: 'left',
      color: '#5b8cff',
      lineWidth: 2,
      title: `Value (${quote})`,
      pointMarkersVisible: model.isStartEndOnly,
      priceFormat: { type: 'custom', formatter: money, minMove: 0.01 },
    });
    equity.setData(model.equity.map((point) => ({ time: point.time as UTCTimestamp, value: point.value })));
    if (model.benchmark) {
      const held = chart.addSeries(LineSeries, {
        priceScaleId: 'left',
        color: colors.text,
        lineWidth: 1,
        lineStyle: LineStyle.Dashed,
        lastValueVisible: false,
        title: 'Buy & hold',
        priceFormat: { type: 'custom', formatter: money, minMove: 0.01 },
      });
      held.setData(
        model.benchmark.map((point) => ({ time: point.time as UTCTimestamp, value: point.value })),
      );
    }
    if (model.drawdown) {
      const drawdown = chart.addSeries(LineSeries, {
        priceScaleId: 'right',
        color: colors.down,
        lineWidth: 1,
        lineStyle: LineStyle.Solid,
        lastValueVisible: false,
        title: 'Drawdown %',
        priceFormat: {
          type: 'custom',
          formatter: (value: number) => formatPlainPercent(value),
          minMove: 0.01,
        },
      });
      drawdown.setData(
        model.drawdown.map((point) => ({ time: point.time as UTCTimestamp, value: point.value })),
      );
    }
    chart.timeScale().fitContent();

    const applySize = (width: number) => {
      const ticks = axisTickOptions(width, BACKTEST_CHART_HEIGHT_PX);
      chart.applyOptions({
        width,
        timeScale: { tickMarkMaxCharacterLength: ticks.timeTickMarkMaxCharacterLength },
        leftPriceScale: { tickMarkDensity: ticks.priceTickMarkDensity },
        rightPriceScale: { tickMarkDensity: ticks.priceTickMarkDensity },
      });
      chart.timeScale().fitContent();
    };
    applySize(container.clientWidth);
    const observer =
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver((entries) => {
            const box = entries[0]?.contentRect;
            if (box) applySize(Math.floor(box.width));
          });
    observer?.observe(container);
    return () => {
      observer?.disconnect();
      chart.remove();
    };
  }, [model, quote]);

  return (
    <div
      ref={containerRef}
      data-testid="backtest-chart"
      data-benchmark-points={model.benchmark?.length ?? 0}
      role="img"
      aria-label="Portfolio value, buy and hold, and drawdown over the backtest"
      style={{ height: BACKTEST_CHART_HEIGHT_PX }}
      className="w-full min-w-0"
    />
  );
}
