import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A hairline rule, optionally with a label in the middle ("or continue with"). */
export function Divider({ label, className }: { label?: ReactNode; className?: string }) {
  if (!label) return <hr className={cn('border-line', className)} />;
  return (
    <div className={cn('flex items-center gap-3 text-[11px] tracking-wide text-faint uppercase', className)}>
      <span className="h-px flex-1 bg-line" />
      {label}
      <span className="h-px flex-1 bg-line" />
    </div>
  );
}
