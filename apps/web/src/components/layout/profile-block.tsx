import { getDisplayName, getDisplaySubtitle } from '@solterm/contracts';
import { useAuth } from '../../features/auth/use-auth';

/** Avatar initial, display name and subtitle of the signed-in user (spec part 1 §3). */
export function ProfileBlock() {
  const { user } = useAuth();
  const name = getDisplayName(user);
  const subtitle = getDisplaySubtitle(user);
  return (
    <div className="flex min-w-0 items-center gap-2.5">
      <span
        aria-hidden="true"
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-accent to-up/70 text-[13px] font-semibold text-white"
      >
        {name.charAt(0).toUpperCase()}
      </span>
      <div className="hidden min-w-0 leading-tight sm:block">
        <p className="max-w-40 truncate text-[13px] font-medium text-fg" data-testid="display-name">
          {name}
        </p>
        <p className="max-w-40 truncate text-[11px] text-muted">{subtitle}</p>
      </div>
    </div>
  );
}
