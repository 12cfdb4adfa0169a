import type { TChartFill, TPosition, TSpotOrder } from '@solterm/contracts';
import type { ChartMarker, ChartPriceLine } from '../market';
import { orderTypeLabel } from './order-type-label';

// The signed-in user's own trading on a price chart: fills as buy/sell markers (spot, bot and
// futures, each labelled by where it came from), open limit orders and the position's average
// entry as price lines.

/** Colours of the user's lines: buy orders, sell orders, the position's entry. */
export const CHART_MARK_COLORS = { buy: '#22c55e', sell: '#f43f5e', entry: '#a1a1aa' } as const;

/** Each fill as a marker: `Buy Spot`, `Sell Bot "Grid SOL" (paper)`, `Buy SOL-PERP`, at its price. */
export function fillsToMarkers(fills: readonly TChartFill[]): ChartMarker[] {
  return fills.map((fill) => {
    const price = Number(fill.price);
    return {
      time: fill.time,
      tone: fill.side === 'Buy' ? 'buy' : 'sell',
      text: `${fill.side} ${fill.label}`,
      ...(Number.isFinite(price) && price > 0 ? { price } : {}),
    };
  });
}

/** Whether a spot symbol (`SOL/USDC`, `sol-usdc`) names the chart's pair. */
export function isSamePair(symbol: string, pair: string): boolean {
  const normal = (text: string) => text.trim().toUpperCase().replace('-', '/');
  return normal(symbol) === normal(pair);
}

/** Price lines of the pair: its open limit orders (`Limit Buy 0.5`) and the position's average entry. */
export function spotPriceLines(
  pair: string,
  orders: readonly TSpotOrder[] | undefined,
  positions: readonly TPosition[] | undefined,
): ChartPriceLine[] {
  const lines: ChartPriceLine[] = [];
  for (const order of orders ?? []) {
    if (order.status !== 'Pending' || !isSamePair(order.symbol, pair)) continue;
    const color = order.side === 'Buy' ? CHART_MARK_COLORS.buy : CHART_MARK_COLORS.sell;
    if (order.order_type === 'Limit' && order.price !== null) {
      const remaining = order.quantity - order.filled_quantity;
      lines.push({
        title: `Limit ${order.side} ${remaining > 0 ? remaining : order.quantity}`,
        price: order.price,
        color,
      });
    } else if (order.order_type !== 'Market' && order.trigger_price != null) {
      // A trigger order at its trigger (a trailing stop's as the server moves it), dotted: it waits.
      const title = `${orderTypeLabel(order.order_type)} ${order.side} ${order.quantity}`;
      lines.push({ title, price: order.trigger_price, color, style: 'dotted' });
    }
  }
  const position = positions?.find((entry) => isSamePair(entry.symbol, pair) && entry.size > 0);
  if (position && position.average_entry_price > 0) {
    lines.push({ title: 'Avg entry', price: position.average_entry_price, color: CHART_MARK_COLORS.entry });
  }
  return lines;
}
