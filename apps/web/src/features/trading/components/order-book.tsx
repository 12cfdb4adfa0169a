import { useState } from 'react';
import { BookOpen } from 'lucide-react';
import { groupThousands, SpecDecimal, type TOrderBook } from '@solterm/contracts';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useOrderBook } from '../hooks/use-spot-data';
import type { SpotPair } from '../order-form-model';
import { formatAmount, formatBps, formatFixed } from '../../../lib/format';
import { tokenLabel } from './spot-cells';

/** Levels shown on each side. */
export const ORDER_BOOK_DEPTH = 10;

/**
 * Decimals that tell the shown levels apart: at least the spec's precision for the mid price (two
 * from 1 up, four below 1, six below 0.01, two significant digits below 1e-6), more while two
 * neighbouring levels would print the same, at most four more.
 *
 * @example getBookPriceDecimals([183.82, 183.821, 183.83], 183.8); // 3
 */
export function getBookPriceDecimals(prices: readonly number[], mid: number): number {
  const magnitude = Math.abs(mid);
  const base =
    magnitude >= 1
      ? 2
      : magnitude >= 0.01
        ? 4
        : magnitude >= 0.000001
          ? 6
          : magnitude > 0
            ? 1 - Math.floor(Math.log10(magnitude)) + 1
            : 2;
  const sorted = [...prices].sort((a, b) => a - b);
  for (let decimals = base; decimals < base + 4; decimals += 1) {
    const printed = sorted.map((price) => new SpecDecimal(price).toFixed(decimals));
    if (printed.every((text, index) => index === 0 || text !== printed[index - 1])) return decimals;
  }
  return base + 4;
}

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

/**
 * Decimals of a book's sizes: four while the deepest cumulative size stays under 1,000, two under
 * 100,000, else none (a cheap token's levels run to hundreds of thousands: '536,577.83' does not
 * fit the size column beside its neighbour, '536,578' does).
 *
 * @example getBookSizeDecimals([1.5, 1361.9]); // 2
 * getBookSizeDecimals([2682.9, 536577.8]);     // 0
 */
export function getBookSizeDecimals(sizes: readonly (number | SpecDecimal)[]): number {
  const deepest = sizes.reduce<SpecDecimal>(
    (max, size) => SpecDecimal.max(max, new SpecDecimal(size).abs()),
    new SpecDecimal(0),
  );
  if (deepest.gte(100_000)) return 0;
  return deepest.gte(1000) ? 2 : 4;
}

/**
 * A book size in the narrow columns with fixed decimals (trailing zeros kept so the column lines
 * up); a million and more compact. Without `decimals`: four below 1,000, else two.
 *
 * @example formatBookSize(1361.93941); // '1,361.94'
 * formatBookSize(3, 2);                // '3.00'
 */
export function formatBookSize(value: number | SpecDecimal, decimals?: number): string {
  const decimal = typeof value === 'number' ? new SpecDecimal(value) : value;
  const magnitude = decimal.abs();
  if (magnitude.gte(1_000_000)) return COMPACT.format(decimal.toNumber());
  if (decimals === undefined) return formatAmount(decimal, magnitude.gte(1000) ? 2 : 4);
  return groupThousands(decimal.toFixed(decimals));
}

/** How a market's book prints its prices and sizes. */
export interface BookPrecision {
  readonly pairId: string;
  readonly priceDecimals: number;
  readonly sizeDecimals: number;
}

/**
 * A market's book precision, from its first book: prices with {@link getBookPriceDecimals} of that
 * book, sizes with {@link getBookSizeDecimals} of its cumulative depth.
 */
export function getBookPrecision(
  pairId: string,
  book: TOrderBook,
  rows: ReturnType<typeof buildBookRows>,
): BookPrecision {
  const levels = [...rows.asks, ...rows.bids];
  return {
    pairId,
    priceDecimals: getBookPriceDecimals(
      levels.map((row) => row.price),
      book.mid_price,
    ),
    sizeDecimals: getBookSizeDecimals(levels.map((row) => row.cumulative)),
  };
}

export interface BookRow {
  price: number;
  amount: number;
  /** Base tokens from the spread out to this level. */
  cumulative: SpecDecimal;
  /** Share of the deepest cumulative amount on screen, 0–1 (the depth bar). */
  depth: number;
}

/**
 * The book's nearest levels with cumulative depth: asks lowest first, bids highest first (each
 * side ordered outward from the spread), depth relative to the deeper side on screen.
 */
export function buildBookRows(
  book: TOrderBook,
  depth = ORDER_BOOK_DEPTH,
): { asks: BookRow[]; bids: BookRow[] } {
  const asks = [...book.sells].sort((a, b) => a.price - b.price).slice(0, depth);
  const bids = [...book.buys].sort((a, b) => b.price - a.price).slice(0, depth);
  function accumulate(levels: typeof asks) {
    let running = new SpecDecimal(0);
    return levels.map((level) => {
      running = running.plus(level.amount);
      return { ...level, cumulative: running };
    });
  }
  const askRows = accumulate(asks);
  const bidRows = accumulate(bids);
  const deepest = SpecDecimal.max(askRows.at(-1)?.cumulative ?? 0, bidRows.at(-1)?.cumulative ?? 0);
  const share = (value: SpecDecimal) => (deepest.isZero() ? 0 : value.div(deepest).toNumber());
  return {
    asks: askRows.map((row) => ({ ...row, depth: share(row.cumulative) })),
    bids: bidRows.map((row) => ({ ...row, depth: share(row.cumulative) })),
  };
}

