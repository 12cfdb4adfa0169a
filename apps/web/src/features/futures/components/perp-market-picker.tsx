import { Link, useNavigate } from 'react-router';
import type { TFuturesPair } from '@solterm/contracts';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';

/** The /future address of a perpetual market (its base against USDC, as the pair search sets it). */
export const futurePathOf = (pair: Pick<TFuturesPair, 'base_symbol'>) =>
  `/future?pair=${encodeURIComponent(`${pair.base_symbol}/USDC`)}`;

/** The market selector of /future: every perpetual market the venue lists. */
export function PerpMarketSelect({
  pairs,
  current,
  className,
}: {
  pairs: readonly TFuturesPair[];
  current: TFuturesPair | undefined;
  className?: string;
}) {
  const navigate = useNavigate();
  return (
    <label className={cn('flex items-center gap-2 text-xs text-muted', className)}>
      <span className="shrink-0">Market</span>
      <select
        aria-label="Perpetual market"
        value={current?.symbol ?? ''}
        onChange={(event) => {
          const next = pairs.find((pair) => pair.symbol === event.target.value);
          if (next) void navigate(futurePathOf(next));
        }}
        className="h-8 min-w-0 rounded-md border border-line bg-raised px-2 text-sm font-semibold text-fg"
      >
        {!current && <option value="">Choose a market</option>}
        {pairs.map((pair) => (
          <option key={pair.symbol} value={pair.symbol}>
            {pair.symbol} · up to {pair.max_leverage}x
          </option>
        ))}
      </select>
    </label>
  );
}

/** What /future shows for a pair without a perpetual market: the markets that have one. */
export function NoPerpMarket({ base, pairs }: { base: string; pairs: readonly TFuturesPair[] }) {
  return (
    <Card className="min-w-0 p-4" aria-label="No perpetual market">
      <h2 className="text-base font-semibold text-fg">{base} has no perpetual market</h2>
      <p className="mt-1 text-sm text-muted">
        Futures trade only where the venue lists a perpetual. Pick one of these markets:
      </p>
      <ul className="mt-3 flex flex-wrap gap-2" aria-label="Perpetual markets">
        {pairs.map((pair) => (
          <li key={pair.symbol}>
            <Link
              to={futurePathOf(pair)}
              className="inline-flex h-8 items-center gap-1.5 rounded-md border border-line bg-raised px-3 text-sm font-semibold text-fg hover:border-accent hover:text-accent"
            >
              {pair.symbol}
              <span className="num text-[11px] font-normal text-faint">{pair.max_leverage}x</span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
