import { useQuery } from '@tanstack/react-query';
import {
  DASHBOARD_COIN_SYMBOLS,
  DASHBOARD_MESSAGES,
  formatUsdPrice,
  getDashboardCoinPair,
} from '@solterm/contracts';
import { Sparkline } from '../../../components/ui/sparkline';
import { mintOfToken } from '../hooks/use-token-safety';
import { SafetyBadge } from './safety-badge';
import { cn } from '../../../lib/cn';
import { marketApi, marketKeys } from '../api/market-api';
import { useDashboardCoins } from '../hooks/use-market-data';
import { useSwitchPair, useTradingSelection } from '../hooks/use-trading-selection';
import { selectionFromPair } from '../trading-state';
import { ChangeText, TokenAvatar, usePriceFlash } from './market-bits';

const COIN_NAMES: Readonly<Record<(typeof DASHBOARD_COIN_SYMBOLS)[number], string>> = {
  btc: 'Bitcoin',
  eth: 'Ethereum',
  sol: 'Solana',
};

/** Hourly closes of the last 24 h for a card's sparkline. */
function useDaySparkline(symbol: string, livePrice: number | null): number[] {
  const query = useQuery({
    queryKey: marketKeys.history(symbol, 24),
    queryFn: ({ signal }) => marketApi.getHistory(symbol, 24, signal),
    staleTime: 5 * 60_000,
    refetchInterval: 10 * 60_000,
  });
  const points = (query.data?.points ?? [])
    .map((point) => point.price)
    .filter((value) => Number.isFinite(value));
  // The hour in progress ends at the live price.
  if (points.length > 0 && livePrice !== null) points[points.length - 1] = livePrice;
  return points;
}

function CoinCard({
  symbol,
  price,
  change,
  isSelected,
  isLoading,
  onSelect,
}: {
  symbol: (typeof DASHBOARD_COIN_SYMBOLS)[number];
  price: number | undefined;
  change: number | undefined;
  isSelected: boolean;
  isLoading: boolean;
  onSelect: () => void;
}) {
  const ticker = symbol.toUpperCase();
  const pair = getDashboardCoinPair(symbol) ?? `${ticker}/SOL`;
  const flash = usePriceFlash(price);
  const sparkline = useDaySparkline(ticker, price !== undefined && Number.isFinite(price) ? price : null);
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-pressed={isSelected}
      aria-label={`${COIN_NAMES[symbol]} ${ticker}: trade ${pair}`}
      data-testid={`coin-card-${symbol}`}
      className={cn(
        'group relative flex min-w-0 items-center gap-3 rounded-panel border bg-panel px-3 py-2.5 text-left transition-colors',
        'sm:flex-col sm:items-stretch sm:gap-0 sm:p-3.5',
        isSelected
          ? 'border-accent/60 ring-1 ring-accent/30'
          : 'border-line hover:border-line-strong hover:bg-raised/60',
      )}
    >
      <div className="flex min-w-0 flex-1 items-center justify-between gap-2 sm:flex-none">
        <div className="flex min-w-0 items-center gap-2.5">
          <TokenAvatar symbol={ticker} size={30} />
          <div className="min-w-0 leading-tight">
            <p className="flex items-center gap-1.5 text-[13px] font-semibold">
              {ticker}
              <SafetyBadge mint={mintOfToken(ticker)} isInteractive={false} />
            </p>
            <p className="truncate text-[11px] text-muted">{COIN_NAMES[symbol]}</p>
          </div>
        </div>
        <span
          className={cn(
            'num hidden rounded border px-1.5 py-0.5 text-[10px] font-semibold tracking-wide sm:inline',
            isSelected ? 'border-accent/40 text-accent' : 'border-line text-faint group-hover:text-muted',
          )}
        >
          {pair}
        </span>
      </div>
      <div className="flex shrink-0 items-center gap-3 sm:mt-3 sm:items-end sm:justify-between">
        <div className="order-2 min-w-0 text-right sm:order-1 sm:text-left">
          {isLoading ? (
            <>
              <span className="ml-auto block h-6 w-24 animate-pulse rounded bg-raised sm:ml-0 sm:w-28" />
              <span className="mt-1.5 ml-auto block h-3 w-16 animate-pulse rounded bg-raised sm:ml-0" />
            </>
          ) : (
            <>
              <p
                data-testid={`coin-price-${symbol}`}
                className={cn(
                  '-mx-1 num truncate rounded px-1 text-base font-semibold tracking-tight transition-colors duration-300 sm:text-xl',
                  flash === 'up' && 'bg-up/10',
                  flash === 'down' && 'bg-down/10',
                )}
              >
                {price === undefined ? '$0.00' : formatUsdPrice(price)}
              </p>
              <p className="mt-0.5 text-xs text-faint">
                24h <ChangeText value={change} className="font-medium" />
              </p>
            </>
          )}
        </div>
        <div className="order-1 h-9 w-16 shrink-0 sm:order-2 sm:w-28">
          <Sparkline values={sparkline} width={112} height={36} />
        </div>
      </div>
    </button>
  );
}

/**
 * The BTC, ETH and SOL cards of the dashboard (spec part 1 §2): price and 24 h change, live from the
 * `prices` channel (polled every 120 s while the socket is down). Clicking one sets the pair to
 * BTC/SOL, ETH/SOL or SOL/USDC.
 */
export function CoinCards() {
  const query = useDashboardCoins();
  const selection = useTradingSelection();
  const switchPair = useSwitchPair();
  return (
    <section aria-label="Coin prices">
      {query.isError && !query.data && (
        <p role="alert" className="mb-2 text-xs text-down">
          {DASHBOARD_MESSAGES.loadFailed}
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-3">
        {DASHBOARD_COIN_SYMBOLS.map((symbol) => {
          const coin = query.data?.[symbol];
          const pair = getDashboardCoinPair(symbol);
          return (
            <CoinCard
              key={symbol}
              symbol={symbol}
              price={coin?.price}
              change={coin?.change_24h}
              isLoading={query.isPending}
              isSelected={selection.pair === pair}
              onSelect={() => {
                const next = pair ? selectionFromPair(pair) : null;
                if (next && next.pair !== selection.pair) switchPair(next);
              }}
            />
          );
        })}
      </div>
    </section>
  );
}
