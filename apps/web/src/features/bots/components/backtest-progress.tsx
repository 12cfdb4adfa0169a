import { useState } from 'react';
import { ZBacktestProgressSchema, type TBacktestProgress } from '@solterm/contracts';
import { useRealtimeEvent } from '../../../lib/ws-client';

/**
 * How far the running backtest has computed, from the server's `backtest_progress` pushes (long runs
 * only: a short one answers before the first report). Renders nothing until a report arrives.
 */
export function BacktestProgress({ botId, isRunning }: { botId: string | null; isRunning: boolean }) {
  const [progress, setProgress] = useState<TBacktestProgress | null>(null);
  useRealtimeEvent('backtest_progress', (message) => {
    const parsed = ZBacktestProgressSchema.safeParse((message as { data?: unknown }).data);
    if (parsed.success && parsed.data.bot_id === botId) setProgress(parsed.data);
  });
  if (!isRunning || !progress) return null;
  return (
    <div className="grid gap-1" aria-live="polite">
      <div className="flex justify-between text-xs text-muted">
        <span>Computing candles</span>
        <span className="num">
          {progress.candles_done.toLocaleString('en-US')} / {progress.candles_total.toLocaleString('en-US')}
        </span>
      </div>
      <div
        className="h-1.5 overflow-hidden rounded-full bg-raised"
        role="progressbar"
        aria-label="Backtest progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.progress_percentage}
      >
        <div
          className="h-full bg-accent transition-[width]"
          style={{ width: `${progress.progress_percentage}%` }}
        />
      </div>
    </div>
  );
}
