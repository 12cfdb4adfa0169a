import { createContext, useContext } from 'react';
import { ExternalLink } from 'lucide-react';
import { shortenAddress, type TNetwork } from '@solterm/contracts';
import { CopyButton } from '../../../components/ui/copy-button';
import { cn } from '../../../lib/cn';
import { getExplorerTxUrl } from '../explorer';

/** The network explorer links point at (the page provides it from GET /health). */
export const ExplorerNetworkContext = createContext<TNetwork>('mainnet');

/** A transaction hash, shortened, linking to the explorer, with a copy button. */
export function TxLink({ signature, className }: { signature: string | null; className?: string }) {
  const network = useContext(ExplorerNetworkContext);
  if (!signature) return <span className="text-faint">—</span>;
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <span className={cn('inline-flex items-center gap-1', className)}>
      <a
        href={getExplorerTxUrl(signature, network, origin)}
        target="_blank"
        rel="noreferrer"
        title={signature}
        aria-label={`Transaction ${signature} in the explorer`}
        className="inline-flex items-center gap-1 font-mono text-[11px] text-info hover:underline"
        data-testid="tx-link"
      >
        {shortenAddress(signature)}
        <ExternalLink aria-hidden="true" className="size-3 opacity-60" />
      </a>
      <CopyButton value={signature} label="Copy transaction hash" copiedMessage="Transaction hash copied" />
    </span>
  );
}
