/** The first delay once an email reaches its failure limit; each further failure doubles it. */
export const LOGIN_BACKOFF_BASE_MS = 30_000;

/** How many failed sign-ins an email may have before it is made to wait, and for how long at most. */
export interface LoginThrottlePolicy {
  maxFailures: number;
  /** Failures older than this (since the last one) are forgotten. */
  windowMs: number;
  /** The delay never grows beyond this, so no one can lock an owner out for longer. */
  backoffMaxMs: number;
}

/** What is kept per email (shared by every server process). */
export interface LoginThrottleState {
  failures: number;
  lastFailedAt: Date;
  lockedUntil: Date | null;
}

export type LoginAttemptDecision =
  { admitted: true; next: LoginThrottleState } | { admitted: false; retryAfterMs: number };

/**
 * Decides whether a sign-in attempt for an email may check the password. An admitted attempt is
 * counted as a failure up front (a success forgets the email), so attempts racing each other are
 * counted too; the one that reaches the limit sets the delay before its password is even checked.
 * While the delay runs every attempt is refused without being counted, so the delay stays bounded.
 */
export function decideLoginAttempt(
  state: LoginThrottleState | undefined,
  now: Date,
  policy: LoginThrottlePolicy,
): LoginAttemptDecision {
  if (state?.lockedUntil && state.lockedUntil.getTime() > now.getTime()) {
    return { admitted: false, retryAfterMs: state.lockedUntil.getTime() - now.getTime() };
  }
  const isStale = !state || now.getTime() - state.lastFailedAt.getTime() >= policy.windowMs;
  const failures = isStale ? 1 : state.failures + 1;
  const delayMs =
    failures >= policy.maxFailures
      ? Math.min(
          policy.backoffMaxMs,
          LOGIN_BACKOFF_BASE_MS * 2 ** Math.min(failures - policy.maxFailures, 30),
        )
      : 0;
  return {
    admitted: true,
    next: {
      failures,
      lastFailedAt: now,
      lockedUntil: delayMs > 0 ? new Date(now.getTime() + delayMs) : null,
    },
  };
}
