import { createHash } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';

const decoder = getAddressDecoder();

/**
 * A stable, well-formed Solana address derived from a label (SHA-256 of the label, base58). Used by
 * the simulators for accounts that only need to look real and stay the same across restarts —
 * simulated pools and holder wallets. Nobody holds a key for these addresses.
 *
 * @example
 * deriveAddress('pool:SOL/USDC:raydium'); // always the same 32-byte base58 address
 */
export function deriveAddress(label: string): string {
  return decoder.decode(createHash('sha256').update(label).digest());
}
