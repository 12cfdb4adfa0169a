import { useId, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { cn } from '../../lib/cn';
import { useDialogFocus } from './use-dialog-focus';

/**
 * A modal dialog: a dimmed backdrop, focus moved into it, Escape and the close button close it —
 * unless `isLocked` (work in flight that must not be abandoned, e.g. a wallet signing).
 */
export function Modal({
  title,
  description,
  isOpen,
  isLocked = false,
  onClose,
  children,
  className,
}: {
  title: string;
  description?: ReactNode;
  isOpen: boolean;
  isLocked?: boolean;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}) {
  const titleId = useId();
  const panel = useDialogFocus(isOpen, onClose, isLocked);

  if (!isOpen) return null;
  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-black/60 p-3 sm:items-center">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={cn(
          'max-h-[90vh] w-full max-w-md overflow-y-auto rounded-panel border border-line bg-panel shadow-xl outline-none',
          className,
        )}
      >
        <div className="flex items-start justify-between gap-3 border-b border-line px-4 py-3">
          <div className="min-w-0">
            <h2 id={titleId} className="text-sm font-semibold text-fg">
              {title}
            </h2>
            {description && <p className="mt-0.5 text-xs text-muted">{description}</p>}
          </div>
          <button
            type="button"
            className="rounded p-1 text-muted hover:bg-raised hover:text-fg disabled:opacity-40"
            onClick={onClose}
            disabled={isLocked}
            aria-label="Close"
          >
            <X className="size-4" />
          </button>
        </div>
        <div className="px-4 py-3">{children}</div>
      </div>
    </div>
  );
}
