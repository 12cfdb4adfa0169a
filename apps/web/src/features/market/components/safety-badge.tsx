import { useState } from 'react';
import { ShieldAlert, ShieldCheck, ShieldQuestion } from 'lucide-react';
import type { TTokenSafety, TTokenSafetyLevel, TTokenSafetySeverity } from '@solterm/contracts';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { useTokenSafety } from '../hooks/use-token-safety';

const LEVEL_TONE: Record<TTokenSafetyLevel, BadgeTone> = { ok: 'up', caution: 'warn', danger: 'down' };
const LEVEL_LABEL: Record<TTokenSafetyLevel, string> = { ok: 'OK', caution: 'Caution', danger: 'Danger' };
const SEVERITY_CLASS: Record<TTokenSafetySeverity, string> = {
  info: 'text-muted',
  warning: 'text-warn',
  danger: 'text-down',
};

/**
 * A token's safety level as a badge; its flags show on hover and on tap (the badge is a button).
 * Presentational: the answer is given (see {@link SafetyBadge} for the one that fetches it).
 */
export function SafetyBadgeView({
  safety,
  isInteractive = true,
  className,
}: {
  safety: TTokenSafety;
  /** False inside another control (a coin card is a button): hover only, no tap toggle. */
  isInteractive?: boolean;
  className?: string;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const { level, flags } = safety;
  const Icon = level === 'ok' ? ShieldCheck : ShieldAlert;
  const summary = flags.length === 0 ? 'No risk flags' : flags.map((flag) => flag.message).join('\n');
  const badge = (
    <Badge tone={LEVEL_TONE[level]} icon={<Icon className="size-3" aria-hidden="true" />}>
      {LEVEL_LABEL[level]}
    </Badge>
  );
  return (
    <span
      className={cn('group relative inline-flex', className)}
      data-testid="safety-badge"
      data-level={level}
      onMouseLeave={() => setIsOpen(false)}
    >
      {isInteractive ? (
        <button
          type="button"
          className="rounded focus-visible:outline-2 focus-visible:outline-accent"
          aria-label={`Safety: ${LEVEL_LABEL[level]}. ${summary}`}
          aria-expanded={isOpen}
          onClick={(event) => {
            // Rows that open a pair on click must not also open it when the badge is tapped.
            event.stopPropagation();
            event.preventDefault();
            setIsOpen((open) => !open);
          }}
        >
          {badge}
        </button>
      ) : (
        <span aria-label={`Safety: ${LEVEL_LABEL[level]}. ${summary}`}>{badge}</span>
      )}
      <span
        role="tooltip"
        className={cn(
          'absolute top-full left-0 z-40 mt-1 hidden w-72 rounded border border-line bg-panel p-2 text-left text-[11px] leading-snug shadow-xl',
          'group-hover:block',
          isOpen && 'block',
        )}
        data-testid="safety-flags"
      >
        {flags.length === 0 ? (
          <span className="text-muted">No risk flags found on chain.</span>
        ) : (
          <ul className="space-y-1">
            {flags.map((flag) => (
              <li key={flag.code} className={SEVERITY_CLASS[flag.severity]}>
                <span className="font-semibold uppercase">{flag.severity}</span> · {flag.message}
              </li>
            ))}
          </ul>
        )}
        <span className="mt-1 block text-muted">Top 10 holders: {safety.top10_share}% (venue excluded)</span>
      </span>
    </span>
  );
}

/** The safety badge of a mint, fetched (cached a minute); a neutral placeholder while unknown. */
export function SafetyBadge({
  mint,
  isInteractive,
  className,
}: {
  mint: string | null;
  isInteractive?: boolean;
  className?: string;
}) {
  const safety = useTokenSafety(mint);
  if (!mint) return null;
  if (!safety.data) {
    return (
      <span className={cn('inline-flex', className)} data-testid="safety-badge" data-level="unknown">
        <Badge tone="neutral" icon={<ShieldQuestion className="size-3" aria-hidden="true" />}>
          {safety.isError ? 'N/A' : '…'}
        </Badge>
      </span>
    );
  }
  return <SafetyBadgeView safety={safety.data} isInteractive={isInteractive} className={className} />;
}
