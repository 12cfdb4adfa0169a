import { LOCAL_STORAGE_KEYS } from '@solterm/contracts';

/** localStorage keys of the spec (part 1 §3): auth_token, wallet_address, wallet_type. */
export const STORAGE_KEYS = LOCAL_STORAGE_KEYS;

/** Reads the stored session token, or null (also when storage is unavailable). */
export function getStoredToken(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.authToken);
  } catch {
    return null;
  }
}

/** Removes the token and the wallet items: what logout and an expired session both do. */
export function clearStoredSession(): void {
  try {
    for (const key of Object.values(STORAGE_KEYS)) window.localStorage.removeItem(key);
  } catch {
    // Storage can be unavailable (private mode, disabled cookies); there is then nothing to clear.
  }
}
