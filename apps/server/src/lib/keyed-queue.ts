/**
 * Work queued per key: each piece of work for a key starts once the one before it for that key has
 * settled (a failure does not stop the queue), while other keys' work runs meanwhile. The key is
 * forgotten once its queue empties.
 *
 * @example
 * const perUser = createKeyedQueue();
 * await perUser.run(userId, () => send(userId)); // after any send of this user still running
 */
export function createKeyedQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const next = (tails.get(key) ?? Promise.resolve()).then(work, work);
      const settled = next.catch(() => undefined);
      tails.set(key, settled);
      void settled.then(() => {
        if (tails.get(key) === settled) tails.delete(key);
      });
      return next;
    },
    /** Keys with work queued or running (tests). */
    get size(): number {
      return tails.size;
    },
  };
}
