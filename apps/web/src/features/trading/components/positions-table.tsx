import { useState } from 'react';
import { Layers } from 'lucide-react';
import type { TPosition } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';
import { usePositions } from '../hooks/use-spot-data';
import {
  formatAmount,
  formatQuote,
  formatSignedPercent,
  formatSignedQuote,
  getPnlTone,
} from '../../../lib/format';
import type { OrderFormWallet } from './order-form';
import { TpSlDialog } from './tpsl-dialog';
import { PairCell, SkeletonRows, tableMessageOf, tokenLabel, STICKY_ACTIONS } from './spot-cells';

const COLUMNS = 8;

const TONE_CLASSES = { up: 'text-up', down: 'text-down', flat: 'text-muted' } as const;

function PositionRow({
  position,
  onClose,
  onProtect,
}: {
  position: TPosition;
  onClose: (position: TPosition) => void;
  /** Opens the TP / SL dialog; absent without a wallet to sign with. */
  onProtect?: (position: TPosition) => void;
}) {
  const quote = tokenLabel(position.quote_symbol);
  const unrealizedTone = getPnlTone(position.unrealized_pnl);
  return (
    <Tr data-testid="position-row" data-symbol={position.symbol}>
      <Td>
        <PairCell symbol={position.symbol} />
      </Td>
      <Td isNumeric>
        {formatAmount(position.size)} <span className="text-faint">{tokenLabel(position.base_symbol)}</span>
      </Td>
      <Td isNumeric>{formatQuote(position.average_entry_price)}</Td>
      <Td isNumeric>{formatQuote(position.mark_price)}</Td>
      <Td isNumeric>
        {formatQuote(position.value)} <span className="text-faint">{quote}</span>
      </Td>
      <Td isNumeric className={TONE_CLASSES[unrealizedTone]} data-testid="unrealized-pnl">
        {formatSignedQuote(position.unrealized_pnl)}
        <span className="ml-1 text-[11px] opacity-80">({formatSignedPercent(position.pnl_percent)})</span>
      </Td>
      <Td isNumeric className={cn(TONE_CLASSES[getPnlTone(position.realized_pnl)])}>
        {formatSignedQuote(position.realized_pnl)}
      </Td>
      <Td className="text-right whitespace-nowrap">
        {onProtect && (
          <Button
            variant="outline"
            size="xs"
            disabled={!(position.size > 0)}
            onClick={() => onProtect(position)}
            aria-label={`Take profit / stop loss on ${position.symbol} position`}
            className="mr-1"
          >
            TP / SL
          </Button>
        )}
        <Button
          variant="outline"
          size="xs"
          disabled={!(position.size > 0)}
          onClick={() => onClose(position)}
          aria-label={`Close ${position.symbol} position`}
        >
          Close
        </Button>
      </Td>
    </Tr>
  );
}

/**
 * Your Positions (part 2 §2): pair, size, average entry, mark, value, unrealized PnL with its
 * percentage (green gain, red loss), realized PnL, and Close, which hands a market sell of the
 * whole size to the order form. With a wallet, "TP / SL" opens a take-profit / stop-loss pair for it.
 */
export function PositionsTable({
  onClosePosition,
  wallet,
}: {
  onClosePosition: (position: TPosition) => void;
  wallet?: OrderFormWallet;
}) {
  const query = usePositions();
  const [protecting, setProtecting] = useState<TPosition | null>(null);
  const positions = query.data ?? [];
  const message = tableMessageOf(query, positions.length, {
    failedTitle: 'Positions could not be loaded',
    failedFallback: 'Failed to load trading data',
    empty: {
      icon: <Layers className="size-4" />,
      title: 'No positions',
      description: 'Tokens you buy show here with their average entry and profit, marked to market.',
    },
  });
  if (message) return message;
  return (
    <>
      <Table aria-label="Your positions" className={STICKY_ACTIONS}>
        <THead>
          <tr>
            <Th>Pair</Th>
            <Th isNumeric>Size</Th>
            <Th isNumeric>Avg entry</Th>
            <Th isNumeric>Mark</Th>
            <Th isNumeric>Value</Th>
            <Th isNumeric>Unrealized PnL</Th>
            <Th isNumeric>Realized PnL</Th>
            <Th className="text-right">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </THead>
        <TBody>
          {query.isPending ? (
            <SkeletonRows columns={COLUMNS} />
          ) : (
            positions.map((position) => (
              <PositionRow
                key={position.symbol}
                position={position}
                onClose={onClosePosition}
                onProtect={wallet ? setProtecting : undefined}
              />
            ))
          )}
        </TBody>
      </Table>
      {protecting && wallet && (
        <TpSlDialog position={protecting} wallet={wallet} onClose={() => setProtecting(null)} />
      )}
    </>
  );
}
