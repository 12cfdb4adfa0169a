import { useEffect, useRef, useState } from 'react';
import { TrendingDown, TrendingUp } from 'lucide-react';
import { shortenAddress, type SpecDecimal } from '@solterm/contracts';
import { cn } from '../../../lib/cn';
import { CopyButton } from '../../../components/ui/copy-button';
import { getChangeDirection, toDecimal } from '../market-values';
import { formatPercentChange } from '../../../lib/format';

/** Hue of a symbol's avatar: stable per symbol. */
function hueOf(symbol: string): number {
  let hash = 0;
  for (const char of symbol) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

/** A round token mark: the token's image when there is one, else its initials on a tinted disc. */
export function TokenAvatar({
  symbol,
  image,
  size = 28,
  className,
}: {
  symbol: string;
  image?: string | null;
  size?: number;
  className?: string;
}) {
  const [isBroken, setIsBroken] = useState(false);
  const style = { width: size, height: size };
  if (image && !isBroken) {
    return (
      <img
        src={image}
        alt=""
        aria-hidden="true"
        style={style}
        onError={() => setIsBroken(true)}
        className={cn('shrink-0 rounded-full bg-raised object-cover ring-1 ring-line', className)}
      />
    );
  }
  const hue = hueOf(symbol);
  return (
    <span
      aria-hidden="true"
      style={{ ...style, background: `hsl(${hue} 45% 22%)`, color: `hsl(${hue} 80% 78%)` }}
      className={cn(
        'flex shrink-0 items-center justify-center rounded-full text-[10px] font-bold ring-1 ring-line',
        className,
      )}
    >
      {symbol.slice(0, 3).toUpperCase()}
    </span>
  );
}

/** A 24 h change in green (up) or red (down) with an arrow and sign; one that rounds to 0.00% stays neutral. */
export function ChangeText({
  value,
  withIcon = false,
  className,
}: {
  value: number | SpecDecimal | null | undefined;
  withIcon?: boolean;
  className?: string;
}) {
  const direction = getChangeDirection(value);
  const Icon = direction === 'down' ? TrendingDown : TrendingUp;
  return (
    <span
      className={cn(
        'num inline-flex items-center gap-1',
        direction === 'up' && 'text-up',
        direction === 'down' && 'text-down',
        direction === 'flat' && 'text-faint',
        className,
      )}
    >
      {withIcon && direction !== 'flat' && <Icon aria-hidden="true" className="size-3.5" />}
      {formatPercentChange(value)}
    </span>
  );
}

/** A shortened address with a copy button; clicks do not reach the row around it. */
export function CopyAddress({ address, className }: { address: string; className?: string }) {
  return (
    <span className={cn('inline-flex min-w-0 items-center gap-1', className)}>
      <span className="truncate font-mono text-[11px] text-faint" title={address}>
        {shortenAddress(address)}
      </span>
      <CopyButton
        value={address}
        label={`Copy address ${address}`}
        copiedMessage="Address copied"
        keepFocus
      />
    </span>
  );
}

/**
 * 'up' or 'down' for a moment after a value rises or falls (a price flashing green or red), else
 * null.
 */
export function usePriceFlash(value: number | SpecDecimal | null | undefined): 'up' | 'down' | null {
  const previous = useRef<SpecDecimal | null>(null);
  const [flash, setFlash] = useState<{ direction: 'up' | 'down'; at: number } | null>(null);
  const current =
    value === null || value === undefined ? null : typeof value === 'number' ? toDecimal(value) : value;
  const key = current?.toString() ?? null;

  useEffect(() => {
    const last = previous.current;
    previous.current = current;
    if (!last || !current || last.eq(current)) return;
    setFlash({ direction: current.gt(last) ? 'up' : 'down', at: Date.now() });
    const timer = setTimeout(() => setFlash(null), 400);
    return () => clearTimeout(timer);
    // `key` stands for `current` (a new decimal object every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  return flash?.direction ?? null;
}
