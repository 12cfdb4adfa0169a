import { describe, expect, it } from 'vitest';
import type { TBot } from '@solterm/contracts';
import { applyStatusChange, applyTimingUpdate, timeRemaining } from './bot-live-model';

const running = {
  bot_id: 'b1',
  status: 'running',
  is_running: true,
  current_task: 'Next 1M candle closes at 12:01 UTC',
  estimated_completion: '2026-01-16T12:00:00.000Z',
  started_at: '2026-01-15T12:00:00.000Z',
  total_trades: 2,
  total_pnl: 1.5,
  progress_percentage: 10,
} as TBot;
const other = { ...running, bot_id: 'b2' } as TBot;

describe('live bot updates', () => {
  it('a status change sets is_running only when running and clears the timing otherwise', () => {
    const [stopped, untouched] = applyStatusChange([running, other], {
      bot_id: 'b1',
      status: 'failed',
      message: 'x',
    });
    expect(stopped).toMatchObject({
      status: 'failed',
      is_running: false,
      current_task: null,
      estimated_completion: null,
      started_at: null,
      total_trades: 2,
    });
    expect(untouched).toBe(other);
    expect(applyStatusChange([stopped!], { bot_id: 'b1', status: 'running', message: 'x' })[0]).toMatchObject(
      {
        is_running: true,
      },
    );
  });

  it('a timing update carries the task, the totals and the progress', () => {
    const [updated] = applyTimingUpdate([running], {
      bot_id: 'b1',
      current_task: 'Next 1M candle closes at 12:05 UTC',
      estimated_completion: running.estimated_completion,
      total_trades: 3,
      total_pnl: '-0.25',
      progress_percentage: 11,
      started_at: running.started_at,
    });
    expect(updated).toMatchObject({ total_trades: 3, total_pnl: -0.25, progress_percentage: 11 });
  });

  it('counts down in minutes, hours and days, then says Completed', () => {
    const end = '2026-01-16T12:00:00.000Z';
    expect(timeRemaining(end, new Date('2026-01-16T11:59:30Z'))).toBe('1m');
    expect(timeRemaining(end, new Date('2026-01-16T09:30:00Z'))).toBe('2h 30m');
    expect(timeRemaining(end, new Date('2026-01-13T10:00:00Z'))).toBe('3d 2h');
    expect(timeRemaining(end, new Date(end))).toBe('Completed');
  });
});
