import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { notify } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';

/** A small icon button that copies text and confirms with a tick. */
export function CopyButton({ text, label, toast }: { text: string; label: string; toast: string }) {
  const [isCopied, setIsCopied] = useState(false);

  useEffect(() => {
    if (!isCopied) return;
    const timer = setTimeout(() => setIsCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [isCopied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setIsCopied(true);
      notify.success(toast);
    } catch {
      notify.error('Could not copy to the clipboard');
    }
  }

  return (
    <Button variant="ghost" size="xs" aria-label={label} title={label} onClick={copy} className="w-7 px-0">
      {isCopied ? <Check className="size-3.5 text-up" /> : <Copy className="size-3.5" />}
    </Button>
  );
}
