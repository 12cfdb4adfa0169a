import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TRANSPORT_MESSAGES, type TUser } from '@solterm/contracts';
import { AUTH_EXPIRED_EVENT } from '../../lib/api-client';
import { isJwtExpired } from '../../lib/jwt';
import { clearStoredSession, getStoredToken, STORAGE_KEYS } from '../../lib/storage-keys';
import { notify } from '../../lib/toast';
import { authApi } from './api/auth-api';
import { USER_LOGGED_IN_EVENT, USER_LOGGED_OUT_EVENT } from './auth-events';
import { AuthContext, type AuthContextValue, type AuthStatus } from './use-auth';

/** How the provider changes page; the app passes the data router's navigate (which resolves once there). */
export type NavigateFn = (to: string) => void | Promise<void>;

const defaultNavigate: NavigateFn = (to) => window.location.assign(to);

/** Wallet type to remember for a user's wallet: the account's own, else the installed Solana extension. */
function detectWalletType(user: TUser): string {
  if (user.wallet_type) return user.wallet_type;
  const w = window as unknown as {
    solflare?: { isSolflare?: boolean };
    phantom?: { solana?: { isPhantom?: boolean } };
  };
  if (w.solflare?.isSolflare) return 'solflare';
  if (w.phantom?.solana?.isPhantom) return 'phantom';
  return 'solana';
}

function hasUsableStoredToken(): boolean {
  const token = getStoredToken();
  return token !== null && !isJwtExpired(token);
}

/**
 * Session state of spec part 1 §4. On mount a stored token is checked: a locally expired one is
 * removed without a call; otherwise GET /user/validate-token, then GET /user/profile, then the
 * `userLoggedIn` event. A failed validation clears the token.
 */
export function AuthProvider({
  children,
  navigate = defaultNavigate,
}: {
  children: ReactNode;
  navigate?: NavigateFn;
}) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<TUser | null>(null);
  const [status, setStatus] = useState<AuthStatus>(() => (hasUsableStoredToken() ? 'loading' : 'anonymous'));
  // Bumped by every sign-in and sign-out, so a slow start-up validation never overwrites a newer session.
  const sessionVersion = useRef(0);

  useEffect(() => {
    const token = getStoredToken();
    if (!token) return;
    if (isJwtExpired(token)) {
      window.localStorage.removeItem(STORAGE_KEYS.authToken);
      return;
    }
    let isCancelled = false;
    const version = sessionVersion.current;
    const isStale = () => isCancelled || sessionVersion.current !== version;
    (async () => {
      try {
        await authApi.validateToken();
        const profile = await authApi.getProfile();
        if (isStale()) return;
        setUser(profile);
        setStatus('authenticated');
        window.dispatchEvent(new CustomEvent(USER_LOGGED_IN_EVENT));
      } catch {
        if (isStale()) return;
        window.localStorage.removeItem(STORAGE_KEYS.authToken);
        setUser(null);
        setStatus('anonymous');
      }
    })();
    return () => {
      isCancelled = true;
    };
  }, []);

  const endSession = useCallback(() => {
    sessionVersion.current += 1;
    clearStoredSession();
    setUser(null);
    setStatus('anonymous');
    queryClient.clear();
    window.dispatchEvent(new CustomEvent(USER_LOGGED_OUT_EVENT));
  }, [queryClient]);

  // A 401 about the token (api client) or a sign-out in another tab ends this session too.
  useEffect(() => {
    function onAuthExpired() {
      endSession();
      notify.error(TRANSPORT_MESSAGES.authExpired);
      void navigate('/auth');
    }
    function onStorage(event: StorageEvent) {
      if (event.key === STORAGE_KEYS.authToken && event.newValue === null) endSession();
    }
    window.addEventListener(AUTH_EXPIRED_EVENT, onAuthExpired);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener(AUTH_EXPIRED_EVENT, onAuthExpired);
      window.removeEventListener('storage', onStorage);
    };
  }, [endSession, navigate]);

  const completeLogin = useCallback<AuthContextValue['completeLogin']>(({ token, user: signedIn }) => {
    sessionVersion.current += 1;
    window.localStorage.setItem(STORAGE_KEYS.authToken, token);
    if (signedIn.solana_wallet_address) {
      window.localStorage.setItem(STORAGE_KEYS.walletAddress, signedIn.solana_wallet_address);
      window.localStorage.setItem(STORAGE_KEYS.walletType, detectWalletType(signedIn));
    }
    setUser(signedIn);
    setStatus('authenticated');
    window.dispatchEvent(new CustomEvent(USER_LOGGED_IN_EVENT));
  }, []);

  const logout = useCallback(async () => {
    // The request reads the token synchronously, so the stored session can be cleared straight after.
    const request = authApi.logout().catch(() => undefined);
    clearStoredSession();
    // Leave the protected page first: ending the session before would make its guard redirect to
    // /auth. The router commits its new location in a transition; ending the session in a transition
    // too makes React render both in the same pass.
    await navigate('/');
    startTransition(endSession);
    await request;
  }, [endSession, navigate]);

  const expireSession = useCallback(() => {
    endSession();
    void navigate('/auth');
  }, [endSession, navigate]);

  const refreshProfile = useCallback(async () => {
    const profile = await authApi.getProfile();
    setUser(profile);
    return profile;
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({ user, status, completeLogin, logout, refreshProfile, expireSession }),
    [user, status, completeLogin, logout, refreshProfile, expireSession],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
