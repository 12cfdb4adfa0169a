import { Activity } from 'lucide-react';
import { SpecDecimal, type TFuturesFunding, type TFuturesMarket } from '@solterm/contracts';
import { Card, CardHeader } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { formatFixed, formatRatePercent, getToneClass } from '../../../lib/format';

function Figure({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className="flex items-center justify-between gap-3 py-1 text-xs">
      <span className="text-faint">{label}</span>
      <span className={cn('num text-fg', className)}>{value}</span>
    </div>
  );
}

/** Futures status (part 2 §2): the market's liquidity, funding, open interest; the user's orders and positions. */
export function FuturesStatus({
  market,
  funding,
  openOrders,
  openPositions,
}: {
  market: TFuturesMarket | undefined;
  funding: TFuturesFunding | undefined;
  openOrders: number;
  openPositions: number;
}) {
  const book = market?.order_book;
  const liquidity = (levels: { price: string; size: string }[] | undefined) =>
    (levels ?? []).reduce(
      (sum, level) => sum.plus(new SpecDecimal(level.price).times(level.size)),
      new SpecDecimal(0),
    );
  // Counted from the server's clock (the book's time), refreshed with the book.
  const minutes =
    funding && book
      ? Math.max(0, Math.round((Date.parse(funding.next_funding_at) - Date.parse(book.at)) / 60_000))
      : null;
  return (
    <Card className="min-w-0" aria-label="Futures status">
      <CardHeader
        title="Futures Status"
        icon={<Activity className="size-4" />}
        description={market?.symbol}
      />
      <div className="divide-y divide-line/60 px-4 py-2">
        <Figure label="Bid liquidity (USDC)" value={book ? formatFixed(liquidity(book.bids), 0) : '—'} />
        <Figure label="Ask liquidity (USDC)" value={book ? formatFixed(liquidity(book.asks), 0) : '—'} />
        <Figure
          label="Oracle price"
          value={market?.oracle_price ? formatFixed(market.oracle_price, 4) : '—'}
        />
        <Figure
          label="Funding (1h)"
          value={funding ? formatRatePercent(funding.funding_rate) : '—'}
          className={funding ? getToneClass(funding.funding_rate) : undefined}
        />
        <Figure label="Next funding" value={minutes === null ? '—' : `in ${minutes} min`} />
        <Figure label="Open interest" value={market ? formatFixed(market.open_interest, 3) : '—'} />
        <Figure label="24h volume (USDC)" value={market ? formatFixed(market.volume_24h, 0) : '—'} />
        <Figure label="Your open orders" value={String(openOrders)} />
        <Figure label="Your positions" value={String(openPositions)} />
      </div>
    </Card>
  );
}
