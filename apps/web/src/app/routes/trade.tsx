import { useMemo, useRef, useState } from 'react';
import {
  formatCalculatorValue,
  getTokenDecimals,
  parseSpecDecimal,
  type TPosition,
} from '@solterm/contracts';
import { Card } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { useAuth } from '../../features/auth/use-auth';
import { PairHeader } from '../../features/market/components/pair-header';
import { TrendingTokens } from '../../features/trading/components/trending-tokens';
import { usePairPrice } from '../../features/market/hooks/use-market-data';
import { mintOfToken } from '../../features/market/hooks/use-token-safety';
import { useSwitchPair, useTradingSelection } from '../../features/market/hooks/use-trading-selection';
import { getPairId, selectionFromPair, type PairSelection } from '../../features/market/trading-state';
import { useNetwork } from '../../features/network/use-network';
import { BalancesStrip } from '../../features/portfolio/components/balances-strip';
import { OrderBook } from '../../features/trading/components/order-book';
import { OrderForm, type OrderFormWallet } from '../../features/trading/components/order-form';
import { SpotTables, type SpotTableTab } from '../../features/trading/components/spot-tables';
import { ExplorerNetworkContext } from '../../features/trading/components/tx-link';
import type { SpotPair } from '../../features/trading/order-form-model';
import { getClosingPrefill, orderPrefillStore, useOrderPrefill } from '../../features/trading/order-prefill';
import { MyTradesChart } from '../../features/trading/components/my-trades-chart';
import { getWalletAccess } from '../../features/trading/wallet-access';
import { useWallet } from '../../features/wallet/wallet-context';

function toSpotPair(selection: PairSelection): SpotPair {
  return {
    pair: selection.pair,
    pairId: getPairId(selection),
    base: selection.base,
    quote: selection.quote,
    baseDecimals: getTokenDecimals(selection.baseAddress ?? selection.base),
    quoteDecimals: getTokenDecimals(selection.quoteAddress ?? selection.quote),
    baseMint: mintOfToken(selection.base, selection.baseAddress),
  };
}

/*
 * Layout: one column on phones (chart, order form, book, tables); on tablets the chart on top with
 * form and book side by side under it; from xl the chart, book and form share the top row. The
 * tables always run the full width below, so every column shows.
 */
const GRID = [
  'grid grid-cols-1 gap-3',
  "md:grid-cols-2 md:[grid-template-areas:'chart_chart'_'form_book'_'tables_tables']",
  "xl:grid-cols-[minmax(0,1fr)_248px_300px] xl:[grid-template-areas:'chart_book_form'_'tables_tables_tables']",
  '2xl:grid-cols-[minmax(0,1fr)_288px_340px]',
].join(' ');

/**
 * /trade (spec part 2 §2): balances, the pair's live chart, the order book, Place Order (market or
 * limit, signed in the user's wallet), Your Spot Orders, Your Positions with Close, the All Trades
 * feed, and Trending Tokens whose Buy switches to TOKEN/SOL and prefills the form.
 */
export default function TradePage() {
  const selection = useTradingSelection();
  const pair = useMemo(() => toSpotPair(selection), [selection]);
  const price = usePairPrice(selection);
  const switchPair = useSwitchPair('trade');
  const walletContext = useWallet();
  const { user } = useAuth();
  const { network } = useNetwork();
  const prefill = useOrderPrefill();
  const orderPanelRef = useRef<HTMLDivElement>(null);
  const [tab, setTab] = useState<SpotTableTab>('orders');

  const connected = walletContext.connected;
  const wallet: OrderFormWallet = {
    // An EVM wallet cannot sign Solana transactions: it does not count for trading.
    isConnected: connected !== null && connected.walletType !== 'metamask',
    isRestoring: walletContext.isRestoring,
    signTransaction: (wire) => walletContext.signTransaction(wire),
  };
  const marketPrice = price.price && price.price.gt(0) ? price.price : null;

  function showOrderForm() {
    orderPanelRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'nearest' });
  }

  function closePosition(position: TPosition) {
    const target = selectionFromPair(position.symbol);
    const closing = target ? getClosingPrefill(position, target.pair) : null;
    if (!target || !closing) return;
    if (target.pair !== selection.pair && !switchPair(target)) return;
    orderPrefillStore.set(closing);
    showOrderForm();
  }

  function pickBookPrice(levelPrice: number) {
    const decimal = parseSpecDecimal(levelPrice);
    if (!decimal) return;
    orderPrefillStore.set({
      pair: selection.pair,
      orderType: 'Limit',
      limitPrice: formatCalculatorValue(decimal),
      origin: 'Order book',
    });
  }

  /** A Trending Tokens Buy has switched the pair and prefilled the form: bring the form into view. */
  function onTrendingBuy() {
    showOrderForm();
  }

  return (
    <ExplorerNetworkContext.Provider value={network}>
      <PageHeader
        title="Trade"
        description="Spot trading on Solana, signed in your own wallet."
        className="mb-3"
      />
      <BalancesStrip
        pair={pair}
        walletAddress={connected?.address ?? user?.solana_wallet_address ?? null}
        access={getWalletAccess(user)}
        className="mb-3"
      />

      <div className={GRID}>
        <Card className="min-w-0 overflow-hidden md:[grid-area:chart]" aria-label="Chart">
          <PairHeader selection={selection} showSafety alertMe className="border-b border-line" />
          <MyTradesChart selection={selection} heightClassName="h-[320px] sm:h-[420px]" />
        </Card>
        <OrderForm
          ref={orderPanelRef}
          className="min-w-0 md:[grid-area:form]"
          pair={pair}
          marketPrice={marketPrice}
          wallet={wallet}
          prefill={prefill}
          onPlaced={() => setTab('orders')}
        />
        <OrderBook
          className="md:[grid-area:book] xl:self-start 2xl:self-stretch"
          pair={pair}
          onPickPrice={pickBookPrice}
        />
        <SpotTables
          className="md:[grid-area:tables]"
          tab={tab}
          onTabChange={setTab}
          onClosePosition={closePosition}
          wallet={wallet}
        />
      </div>

      <div className="mt-3">
        <TrendingTokens onBuy={onTrendingBuy} />
      </div>
    </ExplorerNetworkContext.Provider>
  );
}
