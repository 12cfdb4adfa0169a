import { FlaskConical } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { useNetwork } from './use-network';

/** 'TESTNET' / 'LOCALNET' / 'DEVNET' chip in the top bar; nothing on mainnet. */
export function NetworkBadge({ className }: { className?: string }) {
  const { network, isTestNetwork } = useNetwork();
  if (!isTestNetwork) return null;
  return (
    <Badge tone="warn" icon={<FlaskConical className="size-3" aria-hidden="true" />} className={className}>
      <span title={`Connected to ${network}: test funds only`}>{network.toUpperCase()}</span>
    </Badge>
  );
}
