import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export type BadgeTone = 'neutral' | 'up' | 'down' | 'accent' | 'warn' | 'info';

const TONES: Record<BadgeTone, string> = {
  neutral: 'bg-raised text-muted border-line',
  up: 'bg-up-soft text-up border-up/25',
  down: 'bg-down-soft text-down border-down/25',
  accent: 'bg-accent-soft text-accent border-accent/25',
  warn: 'bg-warn-soft text-warn border-warn/25',
  info: 'bg-info-soft text-info border-info/25',
};

/** A compact status label (order status, network, risk, plan). */
export function Badge({
  tone = 'neutral',
  children,
  icon,
  className,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn(
        'inline-flex h-5 items-center gap-1 rounded border px-1.5 text-[11px] font-semibold tracking-wide whitespace-nowrap',
        TONES[tone],
        className,
      )}
    >
      {icon}
      {children}
    </span>
  );
}
