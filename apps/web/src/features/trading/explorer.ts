import type { TNetwork } from '@solterm/contracts';

const EXPLORER = 'https://explorer.solana.com';

/**
 * The Solana Explorer page of a transaction on the network the server runs on. The local cluster
 * is served at `/rpc` on the app's own origin, which the Explorer reads as a custom cluster.
 *
 * @example
 * getExplorerTxUrl('5Vx…', 'mainnet', 'https://solterm.app'); // 'https://explorer.solana.com/tx/5Vx…'
 * getExplorerTxUrl('5Vx…', 'localnet', 'http://localhost:8080');
 * // 'https://explorer.solana.com/tx/5Vx…?cluster=custom&customUrl=http%3A%2F%2Flocalhost%3A8080%2Frpc'
 */
export function getExplorerTxUrl(signature: string, network: TNetwork, origin: string): string {
  const path = `${EXPLORER}/tx/${encodeURIComponent(signature)}`;
  if (network === 'mainnet') return path;
  if (network === 'localnet')
    return `${path}?cluster=custom&customUrl=${encodeURIComponent(`${origin}/rpc`)}`;
  return `${path}?cluster=${network}`;
}
