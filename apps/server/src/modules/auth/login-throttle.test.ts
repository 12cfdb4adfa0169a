import { describe, expect, it } from 'vitest';
import { decideLoginAttempt, type LoginThrottlePolicy, type LoginThrottleState } from './login-throttle';

const policy: LoginThrottlePolicy = { maxFailures: 3, windowMs: 900_000, backoffMaxMs: 100_000 };
const t0 = new Date('2025-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

/** Runs failed attempts at the given times, returning each decision. */
function run(times: number[]) {
  let state: LoginThrottleState | undefined;
  return times.map((time) => {
    const decision = decideLoginAttempt(state, at(time), policy);
    if (decision.admitted) state = decision.next;
    return decision.admitted ? 'admitted' : decision.retryAfterMs;
  });
}

describe('decideLoginAttempt', () => {
  it('admits up to the limit, then refuses with the time left', () => {
    expect(run([0, 1, 2, 3, 10_002])).toEqual(['admitted', 'admitted', 'admitted', 29_999, 20_000]);
  });

  it('doubles the delay after each further failure, up to the maximum', () => {
    // After the 3rd failure: 30 s; 4th (at 30 s): 60 s; 5th (at 90 s): 100 s (capped); 6th: 100 s.
    const decisions = run([0, 0, 0, 30_000, 30_001, 90_000, 90_001, 190_000, 190_001]);

    expect(decisions).toEqual([
      'admitted',
      'admitted',
      'admitted',
      'admitted',
      59_999,
      'admitted',
      99_999,
      'admitted',
      99_999,
    ]);
  });

  it('does not count refused attempts, so hammering does not lengthen the delay', () => {
    expect(run([0, 0, 0, 1, 2, 3, 29_999, 30_000])).toEqual([
      'admitted',
      'admitted',
      'admitted',
      29_999,
      29_998,
      29_997,
      1,
      'admitted',
    ]);
  });

  it('forgets failures once the window has passed since the last one', () => {
    expect(run([0, 1, 900_001, 900_002, 900_003])).toEqual([
      'admitted',
      'admitted',
      'admitted',
      'admitted',
      'admitted',
    ]);
  });
});
