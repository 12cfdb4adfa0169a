import { History } from 'lucide-react';
import type { TExecutionReceipt, TTrade } from '@solterm/contracts';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';
import { useTradesFeed } from '../hooks/use-spot-data';
import { formatAmount, formatBps, formatDuration, formatQuote, formatTradeTime } from '../../../lib/format';
import { PairCell, SideText, SkeletonRows, splitPair, tableMessageOf } from './spot-cells';
import { TxLink } from './tx-link';

const COLUMNS = 8;

/** What landing the fill cost: slippage, network fee, venue fee and time to land. */
export function ReceiptCell({ receipt, quote }: { receipt: TExecutionReceipt | null; quote: string }) {
  if (!receipt) return <span className="text-faint">—</span>;
  const isAdverse = receipt.slippage_bps > 0;
  return (
    <div className="num grid grid-cols-[auto_auto] gap-x-3 text-[11px] leading-4" data-testid="receipt">
      <span className="text-faint">
        Slippage{' '}
        <span className={cn(isAdverse ? 'text-warn' : 'text-muted')} data-testid="receipt-slippage">
          {formatBps(receipt.slippage_bps)}
        </span>
      </span>
      <span className="text-faint">
        Landed <span className="text-muted">{formatDuration(receipt.time_to_land_ms)}</span>
      </span>
      <span className="text-faint">
        Network <span className="text-muted">{formatAmount(receipt.network_fee_sol, 9)} SOL</span>
      </span>
      <span className="text-faint">
        Venue{' '}
        <span className="text-muted">
          {formatAmount(receipt.venue_fee)} {quote}
        </span>
      </span>
    </div>
  );
}

function TradeRow({ trade }: { trade: TTrade }) {
  const { quote } = splitPair(trade.symbol);
  return (
    <Tr data-testid="trade-row" data-side={trade.side}>
      <Td className="num text-muted">{formatTradeTime(trade.timestamp || trade.created_at)}</Td>
      <Td>
        <PairCell symbol={trade.symbol} />
      </Td>
      <Td>
        <SideText side={trade.side} />
      </Td>
      <Td isNumeric>{formatAmount(trade.quantity)}</Td>
      <Td isNumeric>{formatQuote(trade.price)}</Td>
      <Td isNumeric>
        {formatQuote(trade.value)} <span className="text-faint">{quote}</span>
      </Td>
      <Td>
        <ReceiptCell receipt={trade.receipt} quote={quote} />
      </Td>
      <Td>
        <TxLink signature={trade.tx_hash} />
      </Td>
    </Tr>
  );
}

/**
 * All Trades (part 2 §2): the latest 100 fills, read every 5 s: time, pair, side, quantity, price,
 * value, the execution receipt and the transaction.
 */
export function TradesFeed() {
  const query = useTradesFeed();
  const trades = query.data ?? [];
  const message = tableMessageOf(query, trades.length, {
    failedTitle: 'Trades could not be loaded',
    failedFallback: 'Failed to fetch trades',
    empty: {
      icon: <History className="size-4" />,
      title: 'No trades yet',
      description: 'Every fill lands here with what it cost: slippage, fees and time to land.',
    },
  });
  if (message) return message;
  return (
    <Table aria-label="All trades">
      <THead>
        <tr>
          <Th>Time</Th>
          <Th>Pair</Th>
          <Th>Side</Th>
          <Th isNumeric>Quantity</Th>
          <Th isNumeric>Price</Th>
          <Th isNumeric>Value</Th>
          <Th>Receipt</Th>
          <Th>Tx</Th>
        </tr>
      </THead>
      <TBody>
        {query.isPending ? (
          <SkeletonRows columns={COLUMNS} />
        ) : (
          trades.map((trade) => <TradeRow key={trade.id} trade={trade} />)
        )}
      </TBody>
    </Table>
  );
}
