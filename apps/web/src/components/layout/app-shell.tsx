import { useEffect, useState, type ReactNode } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { USER_LOGGED_IN_EVENT } from '../../features/auth/auth-events';
import { useAuth } from '../../features/auth/use-auth';
import { marketKeys } from '../../features/market/api/market-api';
import { TokenSearch } from '../../features/trading/components/token-search';
import { useOrderUpdates } from '../../features/trading/hooks/use-spot-data';
import { useRealtimeConnection } from '../../lib/ws-client';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

/** A thin accent bar while the next page's code loads. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div
      className="fixed inset-x-0 top-0 z-[60] h-0.5 overflow-hidden"
      role="progressbar"
      aria-label="Loading page"
    >
      <div className="h-full w-1/3 animate-[fade-in_300ms_ease-out] bg-accent shadow-[0_0_8px_var(--color-accent)]" />
    </div>
  );
}

/**
 * The signed-in session's real-time side: keeps /ws open (authenticated as the user), applies the
 * server's order_update pushes to every view of orders and balances, and refetches
 * prices when a user logs in (spec part 1 §4: the userLoggedIn event makes the price refetch).
 */
function useSessionRealtime(): void {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  useRealtimeConnection(user?.id ?? null);
  useOrderUpdates();
  useEffect(() => {
    const onLoggedIn = () => {
      void queryClient.invalidateQueries({ queryKey: marketKeys.pairPriceAll });
    };
    window.addEventListener(USER_LOGGED_IN_EVENT, onLoggedIn);
    return () => window.removeEventListener(USER_LOGGED_IN_EVENT, onLoggedIn);
  }, [queryClient]);
}

/**
 * Frame of the protected pages: sidebar, top bar with the token search, and the page (the route
 * outlet, or `children`).
 */
export function AppShell({ children }: { children?: ReactNode }) {
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  useSessionRealtime();
  return (
    <div className="flex min-h-dvh bg-canvas">
      <NavigationProgress />
      <Sidebar isOpen={isMenuOpen} onClose={() => setIsMenuOpen(false)} />
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar onOpenMenu={() => setIsMenuOpen(true)} search={<TokenSearch />} />
        <main className="mx-auto w-full max-w-[1600px] flex-1 px-3 py-4 sm:px-5 sm:py-6">
          {children ?? <Outlet />}
        </main>
      </div>
    </div>
  );
}
