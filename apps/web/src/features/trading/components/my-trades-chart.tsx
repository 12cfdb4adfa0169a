import type { ComponentProps } from 'react';
import { useAuth } from '../../auth';
import { PriceChart, type ChartPriceLine } from '../../market';
import { useChartMarks } from '../hooks/use-chart-marks';

type MyTradesChartProps = Omit<ComponentProps<typeof PriceChart>, 'markers' | 'onWindowChange'> & {
  /** Draw the pair's open spot limit orders and the spot position's average entry (spot pages). */
  withSpotLines?: boolean;
};

/**
 * The pair's price chart with the signed-in user's own trading on it: every fill on the pair
 * (spot, bot and futures, each labelled) as a buy or sell marker on its candle, and on spot pages
 * the open limit orders and the position's average entry as lines. `priceLines` add lines of the
 * caller's own (a perp's mark, trigger orders, a liquidation price).
 */
export function MyTradesChart({ withSpotLines = true, priceLines, ...chart }: MyTradesChartProps) {
  const { user } = useAuth();
  const marks = useChartMarks({ isSignedIn: user !== null, withSpotLines });
  const lines: ChartPriceLine[] = [...marks.priceLines, ...(priceLines ?? [])];
  return (
    <PriceChart {...chart} priceLines={lines} markers={marks.markers} onWindowChange={marks.onWindowChange} />
  );
}
