import {
  BOT_MESSAGES,
  type TBot,
  type ZBotStatusChangeSchema,
  type ZBotTimingUpdateSchema,
} from '@solterm/contracts';
import type { z } from 'zod';

export type BotStatusChange = z.infer<typeof ZBotStatusChangeSchema>;
export type BotTimingUpdate = z.infer<typeof ZBotTimingUpdateSchema>;

/**
 * A bot_status_change applied to the list (part 2 §4): is_running only when running; otherwise the
 * current task, estimated completion and start time are cleared.
 */
export function applyStatusChange(bots: readonly TBot[], change: BotStatusChange): TBot[] {
  return bots.map((bot) => {
    if (bot.bot_id !== change.bot_id) return bot;
    const running = change.status === 'running';
    return {
      ...bot,
      status: change.status,
      is_running: running,
      ...(running ? {} : { current_task: null, estimated_completion: null, started_at: null }),
    };
  });
}

/** A bot_timing_update applied to the list: the running bot's task, timing and totals. */
export function applyTimingUpdate(bots: readonly TBot[], update: BotTimingUpdate): TBot[] {
  return bots.map((bot) =>
    bot.bot_id === update.bot_id
      ? {
          ...bot,
          current_task: update.current_task,
          estimated_completion: update.estimated_completion,
          started_at: update.started_at,
          total_trades: update.total_trades,
          total_pnl: Number(update.total_pnl),
          progress_percentage: update.progress_percentage,
        }
      : bot,
  );
}

/** Whether the bot's run has had its planned time (its card's time remaining says Completed). */
export function hasCompleted(bot: Pick<TBot, 'estimated_completion'>, now: Date): boolean {
  return bot.estimated_completion !== null && new Date(bot.estimated_completion).getTime() <= now.getTime();
}

/** "5h 12m" left until `estimatedCompletion`, or "Completed" once it has passed (part 2 §2). */
export function timeRemaining(estimatedCompletion: string, now: Date): string {
  const ms = new Date(estimatedCompletion).getTime() - now.getTime();
  if (!(ms > 0)) return BOT_MESSAGES.completed;
  const minutes = Math.ceil(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return `${days}d ${hours}h`;
  return hours > 0 ? `${hours}h ${rest}m` : `${rest}m`;
}
