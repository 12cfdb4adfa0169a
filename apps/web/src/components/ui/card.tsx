import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A panel: the basic surface of the terminal (slightly lighter than the canvas, hairline border). */
export function Card({ className, children, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={cn('rounded-panel border border-line bg-panel', className)} {...rest}>
      {children}
    </div>
  );
}

/** Header row of a card: title (+ optional description) on the left, actions on the right. */
export function CardHeader({
  title,
  description,
  actions,
  icon,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-wrap items-start justify-between gap-x-3 gap-y-2 border-b border-line px-4 py-3',
        className,
      )}
    >
      <div className="flex min-w-0 items-start gap-2.5">
        {icon && <span className="mt-0.5 text-muted">{icon}</span>}
        <div className="min-w-0">
          <h2 className="truncate text-[13px] font-semibold tracking-wide text-fg">{title}</h2>
          {description && <p className="mt-0.5 text-xs text-muted">{description}</p>}
        </div>
      </div>
      {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
    </div>
  );
}

export function CardBody({ className, children, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={cn('p-4', className)} {...rest}>
      {children}
    </div>
  );
}

export function CardFooter({ className, children, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={cn('flex items-center gap-2 border-t border-line px-4 py-3', className)} {...rest}>
      {children}
    </div>
  );
}

/** A labelled figure for stat grids: label, big tabular value, optional delta/footnote. */
export function Stat({
  label,
  value,
  footnote,
  tone = 'neutral',
  className,
}: {
  label: ReactNode;
  value: ReactNode;
  footnote?: ReactNode;
  tone?: 'neutral' | 'up' | 'down';
  className?: string;
}) {
  return (
    <div className={cn('min-w-0', className)}>
      <div className="text-xs text-muted">{label}</div>
      <div
        className={cn(
          'num mt-1 truncate text-xl font-semibold tracking-tight',
          tone === 'up' && 'text-up',
          tone === 'down' && 'text-down',
        )}
      >
        {value}
      </div>
      {footnote && <div className="mt-0.5 text-xs text-faint">{footnote}</div>}
    </div>
  );
}
