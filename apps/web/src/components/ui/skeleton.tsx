import { cn } from '../../lib/cn';

/** A pulsing placeholder bar for content that is loading; size it with classes (`h-6 w-24`). */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn('block animate-pulse rounded bg-raised', className)} />;
}
