/**
 * Reads the `exp` claim (seconds since epoch) of a JWT without verifying it: the client only uses
 * it to drop a token that has certainly expired; the server still decides validity.
 * Returns null when the token is not a JWT or has no numeric `exp`.
 */
export function getJwtExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims: unknown = JSON.parse(atob(base64));
    if (typeof claims !== 'object' || claims === null) return null;
    const exp = (claims as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
  } catch {
    return null;
  }
}

/** True when the token carries an `exp` claim at or before `nowMs`. */
export function isJwtExpired(token: string, nowMs: number = Date.now()): boolean {
  const exp = getJwtExpiry(token);
  return exp !== null && exp * 1000 <= nowMs;
}
