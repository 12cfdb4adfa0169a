import { VALIDATION_MESSAGES, WALLET_MESSAGES } from '@solterm/contracts';
import { isUserRejection, WalletError, type WalletKind } from '../wallet';

/** The wallets the dashboard card offers: Solana wallets only (the Local wallet on test networks). */
export const DASHBOARD_WALLET_KINDS: readonly WalletKind[] = ['local', 'phantom', 'solflare'];

/**
 * The dashboard wallet card's message for a failed connect (spec part 1 §8): a rejection is
 * 'Connection cancelled by user'; a wallet that gave no account 'Wallet is not connected. Please
 * connect your wallet extension first.'; a missing extension the Solana install text; anything else
 * 'Failed to connect <name>: <reason>'.
 *
 * @example getDashboardConnectErrorMessage({ code: 4001 }, 'Phantom'); // 'Connection cancelled by user'
 */
export function getDashboardConnectErrorMessage(error: unknown, walletName: string): string {
  if (isUserRejection(error)) return WALLET_MESSAGES.connectionCancelled;
  if (error instanceof WalletError) {
    if (error.code === 'NO_ACCOUNTS' || error.code === 'NOT_CONNECTED') {
      return WALLET_MESSAGES.extensionNotConnected;
    }
    if (error.code === 'WALLET_NOT_FOUND') return WALLET_MESSAGES.solanaWalletNotFound;
  }
  const reason = error instanceof Error && error.message.trim() !== '' ? error.message : 'Unknown error';
  return WALLET_MESSAGES.connectFailedWithReason(walletName, reason);
}

/**
 * The dashboard's manual address rule (spec part 1 §5): non-empty after trimming, no format
 * check. Returns the error text, or null when the address may be sent.
 *
 * @example validateDashboardWalletAddress('   '); // 'Please enter a wallet address'
 */
export function validateDashboardWalletAddress(address: string): string | null {
  return address.trim() === '' ? VALIDATION_MESSAGES.walletAddressRequired : null;
}
