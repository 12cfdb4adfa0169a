import { describe, expect, it } from 'vitest';
import { createSessionCache, type CachedSession } from './session-cache';

const now = new Date('2026-11-28T12:00:00.000Z');
const row = (id: string, userId: string, expiresAt = new Date(now.getTime() + 60_000)) =>
  ({
    session: { id, userId, expiresAt, revokedAt: null },
    user: { id: userId, solanaWalletAddress: null },
  }) as unknown as CachedSession;

describe('session cache', () => {
  it('answers a stored session of its user until it expires', () => {
    const cache = createSessionCache();
    cache.store(cache.readStarts(), row('s1', 'u1'));

    expect(cache.get('s1', 'u1', now)?.session.id).toBe('s1');
    expect(cache.get('s1', 'u2', now)).toBeUndefined();
    expect(cache.get('s1', 'u1', new Date(now.getTime() + 60_000))).toBeUndefined();
  });

  it('does not store what a read saw before a revocation that came while it ran', () => {
    const cache = createSessionCache();
    const readStartedAt = cache.readStarts();
    cache.forget({ id: 's1' });
    cache.store(readStartedAt, row('s1', 'u1'));

    expect(cache.get('s1', 'u1', now)).toBeUndefined();
  });

  it("forgets every session of a user, and only that user's", () => {
    const cache = createSessionCache();
    cache.store(cache.readStarts(), row('s1', 'u1'));
    cache.store(cache.readStarts(), row('s2', 'u1'));
    cache.store(cache.readStarts(), row('s3', 'u2'));

    cache.forget({ userId: 'u1' });

    expect(cache.get('s1', 'u1', now)).toBeUndefined();
    expect(cache.get('s2', 'u1', now)).toBeUndefined();
    expect(cache.get('s3', 'u2', now)?.session.id).toBe('s3');
  });

  it('hands out copies: a caller changing its rows does not change the next answer', () => {
    const cache = createSessionCache();
    cache.store(cache.readStarts(), row('s1', 'u1'));
    cache.get('s1', 'u1', now)!.user.solanaWalletAddress = 'changed';

    expect(cache.get('s1', 'u1', now)!.user.solanaWalletAddress).toBeNull();
  });
});
