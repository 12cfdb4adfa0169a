import { useEffect, useState } from 'react';
import { Copy, Globe, ListTree, Pencil, Play, Square, Trash2, Wallet } from 'lucide-react';
import { BOT_MESSAGES, isDelegationApprovalError, type TBot } from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/toast';
import { AlertMeButton } from '../../alerts';
import { useNetwork } from '../../network';
import { failureMessage, quoteOf, toneOf } from '../bot-figures';
import { hasCompleted, timeRemaining } from '../bot-live-model';
import { useDeleteBot, usePublishBot, useStartBot, useStopBot } from '../use-bots';
import { BotDetailDrawer } from './bot-detail-drawer';
import { DelegationModal } from './delegation-modal';
import { WithdrawModal } from './withdraw-modal';
import { formatAmountWithUnit, formatCount, formatPercent, formatSignedAmount } from '../../../lib/format';

type RunMode = 'test' | 'mainnet';

/** Now, re-read every 60 s: the countdown ticks by the minute (part 2 §4). */
function useMinuteClock(enabled: boolean): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, [enabled]);
  return now;
}

/**
 * A running bot's current task, time remaining, start time and progress; once its run has had its
 * time the label says Completed (part 2 §2).
 */
function ExecutionBox({ bot }: { bot: TBot }) {
  const now = useMinuteClock(bot.is_running);
  const started = bot.started_at ? new Date(bot.started_at) : null;
  const completed = hasCompleted(bot, now);
  return (
    <div
      className="mx-4 mb-3 grid gap-2 rounded-md border border-line bg-raised/50 p-3"
      data-testid="bot-execution"
    >
      <p className="truncate text-xs text-fg" title={bot.current_task ?? undefined}>
        {bot.current_task ?? (completed ? 'Its run is over: start it again for another' : 'Starting…')}
      </p>
      <dl className="grid grid-cols-2 gap-2 text-xs">
        <div>
          <dt className="text-[11px] text-faint">Time remaining</dt>
          <dd className={cn('num', completed ? 'text-up' : 'text-fg')} data-testid="bot-time-remaining">
            {bot.estimated_completion ? timeRemaining(bot.estimated_completion, now) : '—'}
          </dd>
        </div>
        <div>
          <dt className="text-[11px] text-faint">Started</dt>
          <dd className="num text-fg">
            {started
              ? `${started.toISOString().slice(0, 10)} ${started.toISOString().slice(11, 16)} UTC`
              : '—'}
          </dd>
        </div>
      </dl>
      <div
        className="h-1.5 overflow-hidden rounded-full bg-raised"
        role="progressbar"
        aria-label={`${bot.bot_name} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={bot.progress_percentage}
      >
        <div
          className="h-full bg-accent transition-[width]"
          style={{ width: `${bot.progress_percentage}%` }}
        />
      </div>
    </div>
  );
}

/** One bot (part 2 §2 Bots): strategy, trades, PnL, win rate, balance, network; Start/Stop, Withdraw, Delete. */
/** The bot's name, pair, interval and strategy, where it came from, its mode and its status. */
function BotCardHeader({ bot }: { bot: TBot }) {
  const { network } = useNetwork();
  const networkName = network.charAt(0).toUpperCase() + network.slice(1);
  return (
    <div className="flex items-start justify-between gap-2 border-b border-line px-4 py-3">
      <div className="min-w-0">
        <h3 className="truncate text-sm font-semibold text-fg" title={bot.bot_name}>
          {bot.bot_name}
        </h3>
        {/* The pair first: a narrow card cuts the strategy's name, never the pair. */}
        <p
          className="truncate text-xs text-muted"
          title={`${bot.config.symbol} · ${bot.config.interval} · ${bot.strategy_type}`}
        >
          <span className="font-medium text-fg">{bot.config.symbol}</span> · {bot.config.interval} ·{' '}
          {bot.strategy_type}
          {bot.is_public && ` · Public · ${bot.user_count} user${bot.user_count === 1 ? '' : 's'}`}
        </p>
        {bot.copied_from_label && (
          <p className="flex items-center gap-1 truncate text-[11px] text-faint" data-testid="bot-origin">
            <Copy className="size-3 shrink-0" aria-hidden="true" />
            <span className="truncate">Copied from {bot.copied_from_label}</span>
          </p>
        )}
      </div>
      <div className="flex shrink-0 gap-1.5">
        <Badge tone={bot.network_mode === 'mainnet' ? 'warn' : 'info'}>
          <span
            title={
              bot.network_mode === 'mainnet'
                ? `On chain, on ${network}`
                : 'Paper: virtual funds at live prices'
            }
          >
            {bot.network_mode === 'mainnet' ? networkName : 'Paper'}
          </span>
        </Badge>
        <Badge tone={bot.status === 'running' ? 'up' : bot.status === 'failed' ? 'down' : 'neutral'}>
          {bot.status}
        </Badge>
      </div>
    </div>
  );
}

/** Trades, PnL, win rate and balance. */
function BotCardFigures({ bot }: { bot: TBot }) {
  const quote = quoteOf(bot.config.symbol);
  const figures = [
    { label: 'Trades', value: formatCount(bot.total_trades) },
    { label: 'PnL', value: formatSignedAmount(bot.total_pnl, quote), tone: toneOf(bot.total_pnl) },
    { label: 'Win rate', value: formatPercent(bot.win_rate, 1) },
    { label: 'Balance', value: formatAmountWithUnit(bot.current_balance, quote) },
  ];
  return (
    <>
      {/* Four across when the card is wide enough for "1,000.00 USDC", else two by two. */}
      <dl className="grid grid-cols-2 gap-2 px-4 py-3 @sm:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.label} className="min-w-0">
            <dt className="text-[11px] text-faint">{figure.label}</dt>
            <dd className={cn('num truncate text-sm text-fg', figure.tone)}>{figure.value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** Start or Stop, and the mode a stopped bot starts in (paper or on chain). */
function RunControls({
  bot,
  mode,
  onModeChange,
  isPending,
  onToggle,
}: {
  bot: TBot;
  mode: RunMode;
  onModeChange: (mode: RunMode) => void;
  isPending: boolean;
  onToggle: () => void;
}) {
  const { network } = useNetwork();
  const networkName = network.charAt(0).toUpperCase() + network.slice(1);
  return (
    <>
      <Button
        size="xs"
        variant={bot.is_running ? 'secondary' : 'primary'}
        isLoading={isPending}
        onClick={onToggle}
        title={
          bot.is_running
            ? 'Stop the bot'
            : mode === 'mainnet'
              ? 'Start on chain with the SOL you approve'
              : 'Start in paper mode: a virtual 1,000 at live prices'
        }
      >
        {bot.is_running ? <Square className="size-3.5" /> : <Play className="size-3.5" />}
        {bot.is_running ? 'Stop' : 'Start'}
      </Button>
      {!bot.is_running && (
        <select
          aria-label={`${bot.bot_name} run mode`}
          className="h-7 rounded-md border border-line bg-raised px-1.5 text-xs text-fg"
          value={mode}
          onChange={(event) => onModeChange(event.target.value as RunMode)}
        >
          <option value="test">Paper</option>
          <option value="mainnet">On chain ({networkName})</option>
        </select>
      )}
    </>
  );
}

export function BotCard({
  bot,
  onEdit,
  isEditing = false,
}: {
  bot: TBot;
  /** Opens the form with this bot (stopped bots only). */
  onEdit?: (bot: TBot) => void;
  isEditing?: boolean;
}) {
  const remove = useDeleteBot();
  const start = useStartBot();
  const stop = useStopBot();
  const publish = usePublishBot();
  const [isConfirming, setIsConfirming] = useState(false);
  const [mode, setMode] = useState<RunMode>(bot.network_mode === 'mainnet' ? 'mainnet' : 'test');
  const [isDelegating, setIsDelegating] = useState(false);
  const [isWithdrawing, setIsWithdrawing] = useState(false);
  const [isShowingDetail, setIsShowingDetail] = useState(false);

  async function onToggle() {
    try {
      if (bot.is_running) await stop.mutateAsync(bot.bot_id);
      else await start.mutateAsync({ id: bot.bot_id, mode });
    } catch (caught) {
      const spec = bot.is_running ? BOT_MESSAGES.stopFailed : BOT_MESSAGES.startFailed;
      // An on-chain start without an approval opens the delegation modal (part 2 §4).
      if (!bot.is_running && isDelegationApprovalError(getErrorMessage(caught, spec))) setIsDelegating(true);
      else notify.error(failureMessage(spec, caught));
    }
  }

  async function onPublish() {
    try {
      await publish.mutateAsync({ id: bot.bot_id, isPublic: !bot.is_public });
      notify.success(
        bot.is_public
          ? `"${bot.bot_name}" is off the marketplace`
          : `"${bot.bot_name}" is on the marketplace`,
      );
    } catch (caught) {
      notify.error(getErrorMessage(caught, 'Failed to update the bot'));
    }
  }

  async function onDelete() {
    if (!isConfirming) {
      setIsConfirming(true);
      return;
    }
    try {
      await remove.mutateAsync(bot.bot_id);
      notify.success(`Bot "${bot.bot_name}" deleted`);
    } catch (caught) {
      notify.error(failureMessage(BOT_MESSAGES.deleteFailed, caught));
      setIsConfirming(false);
    }
  }

  return (
    <Card
      className={cn('@container flex min-w-0 flex-col', isEditing && 'ring-1 ring-accent')}
      data-testid="bot-card"
    >
      <BotCardHeader bot={bot} />
      <BotCardFigures bot={bot} />
      {(bot.is_running || hasCompleted(bot, new Date())) && <ExecutionBox bot={bot} />}
      <div className="mt-auto flex flex-wrap items-center gap-2 border-t border-line px-4 py-2.5">
        <RunControls
          bot={bot}
          mode={mode}
          onModeChange={setMode}
          isPending={start.isPending || stop.isPending}
          onToggle={() => void onToggle()}
        />
        <Button
          size="xs"
          variant="ghost"
          disabled={bot.is_running || !onEdit}
          onClick={() => onEdit?.(bot)}
          title={
            bot.is_running
              ? 'Stop the bot to edit it: a running bot keeps the code and settings it started with'
              : 'Edit its name, description, settings and code'
          }
        >
          <Pencil className="size-3.5" /> Edit
        </Button>
        <Button
          size="xs"
          variant="secondary"
          onClick={() => setIsShowingDetail(true)}
          title="Runs, fills, open position and unrealized PnL"
        >
          <ListTree className="size-3.5" /> Details
        </Button>
        <Button
          size="xs"
          variant="secondary"
          onClick={() => setIsWithdrawing(true)}
          title="Withdraw SOL from your bot key to your wallet"
        >
          <Wallet className="size-3.5" /> Withdraw
        </Button>
        <Button
          size="xs"
          variant="ghost"
          isLoading={publish.isPending}
          onClick={() => void onPublish()}
          title={
            bot.is_public ? 'Take it off the marketplace (copies keep working)' : 'List it on the marketplace'
          }
        >
          <Globe className="size-3.5" /> {bot.is_public ? 'Unpublish' : 'Publish'}
        </Button>
        <AlertMeButton target={{ kind: 'bot', botId: bot.bot_id, botName: bot.bot_name }} />
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
      <DelegationModal
        botName={bot.bot_name}
        isOpen={isDelegating}
        onClose={() => setIsDelegating(false)}
        // The server's bot_status_change announces the start (as for any start): a toast here too
        // showed it twice whenever the push came more than the 100 ms suppression window later.
        onApproved={async () => {
          await start.mutateAsync({ id: bot.bot_id, mode: 'mainnet' });
        }}
      />
      <WithdrawModal isOpen={isWithdrawing} onClose={() => setIsWithdrawing(false)} />
      <BotDetailDrawer
        botId={bot.bot_id}
        botName={bot.bot_name}
        isOpen={isShowingDetail}
        onClose={() => setIsShowingDetail(false)}
      />
    </Card>
  );
}
