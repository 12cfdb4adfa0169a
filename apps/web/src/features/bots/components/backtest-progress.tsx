import { useEffect, useRef, useState } from 'react';
import type { TBacktestProgress } from '@solterm/contracts';
import { useRealtimeEvent, useRealtimeUserId } from '../../../lib/ws-client';
import { botsApi } from '../bots-api';
import { formatCount } from '../../../lib/format';

/** What the page says of a backtest on its way: queued with its place, then computing. */
export function backtestStateLabel(progress: TBacktestProgress | null): string {
  if (!progress) return 'Starting…';
  if (progress.state === 'queued') {
    return `Queued (${formatCount(progress.queue_ahead)} ahead)`;
  }
  return 'Computing candles';
}

/**
 * The latest `backtest_progress` push of `botId`'s backtest (cleared by remounting). While `running`,
 * a push sent before this page could hear it (its socket still signing in as the request went, say)
 * is read back from the server's status once the socket is signed in, unless a push has said more.
 */
export function useBacktestProgress(botId: string | null, running: boolean): TBacktestProgress | null {
  const [progress, setProgress] = useState<TBacktestProgress | null>(null);
  const pushed = useRef(false);
  useRealtimeEvent('backtest_progress', ({ data }) => {
    if (data.bot_id !== botId) return;
    pushed.current = true;
    setProgress(data);
  });
  const listening = useRealtimeUserId() !== null;
  useEffect(() => {
    if (!listening || !running) return;
    const controller = new AbortController();
    botsApi.backtestStatus(controller.signal).then(
      (backtests) => {
        const mine = backtests.find((backtest) => backtest.bot_id === botId);
        if (mine && !pushed.current) setProgress(mine);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [listening, running, botId]);
  return progress;
}

/**
 * Where the running backtest is, from the moment it is sent: "Starting…", then the server's
 * `backtest_progress` pushes: "Queued (n ahead)" while others' backtests go first, then its candles
 * done. Renders nothing when no backtest runs.
 */
export function BacktestProgress({ botId, isRunning }: { botId: string | null; isRunning: boolean }) {
  const progress = useBacktestProgress(botId, isRunning);
  if (!isRunning) return null;
  const isComputing = progress?.state === 'running';
  const percentage = isComputing ? progress.progress_percentage : 0;
  return (
    <div className="grid gap-1" aria-live="polite" data-testid="backtest-progress">
      <div className="flex justify-between gap-2 text-xs text-muted">
        <span className={progress?.state === 'queued' ? 'text-warn' : undefined}>
          {backtestStateLabel(progress)}
        </span>
        {isComputing && progress.candles_total > 0 && (
          <span className="num">
            {formatCount(progress.candles_done)} / {formatCount(progress.candles_total)}
          </span>
        )}
      </div>
      <div
        className="h-1.5 overflow-hidden rounded-full bg-raised"
        role="progressbar"
        aria-label="Backtest progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percentage}
      >
        <div className="h-full bg-accent transition-[width]" style={{ width: `${percentage}%` }} />
      </div>
    </div>
  );
}
