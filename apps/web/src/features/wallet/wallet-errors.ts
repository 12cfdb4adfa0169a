import { isUserRejectedError, WALLET_MESSAGES } from '@solterm/contracts';
import { WALLET_CATALOG, type WalletKind } from './wallet-kinds';

/** Why a wallet step failed, as a stable code; the user-facing text comes from getWalletErrorMessage. */
export type WalletErrorCode =
  /** No extension (or no Local wallet key) to talk to. */
  | 'WALLET_NOT_FOUND'
  /** The wallet connected but gave no account / public key. */
  | 'NO_ACCOUNTS'
  /** No wallet is connected for a signing request. */
  | 'NOT_CONNECTED'
  /** The wallet cannot do what was asked (e.g. MetaMask signing a Solana transaction). */
  | 'UNSUPPORTED'
  /** The solterm server refused or could not be reached; `cause` holds the ApiError. */
  | 'BACKEND_FAILED';

export class WalletError extends Error {
  readonly code: WalletErrorCode;

  constructor(code: WalletErrorCode, message: string = code, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WalletError';
    this.code = code;
  }
}

/** Spec part 1 §8: an EIP-1193 / wallet rejection is code 4001 or a message containing 'User rejected'. */
export function isUserRejection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return isUserRejectedError({
    code: typeof code === 'number' || typeof code === 'string' ? code : null,
    message: typeof message === 'string' ? message : null,
  });
}

function serverMessage(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, message } = error as { status?: unknown; message?: unknown };
  // A real answer from the server (4xx/5xx) carries its own reason; transport failures do not.
  if (typeof status === 'number' && status >= 400 && typeof message === 'string' && message.trim() !== '') {
    return message;
  }
  return null;
}

const REJECTION_NAMES: Partial<Record<WalletKind, string>> = {
  metamask: 'MetaMask',
  phantom: 'Phantom',
  solflare: 'Solflare',
};

/**
 * The spec's wallet error catalogue (part 1 §8) as one pure lookup.
 *
 * @example getWalletErrorMessage({ code: 4001 }, 'phantom') // 'User rejected the Phantom connection request.'
 */
export function getWalletErrorMessage(error: unknown, kind: WalletKind | null): string {
  const code = error instanceof WalletError ? error.code : null;

  if (error instanceof WalletError && code === 'BACKEND_FAILED') {
    return serverMessage(error.cause) ?? WALLET_MESSAGES.backendConnectFailed;
  }

  if (code === 'WALLET_NOT_FOUND') {
    return kind === 'metamask' ? WALLET_MESSAGES.evmWalletNotFound : WALLET_MESSAGES.solanaWalletNotFound;
  }

  if (isUserRejection(error)) return WALLET_MESSAGES.userRejected(kind ? REJECTION_NAMES[kind] : undefined);

  if (code === 'NO_ACCOUNTS') {
    if (kind === 'metamask') return WALLET_MESSAGES.noMetaMaskAccounts;
    if (kind === 'solflare') return WALLET_MESSAGES.solflarePublicKeyFailed;
  }

  if (kind === 'solflare') return WALLET_MESSAGES.solflareConnectFailed;
  if (kind) return WALLET_MESSAGES.connectFailed(WALLET_CATALOG[kind].name);
  return WALLET_MESSAGES.connectionFailed;
}
