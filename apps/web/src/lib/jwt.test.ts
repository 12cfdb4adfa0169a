import { describe, expect, it } from 'vitest';
import { getJwtExpiry, isJwtExpired } from './jwt';

function makeJwt(claims: object): string {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

describe('jwt expiry', () => {
  it('reads exp', () => {
    expect(getJwtExpiry(makeJwt({ sub: 'u1', exp: 1_900_000_000 }))).toBe(1_900_000_000);
  });

  it('is expired at and after exp, not before', () => {
    const token = makeJwt({ exp: 1000 });
    expect(isJwtExpired(token, 999_999)).toBe(false);
    expect(isJwtExpired(token, 1_000_000)).toBe(true);
  });

  it('treats a token without exp or a non-JWT as not locally expired', () => {
    expect(isJwtExpired(makeJwt({ sub: 'u1' }))).toBe(false);
    expect(isJwtExpired('not-a-jwt')).toBe(false);
    expect(getJwtExpiry('a.%%%.c')).toBeNull();
  });
});
