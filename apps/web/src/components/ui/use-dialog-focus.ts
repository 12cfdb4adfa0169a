import { useEffect, useRef } from 'react';

/**
 * What every dialog (a modal, a drawer) does while open: focus moves into its panel and back to
 * where it was when it closes, and Escape closes it — unless `isLocked` (work in flight that must
 * not be abandoned, e.g. a wallet signing). Returns the ref for the panel.
 */
export function useDialogFocus(isOpen: boolean, onClose: () => void, isLocked = false) {
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    return () => previous?.focus?.();
  }, [isOpen]);

  useEffect(() => {
    if (!isOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !isLocked) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isOpen, isLocked, onClose]);

  return panel;
}
