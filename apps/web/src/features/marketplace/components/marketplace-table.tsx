import type { TMarketplaceBot } from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';
import { quoteOf, toneOf } from '../../bots';
import { formatCount, formatSignedAmount } from '../../../lib/format';

const RISK_TONE = { Low: 'up', Medium: 'warn', High: 'down' } as const;

/** Public bots: name, creator, strategy, profit, risk, users, View (part 2 §2 Market). */
export function MarketplaceTable({
  bots,
  selectedId,
  onView,
}: {
  bots: readonly TMarketplaceBot[];
  selectedId: string | null;
  onView: (id: string) => void;
}) {
  // With the detail panel open (it names the strategy) the table gives the strategy column up.
  const strategyColumn = selectedId ? 'hidden 2xl:table-cell' : 'hidden md:table-cell';
  return (
    <Table aria-label="Marketplace bots">
      <THead>
        <Tr>
          <Th>Name</Th>
          <Th className="hidden sm:table-cell">Creator</Th>
          <Th className={strategyColumn}>Strategy</Th>
          <Th align="right">Profit</Th>
          <Th>Risk</Th>
          <Th align="right" className="hidden sm:table-cell">
            Users
          </Th>
          <Th align="right">
            <span className="sr-only">View</span>
          </Th>
        </Tr>
      </THead>
      <TBody>
        {bots.map((bot) => (
          <Tr
            key={bot.bot_id}
            className={cn(bot.bot_id === selectedId && 'bg-raised/60')}
            data-testid="marketplace-row"
          >
            <Td className="max-w-[7.5rem] sm:max-w-[10rem]">
              <p className="truncate font-medium text-fg">{bot.bot_name}</p>
              <p className="truncate text-[11px] text-faint sm:hidden">{bot.creator_name}</p>
            </Td>
            <Td className="hidden max-w-[9rem] truncate text-muted sm:table-cell">{bot.creator_name}</Td>
            <Td className={cn('text-muted', strategyColumn)}>{bot.strategy_type}</Td>
            <Td align="right" className={cn('num whitespace-nowrap', toneOf(bot.total_pnl) || 'text-muted')}>
              {/* The unit under the figure on a phone, so View stays in the row. */}
              {formatSignedAmount(bot.total_pnl, '').trim()}
              <span className="block text-[10px] text-faint sm:ml-1 sm:inline sm:text-[length:inherit]">
                {quoteOf(bot.config.symbol)}
              </span>
            </Td>
            <Td>
              <Badge tone={RISK_TONE[bot.risk]}>{bot.risk}</Badge>
            </Td>
            <Td align="right" className="num hidden sm:table-cell">
              {formatCount(bot.user_count)}
            </Td>
            <Td align="right">
              <Button
                size="xs"
                variant="secondary"
                onClick={() => onView(bot.bot_id)}
                aria-label={`View ${bot.bot_name}`}
              >
                View
              </Button>
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
