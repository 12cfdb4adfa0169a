import type { ReactNode } from 'react';
import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react';
import { cn } from '../../lib/cn';

export type NoticeTone = 'info' | 'success' | 'warn' | 'error';

const TONES: Record<NoticeTone, { classes: string; icon: ReactNode }> = {
  info: { classes: 'border-info/25 bg-info-soft text-info', icon: <Info className="size-4" /> },
  success: { classes: 'border-up/25 bg-up-soft text-up', icon: <CheckCircle2 className="size-4" /> },
  warn: { classes: 'border-warn/25 bg-warn-soft text-warn', icon: <AlertTriangle className="size-4" /> },
  error: { classes: 'border-down/25 bg-down-soft text-down', icon: <XCircle className="size-4" /> },
};

/** An inline message inside a page or panel (not a toast): an icon, a title and body text. */
export function Notice({
  tone = 'info',
  title,
  children,
  action,
  className,
  'aria-label': ariaLabel,
}: {
  tone?: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
  'aria-label'?: string;
}) {
  const { classes, icon } = TONES[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      aria-label={ariaLabel}
      className={cn('flex items-start gap-2.5 rounded-md border px-3 py-2.5 text-sm', classes, className)}
    >
      <span className="mt-0.5 shrink-0">{icon}</span>
      <div className="min-w-0 flex-1">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className={cn('text-fg/80', title ? 'mt-0.5 text-xs' : 'text-sm')}>{children}</div>}
      </div>
      {action && <div className="shrink-0">{action}</div>}
    </div>
  );
}
