import { useState, type ReactNode } from 'react';
import { Outlet, useNavigation } from 'react-router';
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
 * Frame of the protected pages: sidebar, top bar and the page (the route outlet, or `children`).
 * The token search (market data issue) plugs into the top bar's `search` slot.
 */
export function AppShell({ children }: { children?: ReactNode }) {
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  return (
    <div className="flex min-h-dvh bg-canvas">
      <NavigationProgress />
      <Sidebar isOpen={isMenuOpen} onClose={() => setIsMenuOpen(false)} />
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar onOpenMenu={() => setIsMenuOpen(true)} />
        <main className="mx-auto w-full max-w-[1600px] flex-1 px-3 py-4 sm:px-5 sm:py-6">
          {children ?? <Outlet />}
        </main>
      </div>
    </div>
  );
}
