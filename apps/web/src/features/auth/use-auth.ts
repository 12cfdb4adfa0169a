import { createContext, useContext } from 'react';
import type { TAuthResult, TUser } from '@solterm/contracts';

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

export interface AuthContextValue {
  user: TUser | null;
  status: AuthStatus;
  /**
   * Finishes any sign-in (email login, signup, wallet sign-in): stores the token, syncs
   * wallet_address / wallet_type when the user has a wallet, sets the user, fires `userLoggedIn`.
   */
  completeLogin: (result: Pick<TAuthResult, 'token' | 'user'>) => void;
  /** POSTs /auth/logout (best effort), clears the token and wallet items, goes to /. */
  logout: () => Promise<void>;
  /** Reloads GET /user/profile into `user` (e.g. after linking a wallet). */
  refreshProfile: () => Promise<TUser | null>;
  /** Ends a session found missing or expired on a protected page: clears it and goes to /auth. */
  expireSession: () => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

/** The signed-in user and the session actions; use inside {@link AuthProvider}. */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
