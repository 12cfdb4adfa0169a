import type { ReactNode } from 'react';
import { Ban, CheckCircle2, Clock, RotateCw, XCircle } from 'lucide-react';
import {
  isSolanaAddress,
  parsePair,
  shortenAddress,
  type TOrderSide,
  type TOrderStatus,
} from '@solterm/contracts';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { Td, Tr } from '../../../components/ui/table';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';

/** A token as tables show it: its symbol, or a shortened mint. */
export function tokenLabel(token: string): string {
  return isSolanaAddress(token) ? shortenAddress(token) : token;
}

/** The two tokens of a pair text, as shown. */
export function splitPair(symbol: string): { base: string; quote: string } {
  const parsed = parsePair(symbol);
  if (!parsed) return { base: symbol, quote: '' };
  return { base: tokenLabel(parsed.base), quote: tokenLabel(parsed.quote) };
}

export function PairCell({ symbol }: { symbol: string }) {
  const { base, quote } = splitPair(symbol);
  return (
    <span className="font-medium whitespace-nowrap">
      {base}
      {quote && <span className="text-faint">/{quote}</span>}
    </span>
  );
}

export function SideText({ side }: { side: TOrderSide }) {
  return <span className={cn('font-semibold', side === 'Buy' ? 'text-up' : 'text-down')}>{side}</span>;
}

const STATUS: Record<TOrderStatus, { tone: BadgeTone; icon: ReactNode }> = {
  Pending: { tone: 'warn', icon: <Clock className="size-3" /> },
  Filled: { tone: 'up', icon: <CheckCircle2 className="size-3" /> },
  Failed: { tone: 'down', icon: <XCircle className="size-3" /> },
  Cancelled: { tone: 'neutral', icon: <Ban className="size-3" /> },
};

/** Pending, Filled, Failed or Cancelled. */
export function OrderStatusBadge({ status }: { status: TOrderStatus }) {
  const { tone, icon } = STATUS[status];
  return (
    <Badge tone={tone} icon={icon}>
      <span data-testid="order-status">{status}</span>
    </Badge>
  );
}

/**
 * Keeps a table's last (actions) column in view while the rest scrolls sideways on narrow screens.
 */
export const STICKY_ACTIONS =
  '[&_td:last-child]:sticky [&_td:last-child]:right-0 [&_td:last-child]:bg-panel [&_th:last-child]:sticky [&_th:last-child]:right-0 [&_th:last-child]:bg-panel';

/** Placeholder rows while a table loads. */
export function SkeletonRows({ columns, rows = 4 }: { columns: number; rows?: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <Tr key={row} aria-hidden="true">
          {Array.from({ length: columns }, (_, column) => (
            <Td key={column} className={column === 0 ? undefined : 'text-right'}>
              <Skeleton className={cn('h-3', column === 0 ? 'w-20' : 'ml-auto w-14')} />
            </Td>
          ))}
        </Tr>
      ))}
    </>
  );
}

/** What a table shows instead of rows: nothing yet, or its read failed (with a Retry). */
export function TableMessage({
  icon,
  title,
  description,
  onRetry,
}: {
  icon?: ReactNode;
  title: string;
  description?: string;
  onRetry?: () => void;
}) {
  return (
    <EmptyState
      className="flex-1 py-8"
      icon={icon}
      title={title}
      description={description}
      action={
        onRetry ? (
          <Button variant="secondary" size="xs" onClick={onRetry}>
            <RotateCw className="size-3" />
            Retry
          </Button>
        ) : undefined
      }
    />
  );
}

/**
 * What a table read by `query` shows instead of its rows, or null when it has rows (or is still
 * loading its first page): the failure with a Retry while nothing is cached, or its empty state.
 */
export function tableMessageOf(
  query: { isError: boolean; isPending: boolean; error: unknown; refetch: () => unknown },
  rowCount: number,
  copy: {
    failedTitle: string;
    /** The spec's message when the error carries none. */
    failedFallback: string;
    empty: { icon: ReactNode; title: string; description: string };
  },
): ReactNode {
  if (query.isError && rowCount === 0) {
    return (
      <TableMessage
        title={copy.failedTitle}
        description={getErrorMessage(query.error, copy.failedFallback)}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (!query.isPending && rowCount === 0) return <TableMessage {...copy.empty} />;
  return null;
}
