import type { ComponentProps } from 'react';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CANDLE_FIELDS } from '@solterm/contracts';

// lightweight-charts draws on a canvas, which the test DOM (happy-dom) lacks: a recording fake stands in for it.
const lw = vi.hoisted(() => {
  type FakeSeries = {
    kind: string;
    setData: ReturnType<typeof vi.fn>;
    update: ReturnType<typeof vi.fn>;
    applyOptions: ReturnType<typeof vi.fn>;
    priceScale: ReturnType<typeof vi.fn>;
  };
  type FakeChart = {
    series: FakeSeries[];
    addSeries: ReturnType<typeof vi.fn>;
    applyOptions: ReturnType<typeof vi.fn>;
    remove: ReturnType<typeof vi.fn>;
    subscribeCrosshairMove: ReturnType<typeof vi.fn>;
    unsubscribeCrosshairMove: ReturnType<typeof vi.fn>;
    timeScale: ReturnType<typeof vi.fn>;
  };
  const charts: FakeChart[] = [];
  /** Every marker layer created, with the markers it was last given. */
  const markerLayers: { setMarkers: ReturnType<typeof vi.fn>; markers: () => unknown[] }[] = [];
  const createSeriesMarkers = vi.fn(() => {
    let current: unknown[] = [];
    const layer = {
      setMarkers: vi.fn((markers: unknown[]) => {
        current = markers;
      }),
      markers: () => current,
    };
    markerLayers.push(layer);
    return layer;
  });
  const createChart = vi.fn((_container: HTMLElement, options: unknown) => {
    const chart: FakeChart = {
      series: [],
      addSeries: vi.fn((definition: { kind: string }) => {
        const series: FakeSeries = {
          kind: definition.kind,
          setData: vi.fn(),
          update: vi.fn(),
          applyOptions: vi.fn(),
          priceScale: vi.fn(() => ({ applyOptions: vi.fn() })),
        };
        chart.series.push(series);
        return series;
      }),
      applyOptions: vi.fn(),
      remove: vi.fn(),
      subscribeCrosshairMove: vi.fn(),
      unsubscribeCrosshairMove: vi.fn(),
      timeScale: vi.fn(() => ({ scrollToRealTime: vi.fn() })),
    };
    void options;
    charts.push(chart);
    return chart;
  });
  return { charts, createChart, createSeriesMarkers, markerLayers };
});

vi.mock('lightweight-charts', () => ({
  createChart: lw.createChart,
  createSeriesMarkers: lw.createSeriesMarkers,
  LineStyle: { Solid: 0, Dotted: 1, Dashed: 2 },
  CandlestickSeries: { kind: 'candles' },
  HistogramSeries: { kind: 'volume' },
  ColorType: { Solid: 'solid' },
  CrosshairMode: { Normal: 0 },
  TickMarkType: { Year: 0, Month: 1, DayOfMonth: 2, Time: 3, TimeWithSeconds: 4 },
}));

import { createFakeRealtime } from '../../../test/fake-websocket';
import { fail, ok, renderMarket, stubApi, type MarketRoute } from '../test/market-test-utils';
import { selectionFromPair, selectionFromToken, type PairSelection } from '../trading-state';
import { PriceChart } from './price-chart';

function candles(count: number, step: number, start = 1_700_000_000) {
  return Array.from({ length: count }, (_, index) => ({
    time: start + index * step,
    open: 185.1,
    high: 186.0,
    low: 184.9,
    close: index % 2 ? 185.5 : 184.95,
    volume: 1200.5,
  }));
}

