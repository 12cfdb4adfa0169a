import type { ReactNode } from 'react';
import { LogOut, Menu } from 'lucide-react';
import { NotificationsBell } from '../../features/alerts';
import { useAuth } from '../../features/auth/use-auth';
import { NetworkBadge } from '../../features/network/network-badge';
import { BrandMark } from './brand';
import { ProfileBlock } from './profile-block';

/**
 * The bar above every in-shell page: menu button (small screens), the token search slot, the
 * network indicator, the profile block and logout.
 */
export function TopBar({ onOpenMenu, search }: { onOpenMenu: () => void; search?: ReactNode }) {
  const { logout } = useAuth();
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-3 border-b border-line bg-canvas/85 px-3 backdrop-blur-md sm:px-5">
      <button
        type="button"
        onClick={onOpenMenu}
        aria-label="Open menu"
        className="-ml-1 rounded-md p-1.5 text-muted hover:bg-hover hover:text-fg lg:hidden"
      >
        <Menu className="size-5" />
      </button>
      <BrandMark className="size-6 lg:hidden" />
      <div className="min-w-0 flex-1">{search}</div>
      <NetworkBadge />
      <NotificationsBell />
      <div className="mx-1 hidden h-6 w-px bg-line sm:block" />
      <ProfileBlock />
      <button
        type="button"
        onClick={() => void logout()}
        aria-label="Logout"
        title="Logout"
        className="rounded-md p-2 text-muted transition-colors hover:bg-down-soft hover:text-down"
      >
        <LogOut className="size-4" />
      </button>
    </header>
  );
}
