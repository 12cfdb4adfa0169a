import { useState, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
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

/** Where the flags panel goes: under the badge, kept inside the viewport. */
function panelPosition(anchor: Element): CSSProperties {
  const rect = anchor.getBoundingClientRect();
  return {
    top: rect.bottom + 4,
    left: Math.max(4, Math.min(rect.left, window.innerWidth - PANEL_WIDTH - 4)),
  };
}

const PANEL_WIDTH = 288;

/** The flags of a token, severity first, and the top-10 share that excludes the venue. */
function FlagsPanel({ safety, style }: { safety: TTokenSafety; style: CSSProperties }) {
  return createPortal(
    <div
      role="tooltip"
      // Above dialogs and dropdowns, fixed so no scrolling table or list clips it.
      className="fixed z-[60] rounded border border-line bg-panel p-2 text-left text-[11px] leading-snug break-words shadow-xl"
      style={{ ...style, width: PANEL_WIDTH }}
      data-testid="safety-flags"
      onClick={(event) => event.stopPropagation()}
    >
      {safety.flags.length === 0 ? (
        <span className="text-muted">No risk flags found on chain.</span>
      ) : (
        <ul className="space-y-1">
          {safety.flags.map((flag) => (
            <li key={flag.code} className={SEVERITY_CLASS[flag.severity]}>
              <span className="font-semibold uppercase">{flag.severity}</span> · {flag.message}
            </li>
          ))}
        </ul>
      )}
      <span className="mt-1 block text-muted">Top 10 holders: {safety.top10_share}% (venue excluded)</span>
    </div>,
    document.body,
  );
}

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
  // Where the open panel sits (null: closed); measured when it opens, in the event.
  const [position, setPosition] = useState<CSSProperties | null>(null);
  const [isPinned, setIsPinned] = useState(false);
  const { level, flags } = safety;
  const Icon = level === 'ok' ? ShieldCheck : ShieldAlert;
  const summary = flags.length === 0 ? 'No risk flags' : flags.map((flag) => flag.message).join('\n');
  const label = `Safety: ${LEVEL_LABEL[level]}. ${summary}`;
  const badge = (
    <Badge tone={LEVEL_TONE[level]} icon={<Icon className="size-3" aria-hidden="true" />}>
      {LEVEL_LABEL[level]}
    </Badge>
  );
  return (
    <span
      className={cn('inline-flex', className)}
      data-testid="safety-badge"
      data-level={level}
      onMouseEnter={(event) => setPosition(panelPosition(event.currentTarget))}
      onMouseLeave={() => {
        setPosition(null);
        setIsPinned(false);
      }}
    >
      {isInteractive ? (
        <button
          type="button"
          className="rounded focus-visible:outline-2 focus-visible:outline-accent"
          aria-label={label}
          aria-expanded={isPinned}
          onClick={(event) => {
            // Rows that open a pair on click must not also open it when the badge is tapped.
            event.stopPropagation();
            event.preventDefault();
            setIsPinned(!isPinned);
            setPosition(isPinned ? null : panelPosition(event.currentTarget));
          }}
        >
          {badge}
        </button>
      ) : (
        <span aria-label={label}>{badge}</span>
      )}
      {position && <FlagsPanel safety={safety} style={position} />}
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
