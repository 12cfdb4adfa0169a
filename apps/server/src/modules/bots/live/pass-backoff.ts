/** A run whose pass failed or is waiting on a swap in flight is looked at again after this long… */
export const RETRY_AFTER_MS = 250;
/** …doubled for each further pass that ends so, up to this. */
export const MAX_RETRY_AFTER_MS = 5_000;

/**
 * The runner's backoff for runs whose passes end without advancing them. Each such pass rebuilds the
 * run from its first candle (a user's code sees its whole history again), so a swap whose outcome
 * stays unknown through an RPC outage (until its blockhash expires, a minute or more) costs a dozen
 * rebuilds, not hundreds.
 */
export function createPassBackoff() {
  const stalls = new Map<string, { count: number; retryAt: number }>();
  return {
    /** Records a pass of `runId` that left it due at `nowMs`: when to look at it again. */
    stalled(runId: string, nowMs: number): number {
      const count = (stalls.get(runId)?.count ?? 0) + 1;
      const wait = Math.min(RETRY_AFTER_MS * 2 ** Math.min(count - 1, 16), MAX_RETRY_AFTER_MS);
      stalls.set(runId, { count, retryAt: nowMs + wait });
      return nowMs + wait;
    },
    /** When a stalled run is next looked at (0: it is not stalled). */
    retryAt(runId: string): number {
      return stalls.get(runId)?.retryAt ?? 0;
    },
    /** The run advanced, ended or was stopped: its next stall waits RETRY_AFTER_MS again. */
    clear(runId: string): void {
      stalls.delete(runId);
    },
    /** Forgets every run but `running` (runs another process ended are never cleared here). */
    keepOnly(running: ReadonlySet<string>): void {
      for (const runId of stalls.keys()) if (!running.has(runId)) stalls.delete(runId);
    },
  };
}
