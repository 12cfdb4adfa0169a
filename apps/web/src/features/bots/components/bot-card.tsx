import { useState } from 'react';
import { Play, Trash2, Wallet } from 'lucide-react';
import { BOT_MESSAGES, type TBot } from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/toast';
import { useDeleteBot } from '../use-bots';

const LIVE_NOTE = 'Running bots live (paper and on chain) arrives with the next release';

/** One bot (part 2 §2 Bots): strategy, trades, PnL, win rate, balance, network; Start/Stop, Withdraw, Delete. */
export function BotCard({ bot }: { bot: TBot }) {
  const remove = useDeleteBot();
  const [isConfirming, setIsConfirming] = useState(false);
  const figures = [
    { label: 'Trades', value: String(bot.total_trades) },
    {
      label: 'PnL',
      value: bot.total_pnl.toFixed(2),
      tone: bot.total_pnl > 0 ? 'text-up' : bot.total_pnl < 0 ? 'text-down' : '',
    },
    { label: 'Win rate', value: `${bot.win_rate.toFixed(1)}%` },
    { label: 'Balance', value: bot.current_balance.toFixed(2) },
  ];

  async function onDelete() {
    if (!isConfirming) {
      setIsConfirming(true);
      return;
    }
    try {
      await remove.mutateAsync(bot.bot_id);
      notify.success(`Bot "${bot.bot_name}" deleted`);
    } catch (caught) {
      notify.error(getErrorMessage(caught, BOT_MESSAGES.deleteFailed));
      setIsConfirming(false);
    }
  }

  return (
    <Card className="flex min-w-0 flex-col" data-testid="bot-card">
      <div className="flex items-start justify-between gap-2 border-b border-line px-4 py-3">
        <div className="min-w-0">
          <h3 className="truncate text-sm font-semibold text-fg">{bot.bot_name}</h3>
          <p className="truncate text-xs text-muted">
            {bot.strategy_type} · {bot.config.symbol} · {bot.config.interval}
          </p>
        </div>
        <div className="flex shrink-0 gap-1.5">
          <Badge tone={bot.network_mode === 'mainnet' ? 'warn' : 'info'}>
            {bot.network_mode === 'mainnet' ? 'Mainnet' : 'Paper'}
          </Badge>
          <Badge tone={bot.status === 'running' ? 'up' : bot.status === 'failed' ? 'down' : 'neutral'}>
            {bot.status}
          </Badge>
        </div>
      </div>
      <dl className="grid grid-cols-4 gap-2 px-4 py-3">
        {figures.map((figure) => (
          <div key={figure.label} className="min-w-0">
            <dt className="text-[11px] text-faint">{figure.label}</dt>
            <dd className={cn('num truncate text-sm text-fg', figure.tone)}>{figure.value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-auto flex flex-wrap items-center gap-2 border-t border-line px-4 py-2.5">
        <Button size="xs" variant="secondary" disabled title={LIVE_NOTE}>
          <Play className="size-3.5" /> Start
        </Button>
        <Button size="xs" variant="secondary" disabled title={LIVE_NOTE}>
          <Wallet className="size-3.5" /> Withdraw
        </Button>
        <Button
          size="xs"
          variant={isConfirming ? 'danger' : 'ghost'}
          className="ml-auto"
          isLoading={remove.isPending}
          onClick={() => void onDelete()}
          onBlur={() => setIsConfirming(false)}
        >
          <Trash2 className="size-3.5" /> {isConfirming ? 'Confirm delete' : 'Delete'}
        </Button>
      </div>
    </Card>
  );
}
