import { History, RefreshCw } from 'lucide-react';
import { formatPrice, TRADE_MESSAGES, type TExecutionReceipt, type TTrade } from '@solterm/contracts';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';
import {
  formatSlippageBps,
  formatDuration,
  formatTokenAmount,
  formatTradeTime,
  shortenHash,
} from '../../../lib/format';
import { useRecentTrades } from '../trading-queries';

/** Text the spec gives the empty table. */
export const NO_TRADES_YET = 'No trades yet';

/** Order statuses as the spec shows them: Filled/completed, pending, failed. */
function statusTone(status: string): BadgeTone {
  const normalised = status.toLowerCase();
  if (normalised === 'filled' || normalised === 'completed') return 'up';
  if (normalised === 'pending') return 'warn';
  if (normalised === 'failed') return 'down';
  return 'neutral';
}

function quoteOf(symbol: string): string {
  return symbol.split('/')[1] ?? '';
}

function baseOf(symbol: string): string {
  return symbol.split('/')[0] ?? symbol;
}

/** The receipt as one line of the table and the full breakdown for its title. */
function describeReceipt(receipt: TExecutionReceipt, quote: string) {
  const summary = `${formatSlippageBps(receipt.slippage_bps)} · ${formatDuration(receipt.time_to_land_ms)}`;
  const details = [
    `Quoted ${formatPrice(receipt.quoted_price)}, filled ${formatPrice(receipt.filled_price)} ${quote}`,
    `Slippage ${formatSlippageBps(receipt.slippage_bps)}`,
    `Venue fee ${formatTokenAmount(receipt.venue_fee, quote)} ${quote}`,
    `Network fee ${formatTokenAmount(receipt.network_fee_sol, 'SOL')} SOL`,
    `Landed in ${formatDuration(receipt.time_to_land_ms)}`,
  ].join('\n');
  return { summary, details };
}

function SideText({ side }: { side: string }) {
  return <span className={cn('font-semibold', side === 'Buy' ? 'text-up' : 'text-down')}>{side}</span>;
}

function TradeRow({ trade }: { trade: TTrade }) {
  const quote = quoteOf(trade.symbol);
  const receipt = trade.receipt ? describeReceipt(trade.receipt, quote) : null;
  const time = trade.timestamp || trade.created_at;
  return (
    <Tr data-testid="recent-trade">
      <Td className="font-medium">{trade.symbol}</Td>
      <Td>
        <SideText side={trade.side} />
      </Td>
      <Td isNumeric>{formatTokenAmount(trade.quantity, baseOf(trade.symbol))}</Td>
      <Td isNumeric>{formatPrice(trade.price)}</Td>
      <Td isNumeric className="text-muted" title={new Date(time).toLocaleString()}>
        {formatTradeTime(time)}
      </Td>
      <Td className="text-muted">{trade.order_type}</Td>
      <Td>
        <Badge tone={statusTone(trade.status)}>{trade.status}</Badge>
      </Td>
      <Td isNumeric className="text-muted" title={receipt?.details}>
        {receipt ? receipt.summary : '—'}
      </Td>
      <Td className="font-mono text-[11px] text-faint" title={trade.tx_hash}>
        {shortenHash(trade.tx_hash)}
      </Td>
    </Tr>
  );
}

/** The phone layout: one two-line row per trade. */
function TradeListItem({ trade }: { trade: TTrade }) {
  const quote = quoteOf(trade.symbol);
  const receipt = trade.receipt ? describeReceipt(trade.receipt, quote) : null;
  const time = trade.timestamp || trade.created_at;
  return (
    <li className="px-4 py-2.5" data-testid="recent-trade-item">
      <div className="flex items-center justify-between gap-3 text-[13px]">
        <span className="flex min-w-0 items-center gap-2">
          <SideText side={trade.side} />
          <span className="truncate font-medium">{trade.symbol}</span>
        </span>
        <span className="num shrink-0">
          {formatTokenAmount(trade.quantity, baseOf(trade.symbol))} @ {formatPrice(trade.price)}
        </span>
      </div>
      <div className="mt-1 flex items-center justify-between gap-3 text-[11px] text-faint">
        <span className="flex items-center gap-1.5">
          <Badge tone={statusTone(trade.status)}>{trade.status}</Badge>
          <span>{trade.order_type}</span>
          <span className="num">{formatTradeTime(time)}</span>
        </span>
        {receipt && (
          <span className="num truncate" title={receipt.details}>
            {receipt.summary}
          </span>
        )}
      </div>
    </li>
  );
}

const COLUMNS = ['Symbol', 'Side', 'Quantity', 'Price', 'Time', 'Order type', 'Status', 'Execution', 'Tx'];
const NUMERIC_COLUMNS = new Set(['Quantity', 'Price', 'Time', 'Execution']);

/**
 * Recent trades (spec part 1 §2): the user's last 10 fills, newest first, with symbol, side,
 * quantity, price, time, order type and status, plus the execution receipt (slippage · time to
 * land; fees in the cell's title).
 */
export function RecentTrades({ isEnabled = true, className }: { isEnabled?: boolean; className?: string }) {
  const query = useRecentTrades({ isEnabled });
  const trades = query.data ?? [];
  return (
    <Card role="region" aria-label="Recent trades" className={cn('min-w-0 overflow-hidden', className)}>
      <CardHeader
        title="Recent trades"
        icon={<History className="size-4" />}
        description="Your last 10 fills, newest first"
        actions={
          <Button
            variant="ghost"
            size="xs"
            onClick={() => void query.refetch()}
            disabled={!isEnabled || query.isFetching}
            aria-label="Refresh recent trades"
            className="w-7 px-0"
          >
            <RefreshCw className={cn('size-3.5', query.isFetching && 'animate-spin')} />
          </Button>
        }
      />
      {!isEnabled ? (
        <EmptyState
          icon={<History className="size-4" />}
          title={NO_TRADES_YET}
          description="Connect a Solana wallet to trade; your fills show here."
        />
      ) : query.isPending ? (
        <div className="space-y-2 p-4" aria-busy="true">
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} className="h-7 w-full" />
          ))}
        </div>
      ) : query.isError ? (
        <div className="p-4">
          <Notice
            tone="error"
            action={
              <Button size="xs" variant="secondary" onClick={() => void query.refetch()}>
                Retry
              </Button>
            }
          >
            {TRADE_MESSAGES.tradesFetchFailed}
          </Notice>
        </div>
      ) : trades.length === 0 ? (
        <EmptyState
          icon={<History className="size-4" />}
          title={NO_TRADES_YET}
          description="Fills from the quick trade and the Trade page appear here."
        />
      ) : (
        <>
          <ul className="divide-y divide-line/70 sm:hidden" aria-label="Trades">
            {trades.map((trade) => (
              <TradeListItem key={trade.id} trade={trade} />
            ))}
          </ul>
          <div className="hidden sm:block">
            <Table>
              <THead>
                <tr>
                  {COLUMNS.map((column) => (
                    <Th key={column} isNumeric={NUMERIC_COLUMNS.has(column)}>
                      {column}
                    </Th>
                  ))}
                </tr>
              </THead>
              <TBody>
                {trades.map((trade) => (
                  <TradeRow key={trade.id} trade={trade} />
                ))}
              </TBody>
            </Table>
          </div>
        </>
      )}
    </Card>
  );
}
