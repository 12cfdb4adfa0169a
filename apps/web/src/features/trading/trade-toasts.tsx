import { toast } from 'sonner';
import { TOAST_SUCCESS_DURATION_MS } from '@solterm/contracts';
import { shortenHash } from '../../lib/format';

/**
 * The success toast of an executed order: the title and the transaction hash, shortened with the
 * full hash in its title and a Copy action. It goes to sonner directly because the app's `notify`
 * takes plain-text descriptions; the duration is still the spec's 3 s for successes, and a hash is
 * unique, so the 100 ms duplicate suppression has nothing to suppress.
 */
export function notifyOrderExecuted(title: string, transactionHash: string): void {
  toast.success(title, {
    duration: TOAST_SUCCESS_DURATION_MS,
    description: (
      <span className="font-mono text-xs" title={transactionHash} data-testid="trade-toast-hash">
        Tx {shortenHash(transactionHash)}
      </span>
    ),
    action: {
      label: 'Copy',
      onClick: () => {
        void navigator.clipboard?.writeText(transactionHash).catch(() => undefined);
      },
    },
  });
}
