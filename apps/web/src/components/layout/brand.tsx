import { Link } from 'react-router';
import { cn } from '../../lib/cn';

/** The solterm mark: two offset bars, green over violet. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-7', className)}>
      <rect width="32" height="32" rx="7" fill="#151821" />
      <path d="M8 21.5h11.5l4.5-4.5H12.5z" fill="var(--color-accent)" />
      <path d="M8 10.5h11.5l4.5 4.5H12.5z" fill="var(--color-up)" />
    </svg>
  );
}

/** Mark plus wordmark, linking home (or wherever `to` says). */
export function Brand({ to = '/', className }: { to?: string; className?: string }) {
  return (
    <Link
      to={to}
      className={cn('inline-flex items-center gap-2 font-semibold tracking-tight text-fg', className)}
    >
      <BrandMark />
      <span className="text-[15px]">
        sol<span className="text-accent">term</span>
      </span>
    </Link>
  );
}
