import type { sessions, users } from './auth.tables';

export interface CachedSession {
  session: typeof sessions.$inferSelect;
  user: typeof users.$inferSelect;
}

/** Sessions a process keeps at most; past it, the oldest read is dropped. */
const MAX_SESSIONS = 10_000;

/**
 * Live sessions with their users as last read, for a database only this process writes (embedded
 * PGlite: its data directory opens in one process, and every write to sessions and users goes
 * through the auth repository, which forgets them here). With PostgreSQL another process can
 * revoke a session at any moment, so there is no cache there.
 *
 * A read that began before a change must not store what it read: every change moves `generation`,
 * before its write and again once it committed, and a read stores only when none moved it meanwhile.
 */
export function createSessionCache() {
  const byId = new Map<string, CachedSession>();
  let generation = 0;
  return {
    /** The session `id` of `userId` if cached and still unexpired at `now`. */
    get(id: string, userId: string, now: Date): CachedSession | undefined {
      const hit = byId.get(id);
      if (!hit || hit.session.userId !== userId) return undefined;
      if (hit.session.expiresAt.getTime() <= now.getTime()) {
        byId.delete(id);
        return undefined;
      }
      // Copies: a caller that changed the rows it was handed cannot change the next one's.
      return { session: { ...hit.session }, user: { ...hit.user } };
    },
    /** A token to pass to `store` for what is read from now on. */
    readStarts: () => generation,
    store(readStartedAt: number, row: CachedSession): void {
      if (readStartedAt !== generation || row.session.revokedAt !== null) return;
      if (byId.size >= MAX_SESSIONS) byId.delete(byId.keys().next().value!);
      byId.set(row.session.id, { session: { ...row.session }, user: { ...row.user } });
    },
    /** Forgets the session `id`, or every session of `userId`. */
    forget(which: { id: string } | { userId: string }): void {
      generation += 1;
      if ('id' in which) {
        byId.delete(which.id);
        return;
      }
      for (const [id, cached] of byId) if (cached.session.userId === which.userId) byId.delete(id);
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;

const caches = new WeakMap<object, SessionCache>();

/** One cache per database handle: every repository over it (one per app in tests) shares it. */
export function sessionCacheOf(db: object): SessionCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = createSessionCache();
    caches.set(db, cache);
  }
  return cache;
}
