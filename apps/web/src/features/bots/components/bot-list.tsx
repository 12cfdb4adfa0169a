import { Bot, RotateCw } from 'lucide-react';
import { BOT_MESSAGES, type TBot } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { getErrorMessage } from '../../../lib/api-client';
import { useBotRealtime, useBots } from '../use-bots';
import { BotCard } from './bot-card';

/** Your bots as cards, with loading, empty and failed states. */
export function BotList({
  onEdit,
  editingId = null,
}: {
  /** Opens the form with a stopped bot in it. */
  onEdit?: (bot: TBot) => void;
  editingId?: string | null;
}) {
  const bots = useBots();
  useBotRealtime();
  const list = bots.data ?? [];
  return (
    <Card>
      <CardHeader
        title="Your bots"
        icon={<Bot className="size-4" />}
        description={bots.data ? `${list.length} bot${list.length === 1 ? '' : 's'}` : undefined}
      />
      {bots.isError && list.length === 0 ? (
        <EmptyState
          title={BOT_MESSAGES.loadFailed}
          description={getErrorMessage(bots.error, BOT_MESSAGES.loadFailed)}
          action={
            <Button size="sm" variant="secondary" onClick={() => void bots.refetch()}>
              <RotateCw className="size-3.5" /> Retry
            </Button>
          }
        />
      ) : bots.isPending ? (
        <div
          className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,24rem),1fr))] gap-3 p-4"
          aria-busy="true"
        >
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} className="h-36" />
          ))}
        </div>
      ) : list.length === 0 ? (
        <EmptyState
          icon={<Bot className="size-4" />}
          title="No bots yet"
          description="Create one from a built-in strategy: test it on the last 30 days first, then save it and backtest any range."
        />
      ) : (
        <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,24rem),1fr))] gap-3 p-4">
          {list.map((bot) => (
            <BotCard key={bot.bot_id} bot={bot} onEdit={onEdit} isEditing={bot.bot_id === editingId} />
          ))}
        </div>
      )}
    </Card>
  );
}
