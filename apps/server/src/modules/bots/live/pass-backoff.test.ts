import { describe, expect, it } from 'vitest';
import { createPassBackoff, MAX_RETRY_AFTER_MS, RETRY_AFTER_MS } from './pass-backoff';

describe('pass backoff', () => {
  it('waits 250 ms after a first stall, twice as long after each next one, never over 5 s', () => {
    const backoff = createPassBackoff();
    const waits = Array.from(
      { length: 40 },
      (_, index) => backoff.stalled('run', index * 10_000, 60) - index * 10_000,
    );
    expect(waits.slice(0, 7)).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(Math.max(...waits)).toBe(MAX_RETRY_AFTER_MS);
    expect(backoff.waitingUntil('run', 39 * 10_000)).toBe(39 * 10_000 + MAX_RETRY_AFTER_MS);
    expect(backoff.waitingUntil('run', 39 * 10_000 + MAX_RETRY_AFTER_MS)).toBeUndefined();
  });

  it('starts again from 250 ms once the run advanced, here or in another process, each run on its own count', () => {
    const backoff = createPassBackoff();
    backoff.stalled('a', 0, 60);
    backoff.stalled('a', 0, 60);
    expect(backoff.stalled('b', 0, 60)).toBe(RETRY_AFTER_MS);
    // Another process moved a's checkpoint meanwhile
    expect(backoff.stalled('a', 1_000, 120)).toBe(1_000 + RETRY_AFTER_MS);
    backoff.clear('a');
    expect(backoff.waitingUntil('a', 1_000)).toBeUndefined();
    expect(backoff.stalled('a', 2_000, 120)).toBe(2_000 + RETRY_AFTER_MS);
  });

  it('does not hold a run when the clock stepped back', () => {
    const backoff = createPassBackoff();
    backoff.stalled('run', 1_000_000, null);
    expect(backoff.waitingUntil('run', 1_000_100)).toBe(1_000_000 + RETRY_AFTER_MS);
    expect(backoff.waitingUntil('run', 1_000_000 - 60_000)).toBeUndefined();
  });

  it('forgets the runs that are no longer running', () => {
    const backoff = createPassBackoff();
    backoff.stalled('ended elsewhere', 0, null);
    backoff.stalled('still running', 0, null);
    backoff.keepOnly(new Set(['still running']));
    expect(backoff.waitingUntil('ended elsewhere', 0)).toBeUndefined();
    expect(backoff.waitingUntil('still running', 0)).toBe(RETRY_AFTER_MS);
  });
});
