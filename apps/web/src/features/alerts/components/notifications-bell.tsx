import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { useNotifications } from '../use-alerts';

/** The top bar's bell: the unread count, a link to /alerts; shows pushed notifications as toasts. */
export function NotificationsBell() {
  const { data } = useNotifications({ live: true });
  const unread = data?.unread_count ?? 0;
  const label = unread > 0 ? `Notifications: ${unread} unread` : 'Notifications';
  return (
    <Link
      to="/alerts"
      aria-label={label}
      title={label}
      data-testid="notifications-bell"
      className="relative rounded-md p-2 text-muted transition-colors hover:bg-hover hover:text-fg"
    >
      <Bell className="size-4" />
      {unread > 0 && (
        <span
          data-testid="unread-count"
          className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-accent px-1 text-[10px] font-semibold text-accent-fg"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
