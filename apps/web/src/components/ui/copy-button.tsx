import { useEffect, useState, type MouseEvent } from 'react';
import { Check, Copy } from 'lucide-react';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';

/**
 * A small icon button that copies `value` to the clipboard, toasts `copiedMessage`, and shows a
 * check for a moment. Clicks do not reach the row around it.
 *
 * @example <CopyButton value={signature} label="Copy transaction hash" copiedMessage="Transaction hash copied" />
 */
export function CopyButton({
  value,
  label,
  copiedMessage = 'Copied to the clipboard',
  className,
}: {
  value: string;
  /** Accessible name and tooltip. */
  label: string;
  copiedMessage?: string;
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

  return (
    <button
      type="button"
      onClick={copy}
      aria-label={label}
      title={label}
      className={cn('rounded p-0.5 text-faint transition-colors hover:bg-hover hover:text-fg', className)}
    >
      {isCopied ? <Check className="size-3 text-up" /> : <Copy className="size-3" />}
    </button>
  );
}