function Level({
  row,
  side,
  precision,
  onPick,
}: {
  row: BookRow;
  side: 'ask' | 'bid';
  precision: BookPrecision;
  onPick?: (price: number) => void;
}) {
  const isAsk = side === 'ask';
  return (
    <button
      type="button"
      onClick={() => onPick?.(row.price)}
      title="Use this price for a limit order"
      data-testid={isAsk ? 'book-ask' : 'book-bid'}
      className="group relative grid h-[22px] w-full grid-cols-[1.1fr_1fr_1fr] items-center gap-1 px-3 text-right text-[12px] hover:bg-hover/60"
    >
      <span
        aria-hidden="true"
        className={cn(
          'absolute inset-y-px right-0 transition-[width] duration-300',
          isAsk ? 'bg-down/12' : 'bg-up/12',
        )}
        style={{ width: `${Math.max(row.depth * 100, 1).toFixed(1)}%` }}
      />
      <span className={cn('num relative text-left font-medium', isAsk ? 'text-down' : 'text-up')}>
        {formatFixed(row.price, precision.priceDecimals)}
      </span>
      <span className="num relative text-fg/85">{formatBookSize(row.amount, precision.sizeDecimals)}</span>
      <span className="num relative text-muted">
        {formatBookSize(row.cumulative, precision.sizeDecimals)}
      </span>
    </button>
  );
}

function SkeletonLevels({ count }: { count: number }) {
  return (
    <div aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="grid h-[22px] grid-cols-3 items-center gap-3 px-3">
          <Skeleton className="h-2.5 w-14" />
          <Skeleton className="ml-auto h-2.5 w-12" />
          <Skeleton className="ml-auto h-2.5 w-12" />
        </div>
      ))}
    </div>
  );
}

/**
 * The pair's order book (GET /trading/orderbook/{symbol}, every 2 s): asks above in red rising
 * upward, the mid price and spread between, bids below in green, each with a cumulative depth bar.
 * Clicking a level hands its price to the order form.
 */
export function OrderBook({
  pair,
  onPickPrice,
  className,
}: {
  pair: SpotPair;
  onPickPrice?: (price: number) => void;
  className?: string;
}) {
  const query = useOrderBook(pair.pairId);
  const book = query.data;
  const rows = book ? buildBookRows(book) : null;
  // Fixed per market from its first book, so the digits do not jump between 2 s refreshes.
  const [kept, setKept] = useState<BookPrecision | null>(null);
  const precision =
    kept?.pairId === pair.pairId
      ? kept
      : book && rows && (rows.asks.length > 0 || rows.bids.length > 0)
        ? getBookPrecision(pair.pairId, book, rows)
        : null;
  if (precision && precision !== kept) setKept(precision);
  const decimals = precision?.priceDecimals ?? 2;
  const spreadBps =
    book && book.mid_price > 0 ? new SpecDecimal(book.spread).div(book.mid_price).times(10_000) : null;

  return (
    <Card className={cn('flex min-w-0 flex-col', className)} data-testid="order-book" aria-label="Order book">
      <CardHeader
        title="Order Book"
        icon={<BookOpen className="size-4" />}
        actions={<span className="text-[11px] text-faint">{pair.pair}</span>}
        className="py-2.5"
      />
      {/* items-end: a long base symbol wraps SIZE onto two lines; the others sit on its last line. */}
      <div className="grid grid-cols-[1.1fr_1fr_1fr] items-end gap-1 px-3 pt-2 pb-1 text-right text-[10px] tracking-wide text-faint uppercase">
        <span className="text-left">Price ({tokenLabel(pair.quote)})</span>
        <span>Size ({tokenLabel(pair.base)})</span>
        <span>Total</span>
      </div>
      {query.isTradable === false ? (
        <EmptyState
          className="flex-1 py-8"
          icon={<BookOpen className="size-4" />}
          title="Not tradable"
          description={`${pair.pair} cannot be traded here${query.notTradableReason ? `: ${query.notTradableReason}` : '.'}`}
        />
      ) : query.isError && !book ? (
        <EmptyState
          className="flex-1 py-8"
          icon={<BookOpen className="size-4" />}
          title="Order book unavailable"
          description={getErrorMessage(query.error, 'The venue did not answer. Retrying…')}
        />
      ) : !rows ? (
        <div className="pb-2">
          <SkeletonLevels count={ORDER_BOOK_DEPTH} />
          <div className="my-1 h-9 border-y border-line bg-canvas/40" />
          <SkeletonLevels count={ORDER_BOOK_DEPTH} />
        </div>
      ) : (
        <div className="pb-2">
          {/* Asks: the lowest next to the spread, prices rising upward. */}
          <div className="flex min-h-[220px] flex-col-reverse justify-start" data-testid="book-asks">
            {precision &&
              rows.asks.map((row) => (
                <Level key={row.price} row={row} side="ask" precision={precision} onPick={onPickPrice} />
              ))}
          </div>
          <div
            className="my-1 flex items-center justify-between gap-2 border-y border-line bg-canvas/40 px-3 py-1.5"
            data-testid="book-mid"
          >
            <span className="num text-[15px] font-semibold tracking-tight">
              {book ? formatFixed(book.mid_price, decimals) : '—'}
            </span>
            <span className="num text-[11px] text-muted">
              Spread {book ? new SpecDecimal(book.spread).toFixed(decimals) : '—'}
              {spreadBps && <span className="text-faint"> · {formatBps(spreadBps)}</span>}
            </span>
          </div>
          <div className="min-h-[220px]" data-testid="book-bids">
            {precision &&
              rows.bids.map((row) => (
                <Level key={row.price} row={row} side="bid" precision={precision} onPick={onPickPrice} />
              ))}
          </div>
          {rows.asks.length === 0 && rows.bids.length === 0 && (
            <p className="px-4 py-2 text-center text-xs text-muted">No liquidity on this pair right now.</p>
          )}
        </div>
      )}
    </Card>
  );
}
