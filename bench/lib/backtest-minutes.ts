import { type BacktestResult, type CandleSeries, Dec, rfqVenue, runBacktest } from '@solterm/engine';

const venue = rfqVenue({ baseDecimals: 9, quoteDecimals: 6, quoteUsdPrice: new Dec(1) });

/**
 * The backtest benches' run around their strategy: 1-minute SOL/USDC candles, one lot of 0.0001 SOL
 * at a time with stop loss 2 % and take profit 3 %, fills priced by the live maker's RFQ pricing and
 * fees, 1,000 USDC to start.
 */
export function backtestMinutes(
  series: CandleSeries,
  strategy: Parameters<typeof runBacktest>[0]['strategy'],
): BacktestResult {
  return runBacktest({
    strategy,
    risk: {
      amount: new Dec('0.0001'),
      maxPositions: 1,
      stopLossPercent: new Dec(2),
      takeProfitPercent: new Dec(3),
    },
    series,
    intervalSeconds: 60,
    venue,
    baseDecimals: 9,
    quoteDecimals: 6,
    initialCash: 1_000_000_000n,
  });
}