/** The server's answer: columns when the client asks for them (it does), as the server lays them out. */
function chartAnswer(path: string): MarketRoute {
  const query = new URL(`http://x${path}`).searchParams;
  const interval = query.get('interval');
  const step = interval === '1H' ? 3600 : 900;
  const rows = candles(5, step);
  const laidOut =
    query.get('layout') === 'columns'
      ? { columns: Object.fromEntries(CANDLE_FIELDS.map((field) => [field, rows.map((row) => row[field])])) }
      : { candles: rows };
  return ok({
    symbol: 'SOL/USDC',
    quote: 'USDC',
    interval,
    interval_value: interval === '1H' ? '60' : '15',
    from: 0,
    to: 0,
    ...laidOut,
    source: 'simulator',
  });
}

function chartElement() {
  return screen.getByTestId('price-chart');
}

function latestChart() {
  const chart = lw.charts[lw.charts.length - 1];
  if (!chart) throw new Error('no chart was created');
  return chart;
}

function series(kind: 'candles' | 'volume') {
  const found = latestChart().series.find((entry) => entry.kind === kind);
  if (!found) throw new Error(`no ${kind} series`);
  return found;
}

beforeEach(() => {
  lw.charts.length = 0;
  lw.markerLayers.length = 0;
  lw.createChart.mockClear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderChart(
  selection: PairSelection = selectionFromPair('SOL/USDC')!,
  overlays: Pick<ComponentProps<typeof PriceChart>, 'markers' | 'onWindowChange'> = {},
) {
  const realtime = createFakeRealtime();
  const result = renderMarket(<PriceChart selection={selection} {...overlays} />, { realtime });
  return { ...result, realtime };
}

describe('price chart', () => {
  it('draws markers on the candles that contain them and reports the loaded window', async () => {
    stubApi((path) => (path.startsWith('/market/chart/') ? chartAnswer(path) : undefined));
    const onWindowChange = vi.fn();
    // Candles open at 1_700_000_000 + k × 900 (15M): a buy 5 min into the second, a sell in the fourth.
    renderChart(selectionFromPair('SOL/USDC')!, {
      onWindowChange,
      markers: [
        { time: 1_700_000_000 + 900 + 300, tone: 'buy', text: 'Buy Spot', price: 185.2 },
        { time: 1_700_000_000 + 3 * 900 + 10, tone: 'sell', text: 'Sell SOL-PERP' },
        // Before the first loaded candle: nothing to draw it on.
        { time: 1_700_000_000 - 60, tone: 'buy', text: 'Buy Spot' },
      ],
    });
    await waitFor(() => expect(chartElement()).toHaveAttribute('data-state', 'ready'));
    expect(onWindowChange).toHaveBeenCalledWith({ pairId: 'SOL/USDC', interval: '15M', from: 1_700_000_000 });
    const layer = lw.markerLayers.at(-1)!;
    expect(layer.markers()).toEqual([
      expect.objectContaining({
        time: 1_700_000_900,
        position: 'atPriceBottom',
        price: 185.2,
        shape: 'arrowUp',
        text: 'Buy Spot',
      }),
      expect.objectContaining({
        time: 1_700_002_700,
        position: 'aboveBar',
        shape: 'arrowDown',
        text: 'Sell SOL-PERP',
      }),
    ]);
    expect(chartElement()).toHaveAttribute('data-markers', 'Buy Spot; Sell SOL-PERP');
  });

  it('loads 15M candles by default and draws candles and volume', async () => {
    const { paths } = stubApi((path) => (path.startsWith('/market/chart/') ? chartAnswer(path) : undefined));
    renderChart();
    expect(screen.getByText('Loading token information...')).toBeInTheDocument();
    await waitFor(() => expect(chartElement()).toHaveAttribute('data-state', 'ready'));

    const request = paths.find((path) => path.startsWith('/market/chart/'))!;
    expect(request).toMatch(/^\/market\/chart\/SOL%2FUSDC\?interval=15M&from=\d+&to=\d+&layout=columns$/);
    const query = new URL(`http://x${request}`).searchParams;
    expect(Number(query.get('to')) - Number(query.get('from'))).toBe(299 * 900);

    expect(chartElement()).toHaveAttribute('data-interval', '15M');
    expect(screen.getByRole('button', { name: '15M' })).toHaveAttribute('aria-pressed', 'true');
    expect(series('candles').setData).toHaveBeenCalledWith(
      expect.arrayContaining([{ time: 1_700_000_000, open: 185.1, high: 186, low: 184.9, close: 184.95 }]),
    );
    expect(series('volume').setData.mock.calls[0]![0]).toHaveLength(5);
    expect(screen.getByTestId('chart-legend')).toHaveTextContent('SOL/USDC · 15M');
  });

  it('offers the eight intervals and reloads on a switch', async () => {
    const { paths } = stubApi((path) => (path.startsWith('/market/chart/') ? chartAnswer(path) : undefined));
    renderChart();
    await waitFor(() => expect(chartElement()).toHaveAttribute('data-state', 'ready'));
    const group = screen.getByRole('group', { name: 'Chart interval' });
    expect([...group.querySelectorAll('button')].map((button) => button.textContent)).toEqual([
      '1S',
      '1M',
      '5M',
      '15M',
      '1H',
      '4H',
      '12H',
      '1D',
    ]);

    fireEvent.click(screen.getByRole('button', { name: '1H' }));
    expect(chartElement()).toHaveAttribute('data-state', 'loading');
    await waitFor(() => expect(chartElement()).toHaveAttribute('data-state', 'ready'));
    expect(chartElement()).toHaveAttribute('data-interval', '1H');
    expect(
      paths.filter((path) => path.startsWith('/market/chart/')).map((path) => path.split('&')[0]),
    ).toEqual(['/market/chart/SOL%2FUSDC?interval=15M', '/market/chart/SOL%2FUSDC?interval=1H']);
    expect(series('candles').setData).toHaveBeenCalledTimes(2);
    const hourly = series('candles').setData.mock.calls[1]![0] as { time: number }[];
    expect(hourly[1]!.time - hourly[0]!.time).toBe(3600);
    // One chart for the component's life: switching reloads data, it does not rebuild the chart.
    expect(lw.createChart).toHaveBeenCalledTimes(1);
  });

  it('updates the forming candle and appends the next from the candle channel', async () => {
    stubApi((path) => (path.startsWith('/market/chart/') ? chartAnswer(path) : undefined));
    const { realtime } = renderChart();
    await waitFor(() => expect(chartElement()).toHaveAttribute('data-state', 'ready'));
    const socket = realtime.latest();
    act(() => socket.open());
    expect(socket.sentOfType('subscribe')).toEqual([{ type: 'subscribe', channel: 'candles:SOL/USDC:15' }]);

    const last = 1_700_000_000 + 4 * 900;
    const tick = (time: number, close: number, closed = false) =>
      act(() =>
        socket.receive({
          type: 'channel',
          channel: 'candles:SOL/USDC:15',
          data: {
            pair: 'SOL/USDC',
            interval: '15M',
            candle: { time, open: 185.1, high: 190, low: 184, close, volume: 99 },
            closed,
          },
        }),
      );
    tick(last, 189.25);
    tick(last, 189.5, true);
    tick(last + 900, 189.6);
    tick(last - 900, 150); // older than the last candle: ignored
    const updates = series('candles').update.mock.calls.map(
      ([bar]) => bar as { time: number; close: number },
    );
    expect(updates).toEqual([
      expect.objectContaining({ time: last, close: 189.25 }),
      expect.objectContaining({ time: last, close: 189.5 }),
      expect.objectContaining({ time: last + 900, close: 189.6 }),
    ]);
    expect(series('volume').update).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId('chart-legend')).toHaveTextContent('C 189.60');

    // Another interval listens to its own channel only.
    fireEvent.click(screen.getByRole('button', { name: '1H' }));
    await waitFor(() => expect(chartElement()).toHaveAttribute('data-state', 'ready'));
    expect(socket.sentOfType('unsubscribe')).toEqual([
      { type: 'unsubscribe', channel: 'candles:SOL/USDC:15' },
    ]);
    expect(socket.sentOfType('subscribe').at(-1)).toEqual({
      type: 'subscribe',
      channel: 'candles:SOL/USDC:60',
    });
  });

  it('says the token is not supported when the server does not know it, and Retry reloads', async () => {
    let isKnown = false;
    const { paths } = stubApi((path) => {
      if (!path.startsWith('/market/chart/')) return undefined;
      return isKnown ? chartAnswer(path) : fail(404, 'Token not found: NOPE', 'MARKET__TOKEN_NOT_FOUND');
    });
    renderChart(
      selectionFromToken(
        { symbol: 'NOPE', name: 'Nope', address: 'CzLSujWBLFsSjncfkh59rUFqvafWcY5tzedWJSuypump' },
        'SOL',
      ),
    );
    expect(await screen.findByText('Token not supported by GMGN charts')).toBeInTheDocument();
    expect(chartElement()).toHaveAttribute('data-state', 'error');

    isKnown = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(chartElement()).toHaveAttribute('data-state', 'ready'));
    expect(paths.filter((path) => path.startsWith('/market/chart/'))).toHaveLength(2);
  });

  it('says the chart failed when there are no candles or the load fails', async () => {
    stubApi((path) =>
      path.startsWith('/market/chart/')
        ? ok({
            symbol: 'SOL/USDC',
            quote: 'USDC',
            interval: '15M',
            interval_value: '15',
            from: 0,
            to: 0,
            candles: [],
            source: 'simulator',
          })
        : undefined,
    );
    renderChart();
    expect(
      await screen.findByText(
        'Failed to load GMGN chart - Token may not be supported or have insufficient trading data',
      ),
    ).toBeInTheDocument();
  });

  it('says token information failed when the token lookup fails', async () => {
    stubApi((path) => (path.startsWith('/trading/dexscreener') ? fail(400, 'bad query') : undefined));
    renderChart({
      ...selectionFromToken({ symbol: 'ZZZ', name: 'Zed', address: null }, 'SOL'),
      baseAddress: null,
    });
    expect(await screen.findByText('Failed to load token information')).toBeInTheDocument();
  });

  it('does not chart a token of another chain', async () => {
    stubApi(() => undefined);
    renderChart(
      selectionFromToken(
        {
          symbol: 'BOBA',
          name: 'Boba',
          address: '0x42bbfa2e77757c645eeaad1655e0911a7553efbc',
          chain_id: 'ethereum',
        },
        'SOL',
      ),
    );
    expect(await screen.findByText('Token not supported by GMGN charts')).toBeInTheDocument();
  });

  it('toggles dark and light and remembers the choice', async () => {
    stubApi((path) => (path.startsWith('/market/chart/') ? chartAnswer(path) : undefined));
    renderChart();
    await waitFor(() => expect(chartElement()).toHaveAttribute('data-state', 'ready'));
    expect(chartElement()).toHaveAttribute('data-theme', 'dark');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to light chart theme' }));
    expect(chartElement()).toHaveAttribute('data-theme', 'light');
    expect(latestChart().applyOptions).toHaveBeenCalledWith(
      expect.objectContaining({
        layout: expect.objectContaining({ background: { type: 'solid', color: '#ffffff' } }),
      }),
    );
    expect(window.localStorage.getItem('chart_theme')).toBe('light');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to dark chart theme' }));
    expect(chartElement()).toHaveAttribute('data-theme', 'dark');
  });

  it('removes the chart on unmount', async () => {
    stubApi((path) => (path.startsWith('/market/chart/') ? chartAnswer(path) : undefined));
    const { unmount } = renderChart();
    await waitFor(() => expect(chartElement()).toHaveAttribute('data-state', 'ready'));
    const chart = latestChart();
    unmount();
    expect(chart.remove).toHaveBeenCalledTimes(1);
    expect(chart.unsubscribeCrosshairMove).toHaveBeenCalled();
  });
});
