import { NavLink } from 'react-router';
import { LogOut, X } from 'lucide-react';
import { cn } from '../../lib/cn';
import { useAuth } from '../../features/auth/use-auth';
import { Brand } from './brand';
import { NAV_ITEMS } from './nav-items';

function SidebarContent({ onNavigate, onClose }: { onNavigate?: () => void; onClose?: () => void }) {
  const { logout } = useAuth();
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-14 shrink-0 items-center justify-between border-b border-line px-4">
        <Brand to="/dashboard" />
        {onClose && (
          <button
            type="button"
            onClick={onClose}
            aria-label="Close menu"
            className="rounded-md p-1.5 text-muted hover:bg-hover hover:text-fg"
          >
            <X className="size-5" />
          </button>
        )}
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-2 py-3">
        <p className="px-3 pb-2 text-[10px] font-semibold tracking-widest text-faint uppercase">Terminal</p>
        <ul className="space-y-0.5">
          {NAV_ITEMS.map(({ to, label, icon: Icon }) => (
            <li key={to}>
              <NavLink
                to={to}
                onClick={onNavigate}
                className={({ isActive }) =>
                  cn(
                    'group relative flex h-9 items-center gap-3 rounded-md px-3 text-[13px] font-medium transition-colors',
                    isActive ? 'bg-accent-soft text-fg' : 'text-muted hover:bg-hover hover:text-fg',
                  )
                }
              >
                {({ isActive }) => (
                  <>
                    {isActive && (
                      <span
                        aria-hidden="true"
                        className="absolute inset-y-2 left-0 w-0.5 rounded-full bg-accent"
                      />
                    )}
                    <Icon
                      className={cn(
                        'size-4 shrink-0',
                        isActive ? 'text-accent' : 'text-faint group-hover:text-muted',
                      )}
                    />
                    {label}
                  </>
                )}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="border-t border-line p-2">
        <button
          type="button"
          onClick={() => void logout()}
          className="flex h-9 w-full items-center gap-3 rounded-md px-3 text-[13px] font-medium text-muted transition-colors hover:bg-down-soft hover:text-down"
        >
          <LogOut className="size-4" />
          Logout
        </button>
      </div>
    </div>
  );
}

/**
 * The app's navigation: a fixed column on large screens; below `lg` a drawer over a dimmed overlay,
 * opened from the top bar's menu button.
 */
export function Sidebar({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  return (
    <>
      <aside className="hidden w-56 shrink-0 border-r border-line bg-panel lg:block">
        <div className="sticky top-0 h-dvh">
          <SidebarContent />
        </div>
      </aside>
      {isOpen && (
        <div className="fixed inset-0 z-50 lg:hidden" role="dialog" aria-modal="true" aria-label="Menu">
          <div
            data-testid="sidebar-overlay"
            className="absolute inset-0 animate-fade-in bg-black/60 backdrop-blur-[2px]"
            onClick={onClose}
          />
          <aside className="absolute inset-y-0 left-0 w-64 max-w-[85vw] animate-slide-in border-r border-line bg-panel shadow-2xl">
            <SidebarContent onNavigate={onClose} onClose={onClose} />
          </aside>
        </div>
      )}
    </>
  );
}
