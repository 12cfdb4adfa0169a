import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { isJwtExpired } from '../../../lib/jwt';
import { getStoredToken } from '../../../lib/storage-keys';
import { FullPageStatus } from '../../../components/layout/full-page-status';
import { useAuth } from '../use-auth';

/** How often a protected page re-checks that the stored token is present and unexpired. */
export const SESSION_CHECK_INTERVAL_MS = 60_000;

function isStoredSessionUsable(): boolean {
  const token = getStoredToken();
  return token !== null && !isJwtExpired(token);
}

/**
 * Guard of the protected routes: 'Validating authentication...' while the session loads, /auth when
 * there is none; while a page is open the token is re-checked every minute and when the tab
 * regains focus, and a missing or expired token logs out to /auth (spec part 1 §4).
 */
export function ProtectedRoute({ children }: { children?: ReactNode }) {
  const { status, expireSession } = useAuth();
  const location = useLocation();
  const isAuthenticated = status === 'authenticated';

  useEffect(() => {
    if (!isAuthenticated) return;
    function check() {
      if (!isStoredSessionUsable()) expireSession();
    }
    const timer = window.setInterval(check, SESSION_CHECK_INTERVAL_MS);
    window.addEventListener('focus', check);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', check);
    };
  }, [isAuthenticated, expireSession]);

  if (status === 'loading') return <FullPageStatus label="Validating authentication..." />;
  if (status === 'anonymous') return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  return children ?? <Outlet />;
}
