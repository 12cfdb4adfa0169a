import { cn } from '../../lib/cn';

const SIZES = { sm: 'size-3.5 border-[1.5px]', md: 'size-5 border-2', lg: 'size-8 border-2' } as const;

/** A small rotating ring. `label` is read by screen readers (and shown when `isLabelVisible`). */
export function Spinner({
  size = 'md',
  label = 'Loading',
  isLabelVisible = false,
  className,
}: {
  size?: keyof typeof SIZES;
  label?: string;
  isLabelVisible?: boolean;
  className?: string;
}) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-muted', className)}>
      <span
        aria-hidden="true"
        className={cn(
          'animate-spin rounded-full border-current border-t-transparent opacity-80',
          SIZES[size],
        )}
      />
      <span className={isLabelVisible ? 'text-sm' : 'sr-only'}>{label}</span>
    </span>
  );
}

/** A centred spinner with a caption, for whole-page or whole-panel loading. */
export function LoadingBlock({ label = 'Loading...', className }: { label?: string; className?: string }) {
  return (
    <div className={cn('flex min-h-40 items-center justify-center', className)}>
      <Spinner size="lg" label={label} isLabelVisible />
    </div>
  );
}
