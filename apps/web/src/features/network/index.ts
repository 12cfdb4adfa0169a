// The network feature's public face: what other features may import.
export { NetworkBadge } from './network-badge';
export { useNetwork } from './use-network';
