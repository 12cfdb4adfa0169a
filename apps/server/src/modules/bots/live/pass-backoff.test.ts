import { describe, expect, it } from 'vitest';
import { createPassBackoff, MAX_RETRY_AFTER_MS, RETRY_AFTER_MS } from './pass-backoff';

describe('pass backoff', () => {
  it('waits 250 ms after a first stall, twice as long after each next one, never over 5 s', () => {
    const backoff = createPassBackoff();
    const waits = Array.from(
      { length: 40 },
      (_, index) => backoff.stalled('run', index * 10_000) - index * 10_000,
    );
    expect(waits.slice(0, 7)).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(Math.max(...waits)).toBe(MAX_RETRY_AFTER_MS);
    expect(backoff.retryAt('run')).toBe(39 * 10_000 + MAX_RETRY_AFTER_MS);
  });

  it('starts again from 250 ms once the run advanced, and keeps each run to its own count', () => {
    const backoff = createPassBackoff();
    backoff.stalled('a', 0);
    backoff.stalled('a', 0);
    expect(backoff.stalled('b', 0)).toBe(RETRY_AFTER_MS);
    backoff.clear('a');
    expect(backoff.retryAt('a')).toBe(0);
    expect(backoff.stalled('a', 1_000)).toBe(1_000 + RETRY_AFTER_MS);
  });

  it('forgets the runs that are no longer running', () => {
    const backoff = createPassBackoff();
    backoff.stalled('ended elsewhere', 0);
    backoff.stalled('still running', 0);
    backoff.keepOnly(new Set(['still running']));
    expect(backoff.retryAt('ended elsewhere')).toBe(0);
    expect(backoff.retryAt('still running')).toBe(RETRY_AFTER_MS);
  });
});
