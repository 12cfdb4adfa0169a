/** A run whose pass failed or is waiting on a swap in flight is looked at again after this long… */
export const RETRY_AFTER_MS = 250;
/** …doubled for each further pass that ends so, up to this. */
export const MAX_RETRY_AFTER_MS = 5_000;

/**
 * The runner's backoff for runs whose passes end without advancing them and drop their state (a swap
 * in flight, a failed pass): the next pass rebuilds the run from its first candle (a user's code sees
 * its whole history again), so a swap whose outcome stays unknown through an RPC outage (until its
 * blockhash expires, a minute or more) costs a dozen rebuilds, not hundreds.
 */
export function createPassBackoff() {
  const stalls = new Map<string, { count: number; retryAt: number; checkpoint: number | null }>();
  return {
    /**
     * Records a pass of `runId` (at checkpoint `checkpoint`) that ended at `nowMs` leaving it due: when
     * to look at it again. A run whose checkpoint moved since its last stall (another process advanced
     * it) starts again from RETRY_AFTER_MS.
     */
    stalled(runId: string, nowMs: number, checkpoint: number | null): number {
      const last = stalls.get(runId);
      const count = last !== undefined && last.checkpoint === checkpoint ? last.count + 1 : 1;
      const wait = Math.min(RETRY_AFTER_MS * 2 ** Math.min(count - 1, 16), MAX_RETRY_AFTER_MS);
      stalls.set(runId, { count, retryAt: nowMs + wait, checkpoint });
      return nowMs + wait;
    },
    /**
     * When a stalled run is next looked at, if it is still to wait at `nowMs` (undefined: look now). A
     * retry time further ahead than the longest wait means the clock stepped back: not waited for.
     */
    waitingUntil(runId: string, nowMs: number): number | undefined {
      const retryAt = stalls.get(runId)?.retryAt;
      return retryAt !== undefined && retryAt > nowMs && retryAt - nowMs <= MAX_RETRY_AFTER_MS
        ? retryAt
        : undefined;
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
