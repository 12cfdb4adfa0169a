import { Check, Copy, X } from 'lucide-react';
import { Link } from 'react-router';
import { BOT_MESSAGES, type TMarketplaceBotDetail } from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { Sparkline } from '../../../components/ui/sparkline';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/toast';
import { useAuth } from '../../auth';
import { failureMessage, quoteOf, toneOf } from '../../bots';
import { useCopyBot, useMarketplaceBot } from '../use-marketplace';
import {
  formatAmountWithUnit,
  formatCount,
  formatFixed,
  formatPercent,
  formatSignedAmount,
} from '../../../lib/format';

const SOURCE_LABEL = { paper: 'Paper fills', onchain: 'On-chain fills', none: 'Not run yet' } as const;

/** Trades, PnL, return, win rate, drawdown, Sharpe, balance and how long it has run live. */
function BotMetrics({ bot }: { bot: TMarketplaceBotDetail }) {
  return (
    <dl className="grid grid-cols-3 gap-x-3 gap-y-2 text-xs">
      {[
        ['Trades', formatCount(bot.total_trades)],
        ['PnL', formatSignedAmount(bot.total_pnl, quoteOf(bot.config.symbol)), toneOf(bot.total_pnl)],
        ['Return', formatPercent(bot.track_record.return_pct), toneOf(bot.track_record.return_pct)],
        ['Win rate', formatPercent(bot.win_rate, 1)],
        ['Max drawdown', formatPercent(bot.max_drawdown)],
        ['Sharpe', formatFixed(bot.sharpe_ratio, 2)],
        ['Balance', formatAmountWithUnit(bot.current_balance, quoteOf(bot.config.symbol))],
        ['Live since', bot.track_record.live_since ? bot.track_record.live_since.slice(0, 10) : '—'],
      ].map(([label, value, tone]) => (
        <div key={label} className="min-w-0">
          <dt className="text-[11px] text-faint">{label}</dt>
          <dd className={cn('num truncate text-fg', tone)}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** How closely the live fills follow the backtest, once the bot has run. */
function DriftScore({ drift }: { drift: TMarketplaceBotDetail['drift'] }) {
  return drift ? (
    <div className="rounded-md border border-line p-3 text-xs" aria-label="Drift score">
      <p className="mb-1 flex items-center gap-2 text-[11px] text-faint">
        Backtest vs live
        <span className="num text-fg">match {Math.round(drift.trade_match_ratio * 100)}%</span>
      </p>
      <p className="text-muted">{drift.explanation}</p>
    </div>
  ) : (
    <p className="text-xs text-faint">No live record yet: the drift score appears once the bot has run.</p>
  );
}

/** The ten latest fills, each with its transaction signature to copy. */
function RecentFills({ fills }: { fills: TMarketplaceBotDetail['track_record']['fills'] }) {
  if (fills.length === 0) return null;
  return (
    <ul className="grid max-h-40 gap-1 overflow-y-auto text-xs" aria-label="Recent fills">
      {fills.slice(0, 10).map((fill) => (
        <li key={`${fill.time}-${fill.side}`} className="flex items-center gap-2">
          <span className={cn('w-8', fill.side === 'Buy' ? 'text-up' : 'text-down')}>{fill.side}</span>
          <span className="num text-fg">{fill.base_amount}</span>
          <span className="num text-muted">for {fill.quote_amount}</span>
          <span className="num ml-auto text-faint">{fill.time.slice(11, 16)}</span>
          {fill.transaction_hash && (
            <CopyButton value={fill.transaction_hash} label="Copy the transaction signature" />
          )}
        </li>
      ))}
    </ul>
  );
}

/** The bot's name, creator and configuration, with Close. */
function PanelHeader({ bot, onClose }: { bot: TMarketplaceBotDetail | undefined; onClose: () => void }) {
  return (
    <div className="flex items-start justify-between gap-2 border-b border-line px-4 py-3">
      <div className="min-w-0">
        <h2 className="truncate text-sm font-semibold text-fg">{bot?.bot_name ?? 'Loading…'}</h2>
        {bot && (
          <p className="truncate text-xs text-muted">
            by {bot.creator_name} · {bot.strategy_type} · {bot.config.symbol} · {bot.config.interval}
          </p>
        )}
      </div>
      <button
        type="button"
        onClick={onClose}
        className="rounded p-1 text-muted hover:bg-raised hover:text-fg"
        aria-label="Close details"
      >
        <X className="size-4" />
      </button>
    </div>
  );
}

/** A public bot's metrics, execution progress, verified record and drift, with Copy Bot. */
export function BotDetailPanel({ botId, onClose }: { botId: string; onClose: () => void }) {
  const detail = useMarketplaceBot(botId);
  const copy = useCopyBot();
  const { user } = useAuth();
  const hasWallet = Boolean(user?.solana_wallet_address);
  const bot = detail.data;

  async function onCopy() {
    try {
      const copied = await copy.mutateAsync(botId);
      notify.success(`Copied "${copied.bot_name}": it is among your bots, ready to start`);
    } catch (caught) {
      notify.error(failureMessage(BOT_MESSAGES.copyFailed, caught));
    }
  }

  return (
    <Card className="min-w-0" role="region" aria-label="Bot details">
      <PanelHeader bot={bot} onClose={onClose} />
      {detail.isPending ? (
        <div className="grid gap-3 p-4" aria-busy="true">
          <Skeleton className="h-16" />
          <Skeleton className="h-24" />
        </div>
      ) : detail.isError || !bot ? (
        <div className="p-4">
          <Notice tone="error">{getErrorMessage(detail.error, BOT_MESSAGES.marketplaceLoadFailed)}</Notice>
        </div>
      ) : (
        <div className="grid gap-3 p-4">
          {bot.description && <p className="text-xs text-muted">{bot.description}</p>}
          <div className="flex flex-wrap items-center gap-1.5">
            <Badge tone={bot.record_source === 'onchain' ? 'warn' : 'info'}>
              {SOURCE_LABEL[bot.record_source]}
            </Badge>
            <Badge tone={bot.status === 'running' ? 'up' : 'neutral'}>{bot.status}</Badge>
            <span className="text-[11px] text-faint">
              {bot.user_count} user{bot.user_count === 1 ? '' : 's'}
            </span>
          </div>
          <BotMetrics bot={bot} />
          {bot.is_running && (
            <div
              className="grid gap-1.5 rounded-md border border-line bg-raised/40 p-3 text-xs"
              data-testid="marketplace-execution"
            >
              <p className="truncate text-fg">{bot.current_task ?? 'Starting…'}</p>
              <div
                className="h-1.5 overflow-hidden rounded-full bg-raised"
                role="progressbar"
                aria-label="Execution progress"
                aria-valuenow={bot.progress_percentage}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <div className="h-full bg-accent" style={{ width: `${bot.progress_percentage}%` }} />
              </div>
            </div>
          )}
          {bot.track_record.equity.length > 1 && (
            <div className="rounded-md border border-line p-2">
              <p className="mb-1 text-[11px] text-faint">Equity from its fills</p>
              <Sparkline
                values={bot.track_record.equity.map((point) => point.value)}
                width={320}
                height={64}
                className="w-full"
              />
            </div>
          )}
          <DriftScore drift={bot.drift} />
          <RecentFills fills={bot.track_record.fills} />
          {bot.is_yours && <Notice tone="info">This is your bot: it is already among your bots.</Notice>}
          {!hasWallet && !bot.is_yours && (
            <Notice tone="warn" title="Wallet Required">
              Connect a wallet to copy bots.{' '}
              <Link to="/wallet-connect" className="underline">
                Connect
              </Link>
            </Notice>
          )}
          {bot.is_copied && (
            <Notice tone="info">
              You have a copy of this bot among your bots: a snapshot of it, which its author&apos;s later
              edits do not change.
            </Notice>
          )}
          <Button
            onClick={() => void onCopy()}
            disabled={!hasWallet || bot.is_yours || bot.is_copied}
            isLoading={copy.isPending}
          >
            {bot.is_copied ? <Check className="size-3.5" /> : <Copy className="size-3.5" />}
            {bot.is_copied ? 'Copied' : 'Copy Bot'}
          </Button>
        </div>
      )}
    </Card>
  );
}
