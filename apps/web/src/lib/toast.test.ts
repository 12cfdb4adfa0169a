import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));
vi.mock('sonner', () => sonner);

import { notify } from './toast';

// Each test starts a minute after the previous one, past any earlier suppression window.
let testClock = Date.UTC(2030, 0, 1);

beforeEach(() => {
  vi.useFakeTimers();
  testClock += 60_000;
  vi.setSystemTime(testClock);
  for (const fn of Object.values(sonner.toast)) fn.mockClear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('notify', () => {
  it('shows success for 3 s, error for 5 s, info and warning for 4 s', () => {
    notify.success('Saved');
    notify.error('Failed');
    notify.info('Heads up');
    notify.warning('Careful');

    expect(sonner.toast.success).toHaveBeenCalledWith('Saved', expect.objectContaining({ duration: 3000 }));
    expect(sonner.toast.error).toHaveBeenCalledWith('Failed', expect.objectContaining({ duration: 5000 }));
    expect(sonner.toast.info).toHaveBeenCalledWith('Heads up', expect.objectContaining({ duration: 4000 }));
    expect(sonner.toast.warning).toHaveBeenCalledWith('Careful', expect.objectContaining({ duration: 4000 }));
  });

  it('suppresses an identical toast within 100 ms', () => {
    notify.error('Network error');
    vi.advanceTimersByTime(99);
    notify.error('Network error');
    expect(sonner.toast.error).toHaveBeenCalledTimes(1);
  });

  it('shows an identical toast again after 100 ms', () => {
    notify.error('Network error');
    vi.advanceTimersByTime(100);
    notify.error('Network error');
    expect(sonner.toast.error).toHaveBeenCalledTimes(2);
  });

  it('does not suppress different texts or kinds', () => {
    notify.info('Switched to Solana');
    notify.info('Switched to Bitcoin');
    notify.success('Switched to Solana');
    expect(sonner.toast.info).toHaveBeenCalledTimes(2);
    expect(sonner.toast.success).toHaveBeenCalledTimes(1);
  });

  it('passes a description through', () => {
    notify.success('Order filled', { description: 'tx 5xYz' });
    expect(sonner.toast.success).toHaveBeenCalledWith('Order filled', {
      duration: 3000,
      description: 'tx 5xYz',
    });
  });
});
