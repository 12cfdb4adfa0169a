import { useEffect, useState, type MouseEvent } from 'react';
import { Check, Copy } from 'lucide-react';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';

/**
 * The one copy button: copies `value` to the clipboard, toasts `copiedMessage`, and shows a check for
 * a moment. Clicks do not reach the row around it. `size="md"` is the larger button of cards;
 * `keepFocus` leaves the focus where it is (inside a search dropdown).
 *
 * @example <CopyButton value={signature} label="Copy transaction hash" copiedMessage="Transaction hash copied" />
 */
export function CopyButton({
  value,
  label,
  copiedMessage = 'Copied to the clipboard',
  size = 'sm',
  keepFocus = false,
  className,
}: {
  value: string;
  /** Accessible name and tooltip. */
  label: string;
  copiedMessage?: string;
  size?: 'sm' | 'md';
  keepFocus?: boolean;
  className?: string;
}) {
  const [isCopied, setIsCopied] = useState(false);
  useEffect(() => {
    if (!isCopied) return;
    const timer = setTimeout(() => setIsCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [isCopied]);

  async function copy(event: MouseEvent) {
    event.stopPropagation();
    event.preventDefault();
    try {
      await navigator.clipboard.writeText(value);
      setIsCopied(true);
      notify.success(copiedMessage);
    } catch {
      notify.error('Could not copy to the clipboard');
    }
  }

  const icon = size === 'md' ? 'size-3.5' : 'size-3';
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={label}
      title={label}
      {...(keepFocus ? { tabIndex: -1, onMouseDown: (event: MouseEvent) => event.preventDefault() } : {})}
      className={cn(
        'rounded text-faint transition-colors hover:bg-hover hover:text-fg',
        size === 'md' ? 'inline-flex h-7 w-7 items-center justify-center' : 'p-0.5',
        className,
      )}
    >
      {isCopied ? <Check className={cn(icon, 'text-up')} /> : <Copy className={icon} />}
    </button>
  );
}
