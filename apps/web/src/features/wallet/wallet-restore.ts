import { WALLET_RESTORE_DELAY_STEP_MS, WALLET_RESTORE_MAX_ATTEMPTS } from '@solterm/contracts';
import type { WalletConnector, WalletSession } from './wallet-connectors';
import type { StoredWallet } from './wallet-storage';

/** Spec part 1 §9: wallet restore makes 3 attempts, waiting 500 ms times the attempt number. */
export const WALLET_RESTORE_ATTEMPTS = WALLET_RESTORE_MAX_ATTEMPTS;
export const WALLET_RESTORE_DELAY_MS = WALLET_RESTORE_DELAY_STEP_MS;

export type RestoreOutcome =
  /** A trusted wallet reconnected silently on the stored address. */
  | { readonly status: 'restored'; readonly session: WalletSession }
  /** A trusted wallet answered with another address: stored data is kept, nothing connects. */
  | { readonly status: 'mismatch'; readonly address: string }
  /** No wallet answered silently within the attempts (not installed or not trusted): stored data is kept. */
  | { readonly status: 'gave-up' }
  /** Nothing stored, or a type no extension can restore (e.g. a manual address). */
  | { readonly status: 'not-restorable' };

export interface RestoreWalletOptions {
  readonly stored: StoredWallet | null;
  /** Wallets that may hold the stored address, in the order to try them. */
  readonly candidates: readonly WalletConnector[];
  readonly sleep: (ms: number) => Promise<void>;
  /** Stops between attempts (component unmounted). */
  readonly isCancelled?: () => boolean;
}

function isSameAddress(stored: string, actual: string): boolean {
  // EVM addresses are case-insensitive (checksummed or not); Solana base58 is exact.
  return stored.startsWith('0x') ? stored.toLowerCase() === actual.toLowerCase() : stored === actual;
}

/**
 * Reconnects the stored wallet without a prompt (spec part 1 §4): up to 3 attempts, waiting
 * 500 ms × attempt number before each, and only if the wallet is trusted (its silent connect
 * answers) and its address matches the stored one. Never clears stored data.
 */
export async function restoreWallet({
  stored,
  candidates,
  sleep,
  isCancelled = () => false,
}: RestoreWalletOptions): Promise<RestoreOutcome> {
  if (!stored || candidates.length === 0) return { status: 'not-restorable' };
  for (let attempt = 1; attempt <= WALLET_RESTORE_ATTEMPTS; attempt += 1) {
    await sleep(WALLET_RESTORE_DELAY_MS * attempt);
    if (isCancelled()) return { status: 'gave-up' };
    let mismatch: string | null = null;
    for (const connector of candidates) {
      // Extensions inject themselves late; a missing one may appear before the next attempt.
      if (!connector.isInstalled()) continue;
      let session: WalletSession | null = null;
      try {
        session = await connector.connectSilently();
      } catch {
        session = null;
      }
      if (!session) continue;
      if (isSameAddress(stored.address, session.address)) return { status: 'restored', session };
      mismatch = session.address;
    }
    if (mismatch !== null) return { status: 'mismatch', address: mismatch };
  }
  return { status: 'gave-up' };
}
