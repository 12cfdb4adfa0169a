import { WALLET_MESSAGES } from './messages';

/** The wallet error code for "user rejected the request" (EIP-1193, also used by Solana wallets). */
export const USER_REJECTED_ERROR_CODE = 4001;

/** The fields a wallet extension's error carries. */
export interface WalletErrorLike {
  readonly code?: number | string | null;
  readonly message?: string | null;
}

/**
 * Whether a wallet error means the user rejected the request: code 4001 or a message containing
 * 'User rejected' (case-insensitive).
 *
 * @example
 * isUserRejectedError({ code: 4001, message: 'rejected' }); // true
 */
export function isUserRejectedError(error: WalletErrorLike | null | undefined): boolean {
  if (!error) return false;
  if (Number(error.code) === USER_REJECTED_ERROR_CODE) return true;
  return (error.message ?? '').toLowerCase().includes('user rejected');
}

/**
 * The message for a failed wallet connection: the rejection text when the user rejected it
 * ('User rejected the Phantom connection request.'), otherwise 'Failed to connect Phantom. Please
 * try again.' (or 'Wallet connection failed' without a wallet name).
 *
 * @example
 * getWalletConnectErrorMessage({ code: 4001 }, 'MetaMask'); // 'User rejected the MetaMask connection request.'
 */
export function getWalletConnectErrorMessage(
  error: WalletErrorLike | null | undefined,
  walletName?: string,
): string {
  if (isUserRejectedError(error)) return WALLET_MESSAGES.userRejected(walletName);
  return walletName ? WALLET_MESSAGES.connectFailed(walletName) : WALLET_MESSAGES.connectionFailed;
}
