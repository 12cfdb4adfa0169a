import { describe, expect, it } from 'vitest';
import type { TChartFill, TPosition, TSpotOrder } from '@solterm/contracts';
import { CHART_MARK_COLORS, fillsToMarkers, isSamePair, spotPriceLines } from './chart-marks';

const fill = (overrides: Partial<TChartFill>): TChartFill => ({
  id: 'f1',
  source: 'spot',
  label: 'Spot',
  side: 'Buy',
  price: '150.25',
  quantity: '0.5',
  time: 1_700_000_130,
  ...overrides,
});

const order = (overrides: Partial<TSpotOrder>): TSpotOrder => ({
  id: 'o1',
  symbol: 'SOL/USDC',
  order_type: 'Limit',
  side: 'Buy',
  quantity: 2,
  price: 140,
  stop_price: null,
  leverage: 1,
  status: 'Pending',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  tx_hash: null,
  settlement_tx_hash: null,
  filled_quantity: 0,
  average_fill_price: null,
  receipt: null,
  ...overrides,
});

describe('fillsToMarkers', () => {
  it('marks buys and sells of every source with their label, time and price', () => {
    expect(
      fillsToMarkers([
        fill({}),
        fill({ id: 'b', source: 'bot', label: 'Bot "Grid SOL" (paper)', side: 'Sell', price: '155' }),
        fill({
          id: 'p',
          source: 'futures',
          label: 'SOL-PERP',
          side: 'Buy',
          price: '151.1',
          time: 1_700_000_200,
        }),
      ]),
    ).toEqual([
      { time: 1_700_000_130, tone: 'buy', text: 'Buy Spot', price: 150.25 },
      { time: 1_700_000_130, tone: 'sell', text: 'Sell Bot "Grid SOL" (paper)', price: 155 },
      { time: 1_700_000_200, tone: 'buy', text: 'Buy SOL-PERP', price: 151.1 },
    ]);
  });

  it('leaves a price it cannot draw out, so the marker sits on its candle instead', () => {
    expect(fillsToMarkers([fill({ price: '0' })])[0]).toEqual({
      time: 1_700_000_130,
      tone: 'buy',
      text: 'Buy Spot',
    });
  });
});

describe('spotPriceLines', () => {
  it("draws the pair's pending limit orders and the position's average entry, nothing else", () => {
    const position = { symbol: 'SOL/USDC', size: 1.5, average_entry_price: 148.2 } as TPosition;
    const lines = spotPriceLines(
      'SOL/USDC',
      [
        order({}),
        order({ id: 'o2', side: 'Sell', price: 170, quantity: 1, filled_quantity: 0.25 }),
        order({ id: 'o3', status: 'Filled' }),
        order({ id: 'o4', status: 'Cancelled' }),
        order({ id: 'o5', order_type: 'Market', price: null }),
        order({ id: 'o6', symbol: 'BONK/SOL' }),
      ],
      [position, { ...position, symbol: 'BONK/SOL', average_entry_price: 0.00002 }],
    );
    expect(lines).toEqual([
      { title: 'Limit Buy 2', price: 140, color: CHART_MARK_COLORS.buy },
      { title: 'Limit Sell 0.75', price: 170, color: CHART_MARK_COLORS.sell },
      { title: 'Avg entry', price: 148.2, color: CHART_MARK_COLORS.entry },
    ]);
  });

  it('draws a pending take-profit, stop-loss or trailing stop dotted at its trigger', () => {
    const lines = spotPriceLines(
      'SOL/USDC',
      [
        order({
          id: 't1',
          order_type: 'StopLoss',
          side: 'Sell',
          price: null,
          trigger_price: 130,
          quantity: 1,
        }),
        order({
          id: 't2',
          order_type: 'TrailingStop',
          side: 'Sell',
          price: null,
          trigger_price: 151.5,
          quantity: 1,
        }),
        order({ id: 't3', order_type: 'TakeProfit', side: 'Sell', status: 'Cancelled', trigger_price: 180 }),
      ],
      [],
    );
    expect(lines).toEqual([
      { title: 'Stop loss Sell 1', price: 130, color: CHART_MARK_COLORS.sell, style: 'dotted' },
      { title: 'Trailing stop Sell 1', price: 151.5, color: CHART_MARK_COLORS.sell, style: 'dotted' },
    ]);
  });

  it('has no entry line once the position is closed', () => {
    const closed = { symbol: 'SOL/USDC', size: 0, average_entry_price: 0 } as TPosition;
    expect(spotPriceLines('SOL/USDC', [], [closed])).toEqual([]);
  });

  it('compares pairs as the API spells them', () => {
    expect(isSamePair('sol-usdc', 'SOL/USDC')).toBe(true);
    expect(isSamePair('SOL/USDT', 'SOL/USDC')).toBe(false);
  });
});
