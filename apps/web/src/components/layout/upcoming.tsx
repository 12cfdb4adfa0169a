import type { ReactNode } from 'react';
import { Clock } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';

/**
 * A dashboard widget whose data arrives with later work (market data, on-chain trading): its real
 * header and frame, a muted preview of its shape, and a plain note saying what it will show.
 */
export function UpcomingPanel({
  title,
  icon: Icon,
  arrivesWith,
  description,
  preview,
  className,
}: {
  title: string;
  icon: LucideIcon;
  /** e.g. 'market data', 'on-chain trading'. */
  arrivesWith: string;
  description: ReactNode;
  preview?: ReactNode;
  className?: string;
}) {
  return (
    <Card className={cn('flex flex-col', className)}>
      <CardHeader
        title={title}
        icon={<Icon className="size-4" />}
        actions={
          <Badge tone="neutral" icon={<Clock className="size-3" />}>
            Arrives with {arrivesWith}
          </Badge>
        }
      />
      <div className="relative flex flex-1 flex-col">
        {preview && (
          <div aria-hidden="true" className="pointer-events-none flex-1 opacity-40 select-none">
            {preview}
          </div>
        )}
        <p className={cn('px-4 pb-4 text-xs leading-relaxed text-muted', !preview && 'pt-4')}>
          {description}
        </p>
      </div>
    </Card>
  );
}

/** A faint chart frame for previews: grid lines and a dashed trace. */
export function ChartPreview({ height = 'h-56' }: { height?: string }) {
  return (
    <div
      className={cn('relative m-4 mb-3 overflow-hidden rounded-md border border-dashed border-line', height)}
    >
      <svg viewBox="0 0 400 160" preserveAspectRatio="none" className="absolute inset-0 h-full w-full">
        {[32, 64, 96, 128].map((y) => (
          <line
            key={y}
            x1="0"
            x2="400"
            y1={y}
            y2={y}
            stroke="var(--color-line)"
            vectorEffect="non-scaling-stroke"
          />
        ))}
        <polyline
          points="0,120 40,110 80,116 120,92 160,98 200,70 240,78 280,52 320,60 360,40 400,46"
          fill="none"
          stroke="var(--color-faint)"
          strokeDasharray="4 4"
          strokeWidth="1.5"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
    </div>
  );
}

/** Real column headers over a few empty placeholder rows. */
export function TablePreview({ columns, rows = 3 }: { columns: readonly string[]; rows?: number }) {
  return (
    <div className="overflow-x-auto px-4 pt-2 pb-3">
      <table className="w-full text-left text-[11px]">
        <thead>
          <tr className="border-b border-line text-faint uppercase">
            {columns.map((column) => (
              <th key={column} className="py-2 pr-4 font-medium whitespace-nowrap">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, row) => (
            <tr key={row} className="border-b border-line/50">
              {columns.map((column) => (
                <td key={column} className="py-2.5 pr-4">
                  <span className="block h-2 w-12 rounded-full bg-raised" />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface Capability {
  icon: LucideIcon;
  title: string;
  text: string;
}

/**
 * An in-shell page whose working version arrives with later work: what the page will do, as a
 * grid of capabilities, and an optional preview of its layout.
 */
export function UpcomingPage({
  arrivesWith,
  summary,
  capabilities,
  preview,
}: {
  arrivesWith: string;
  summary: ReactNode;
  capabilities: readonly Capability[];
  preview?: ReactNode;
}) {
  return (
    <div className="space-y-4">
      <Card className="overflow-hidden">
        <div className="flex flex-col gap-3 border-b border-line bg-gradient-to-r from-accent-soft to-transparent px-4 py-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="max-w-3xl text-sm text-fg/90">{summary}</p>
          <Badge tone="accent" icon={<Clock className="size-3" />} className="self-start sm:self-auto">
            Arrives with {arrivesWith}
          </Badge>
        </div>
        <ul className="grid gap-px bg-line sm:grid-cols-2 xl:grid-cols-3">
          {capabilities.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3 bg-panel p-4">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-md border border-line bg-raised text-accent">
                <Icon className="size-4" />
              </span>
              <div>
                <p className="text-[13px] font-medium">{title}</p>
                <p className="mt-0.5 text-xs leading-relaxed text-muted">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </Card>
      {preview}
    </div>
  );
}
