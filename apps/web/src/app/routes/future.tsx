import { useState } from 'react';
import type { TFuturesOrder } from '@solterm/contracts';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { CollateralPanel } from '../../features/futures/components/collateral-panel';
import { FuturesBook } from '../../features/futures/components/futures-book';
import { FuturesOrderPanel } from '../../features/futures/components/futures-order-panel';
import { FuturesStatus } from '../../features/futures/components/futures-status';
import { FuturesTables } from '../../features/futures/components/futures-tables';
import { NoPerpMarket, PerpMarketSelect } from '../../features/futures/components/perp-market-picker';
import {
  futuresPriceLevels,
  useFuturesFunding,
  useFuturesMarket,
  useFuturesPairs,
  useFuturesUser,
  type FuturesPriceLevels,
} from '../../features/futures/use-futures';
import { HolderAnalysis } from '../../features/market/components/holder-analysis';
import { PairHeader } from '../../features/market/components/pair-header';
import type { ChartPriceLine } from '../../features/market/components/price-chart';
import { useTradingSelection } from '../../features/market/hooks/use-trading-selection';
import { MyTradesChart } from '../../features/trading/components/my-trades-chart';
import { useWallet } from '../../features/wallet/wallet-context';
import { cn } from '../../lib/cn';

/*
 * Layout as /trade: the balance strip on top; one column on phones (chart, order panel, book,
 * tables, status); from xl the chart, book and order panel share a row, the tables and status below.
 */
const GRID = [
  'grid grid-cols-1 gap-3',
  "md:grid-cols-2 md:[grid-template-areas:'chart_chart'_'form_book']",
  "xl:grid-cols-[minmax(0,1fr)_260px_320px] xl:[grid-template-areas:'chart_book_form']",
].join(' ');

/**
 * The chart's lines: the perp's mark price (its candles are the oracle's feed), the market's open
 * limit orders and waiting stop / take profit orders, and the position's entry, liquidation price,
 * take profit and stop loss when one is open. (The user's fills are markers the chart draws itself.)
 */
function chartLines(
  mark: string | null | undefined,
  side: string | undefined,
  levels: FuturesPriceLevels,
  orders: readonly TFuturesOrder[],
): ChartPriceLine[] {
  const lines: ChartPriceLine[] = [];
  if (mark) lines.push({ title: 'Mark', price: Number(mark), color: '#60a5fa' });
  for (const order of orders) {
    if (order.order_type !== 'Limit' || order.price === null) continue;
    if (order.status !== 'Open' && order.status !== 'PartiallyFilled') continue;
    const color = order.side === 'Long' ? '#22c55e' : '#f43f5e';
    lines.push({ title: `Limit ${order.side} ${order.size}`, price: Number(order.price), color });
  }
  for (const trigger of levels.triggers) {
    const title = `${trigger.kind === 'stop' ? 'Stop' : 'TP'} ${trigger.side}`;
    lines.push({ title, price: trigger.price, color: trigger.kind === 'stop' ? '#ef4444' : '#22c55e' });
  }
  if (levels.entry !== null)
    lines.push({ title: `Entry ${side ?? ''}`.trim(), price: levels.entry, color: '#a1a1aa' });
  if (levels.liquidation !== null)
    lines.push({ title: 'Liq.', price: levels.liquidation, color: '#f59e0b', style: 'solid' });
  if (levels.takeProfit !== null) lines.push({ title: 'TP', price: levels.takeProfit, color: '#22c55e' });
  if (levels.stopLoss !== null) lines.push({ title: 'SL', price: levels.stopLoss, color: '#ef4444' });
  return lines;
}

/**
 * /future (spec part 2 §2): whether the selected pair has a perpetual market, the futures balance
 * (initialize, deposit, withdraw — USDC held on chain), the live chart, the order panel with the
 * liquidation price before placing, the order book with spread, the status panel, the first 5 of
 * Your Positions and Your Futures Orders, and the holder analysis.
 */
export default function FuturePage() {
  const selection = useTradingSelection();
  const walletContext = useWallet();
  const isWalletConnected =
    walletContext.connected !== null && walletContext.connected.walletType !== 'metamask';
  const pairs = useFuturesPairs();
  const pair = pairs.data?.find((entry) => entry.base_symbol.toUpperCase() === selection.base.toUpperCase());
  const supported = pair !== undefined;
  const symbol = pair?.symbol ?? null;
  const market = useFuturesMarket(symbol);
  const funding = useFuturesFunding(symbol);
  const user = useFuturesUser(true);
  const position = user.positions.data?.find((entry) => entry.symbol === symbol);
  const [limitPrice, setLimitPrice] = useState('');
  const marketPairs = pairs.data ?? [];

  return (
    <>
      <PageHeader
        title="Futures"
        description="Perpetual futures with cross margin and up to 100x leverage; USDC collateral held on chain."
        className="mb-3"
        actions={
          pairs.isPending ? null : (
            <div className="flex min-w-0 flex-wrap items-center gap-2">
              <PerpMarketSelect pairs={marketPairs} current={pair} />
              {supported ? (
                <Badge tone="up">{pair.symbol} · perpetual market available</Badge>
              ) : (
                <Badge tone="warn">No perpetual market for {selection.base}</Badge>
              )}
            </div>
          )
        }
      />
      <CollateralPanel
        account={user.account.data}
        isLoading={user.account.isPending}
        isWalletConnected={isWalletConnected}
        className="mb-3"
      />
      {!pairs.isPending && !supported ? (
        <NoPerpMarket base={selection.pair} pairs={marketPairs} />
      ) : pair ? (
        <div className={GRID}>
          <Card className="min-w-0 overflow-hidden md:[grid-area:chart]" aria-label="Chart">
            <PairHeader selection={selection} className="border-b border-line" />
            <MyTradesChart
              selection={selection}
              withSpotLines={false}
              title={`${pair.symbol} oracle (${selection.base} feed)`}
              priceLines={chartLines(
                market.data?.mark_price,
                position?.side,
                futuresPriceLevels(symbol, user.positions.data, user.orders.data),
                (user.orders.data ?? []).filter((order) => order.symbol === symbol),
              )}
              heightClassName="h-[300px] sm:h-[420px]"
            />
          </Card>
          <FuturesOrderPanel
            pair={pair}
            account={user.account.data}
            position={position}
            isWalletConnected={isWalletConnected}
            price={limitPrice}
            onPriceChange={setLimitPrice}
          />
          <FuturesBook
            market={market.data}
            pair={pair}
            isLoading={symbol !== null && market.isPending}
            onPickPrice={setLimitPrice}
          />
        </div>
      ) : null}
      <div
        className={cn(
          'mt-3 grid grid-cols-1 items-start gap-3',
          supported && 'xl:grid-cols-[minmax(0,1fr)_320px]',
        )}
      >
        <FuturesTables
          positions={user.positions.data}
          orders={user.orders.data}
          isLoading={user.positions.isPending || user.orders.isPending}
        />
        {supported && (
          <FuturesStatus
            market={market.data}
            funding={funding.data}
            openOrders={user.account.data?.open_orders ?? 0}
            openPositions={user.account.data?.open_positions ?? 0}
          />
        )}
      </div>
      {/* The token's holders matter whether or not it has a perpetual market. */}
      <div className="mt-3">
        <HolderAnalysis selection={selection} />
      </div>
    </>
  );
}
