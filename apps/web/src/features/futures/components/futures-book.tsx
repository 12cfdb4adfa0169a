import { BookOpen } from 'lucide-react';
import { SpecDecimal, type TFuturesMarket, type TFuturesPair } from '@solterm/contracts';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';
import { decimalsOf } from '../futures-order-model';
import { formatFixed } from '../../../lib/format';

const LEVELS = 10;

/** The perp market's order book: asks above the spread, bids below, cumulative depth bars. */
export function FuturesBook({
  market,
  pair,
  isLoading,
  onPickPrice,
}: {
  market: TFuturesMarket | undefined;
  pair: TFuturesPair | undefined;
  isLoading: boolean;
  onPickPrice: (price: string) => void;
}) {
  const priceDecimals = pair ? decimalsOf(pair.tick_size) : 2;
  const sizeDecimals = pair ? decimalsOf(pair.min_order_size) : 3;
  const book = market?.order_book;
  const asks = (book?.asks ?? []).slice(0, LEVELS);
  const bids = (book?.bids ?? []).slice(0, LEVELS);
  const cumulate = (levels: typeof asks) => {
    let total = new SpecDecimal(0);
    return levels.map((level) => {
      total = total.plus(level.size);
      return { ...level, cumulative: total };
    });
  };
  const askRows = cumulate(asks);
  const bidRows = cumulate(bids);
  const deepest = SpecDecimal.max(
    askRows.at(-1)?.cumulative ?? new SpecDecimal(0),
    bidRows.at(-1)?.cumulative ?? new SpecDecimal(0),
    new SpecDecimal(1e-18),
  );
  const row = (level: (typeof askRows)[number], side: 'ask' | 'bid') => (
    <button
      type="button"
      key={`${side}-${level.price}`}
      onClick={() => onPickPrice(level.price)}
      className="relative grid w-full grid-cols-3 px-3 py-[3px] text-right text-xs hover:bg-raised/60"
      aria-label={`${side === 'ask' ? 'Ask' : 'Bid'} ${level.price}`}
    >
      <span
        className={cn('absolute inset-y-0 right-0', side === 'ask' ? 'bg-down/10' : 'bg-up/10')}
        style={{ width: `${level.cumulative.div(deepest).times(100).toFixed(1)}%` }}
      />
      <span className={cn('num relative text-left', side === 'ask' ? 'text-down' : 'text-up')}>
        {formatFixed(level.price, priceDecimals)}
      </span>
      <span className="num relative text-fg">{formatFixed(level.size, sizeDecimals)}</span>
      <span className="num relative text-muted">{formatFixed(level.cumulative, sizeDecimals)}</span>
    </button>
  );
  return (
    <Card className="min-w-0 md:[grid-area:book]" aria-label="Order book">
      <CardHeader
        title="Order Book"
        icon={<BookOpen className="size-4" />}
        description={market?.symbol ?? 'Perpetual'}
      />
      <div className="grid grid-cols-3 px-3 pt-2 pb-1 text-right text-[11px] text-faint">
        <span className="text-left">Price (USDC)</span>
        <span>Size</span>
        <span>Total</span>
      </div>
      {isLoading ? (
        <div className="space-y-1 p-3">
          {Array.from({ length: 12 }, (_, i) => (
            <Skeleton key={i} className="h-4" />
          ))}
        </div>
      ) : !book || (asks.length === 0 && bids.length === 0) ? (
        <EmptyState
          title="No orders in the book"
          description="Quotes appear as soon as the market has a price."
        />
      ) : (
        <div className="pb-2">
          <div className="flex flex-col-reverse">{askRows.map((level) => row(level, 'ask'))}</div>
          <div
            className="flex items-center justify-between border-y border-line bg-raised/40 px-3 py-1.5 text-xs"
            aria-label="Spread"
          >
            <span className="num text-fg font-semibold">{formatFixed(market.mark_price, priceDecimals)}</span>
            <span className="text-faint">
              Spread <span className="num text-muted">{formatFixed(book.spread, priceDecimals)}</span>
              {book.spread_percent && (
                <span className="num text-muted"> ({formatFixed(book.spread_percent, 3)}%)</span>
              )}
            </span>
          </div>
          <div>{bidRows.map((level) => row(level, 'bid'))}</div>
        </div>
      )}
    </Card>
  );
}
