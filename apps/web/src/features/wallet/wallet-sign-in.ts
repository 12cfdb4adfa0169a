import { getBase58Decoder, getUtf8Encoder } from '@solana/kit';
import {
  EVM_CHAINS,
  isEvmAddress,
  VALIDATION_MESSAGES,
  type TAuthResult,
  type TConnectWalletRequest,
  type TWalletChallenge,
} from '@solterm/contracts';
import { WalletError } from './wallet-errors';
import type { SigningWalletType } from './wallet-kinds';

/** The calls of the wallet flows (the api client prefixes /api). */
export const WALLET_API_PATHS = {
  challenge: '/auth/wallet-challenge',
  connect: '/auth/connect-wallet',
  connectToUser: '/auth/connect-wallet-to-user',
  disconnect: '/auth/disconnect-wallet',
} as const;

/** The part of the api client these flows use (src/lib/api-client.ts `api`). */
export interface WalletApi {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
}

/** What the sign-in needs from a connected wallet. */
export interface SigningWallet {
  readonly address: string;
  readonly walletType: SigningWalletType;
  signMessage(message: Uint8Array): Promise<Uint8Array>;
  getChainId(): Promise<string | undefined>;
}

async function callBackend<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new WalletError(
      'BACKEND_FAILED',
      error instanceof Error ? error.message : 'Failed to connect to backend',
      {
        cause: error,
      },
    );
  }
}

function toHex(bytes: Uint8Array): string {
  return `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Fetches a single-use challenge for the address and has the wallet sign it: Solana wallets sign
 * the UTF-8 bytes (ed25519, sent base58); MetaMask signs with personal_sign (EIP-191, sent 0x-hex)
 * and adds its chain id. Returns the body of POST /auth/connect-wallet.
 */
export async function signWalletChallenge(
  api: WalletApi,
  wallet: SigningWallet,
): Promise<TConnectWalletRequest> {
  const query = new URLSearchParams({ wallet_address: wallet.address, wallet_type: wallet.walletType });
  const challenge = await callBackend(() =>
    api.get<TWalletChallenge>(`${WALLET_API_PATHS.challenge}?${query}`),
  );
  // The server verifies the exact text it issued, so the bytes signed are its UTF-8 encoding as is.
  const signatureBytes = await wallet.signMessage(
    Uint8Array.from(getUtf8Encoder().encode(challenge.message)),
  );
  const isEvm = wallet.walletType === 'metamask';
  const body: TConnectWalletRequest = {
    wallet_address: wallet.address,
    wallet_type: wallet.walletType,
    signature: isEvm ? toHex(signatureBytes) : getBase58Decoder().decode(signatureBytes),
    message: challenge.message,
  };
  if (isEvm) {
    const chainId = await wallet.getChainId();
    if (chainId) body.chain_id = chainId;
  }
  return body;
}

/** Signs in (or signs up) with a signing wallet: challenge, signature, POST /auth/connect-wallet. */
export async function signInWithWallet(api: WalletApi, wallet: SigningWallet): Promise<TAuthResult> {
  const body = await signWalletChallenge(api, wallet);
  return callBackend(() => api.post<TAuthResult>(WALLET_API_PATHS.connect, body));
}

/** Adds a signing wallet to the logged-in user's account: POST /auth/connect-wallet-to-user. */
export async function linkWalletToUser(api: WalletApi, wallet: SigningWallet): Promise<unknown> {
  const body = await signWalletChallenge(api, wallet);
  return callBackend(() => api.post<unknown>(WALLET_API_PATHS.connectToUser, body));
}

// ---------------------------------------------------------------- manual (watch-only) address

/** Spec part 1 §9: the manual EVM chain list; a custom hex id is also allowed. */
export const MANUAL_CHAINS = EVM_CHAINS;

const HEX_CHAIN_ID = /^0x[0-9a-fA-F]{1,16}$/;

/** Spec part 1 §5, the wallet page's manual address rule; null when valid. */
export function validateManualWalletAddress(address: string): string | null {
  const trimmed = address.trim();
  if (trimmed === '') return VALIDATION_MESSAGES.walletAddressRequired;
  if (!isEvmAddress(trimmed)) return VALIDATION_MESSAGES.invalidEthereumAddress;
  return null;
}

/** A custom chain id must be hex such as 0x1 (the server's rule, checked early for a clear message). */
export function validateChainId(chainId: string): string | null {
  return HEX_CHAIN_ID.test(chainId.trim()) ? null : 'Chain id must be a hex number such as 0x1';
}

/**
 * A typed address proves nothing: the server answers with a watch-only session that can look but
 * never trade. No signature is sent.
 */
export function connectManualWallet(api: WalletApi, address: string, chainId: string): Promise<TAuthResult> {
  const body: TConnectWalletRequest = {
    wallet_address: address.trim(),
    wallet_type: 'manual',
    chain_id: chainId.trim().toLowerCase(),
  };
  return callBackend(() => api.post<TAuthResult>(WALLET_API_PATHS.connect, body));
}
