import { ed25519 } from '@noble/curves/ed25519.js';
import { getBase58Decoder } from '@solana/kit';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { App } from '../../src/app';
import { call, type AuthData } from './test-app';

export type SignatureEncoding = 'base58' | 'base64' | 'hex';

/** Bytes to base58 text (kit names it a decoder: it decodes bytes into a string). */
export function toBase58(bytes: Uint8Array): string {
  return getBase58Decoder().decode(bytes);
}

export interface SolanaTestWallet {
  address: string;
  /** ed25519 signature of the UTF-8 message, as a wallet would return it. */
  sign(message: string, encoding?: SignatureEncoding): string;
}

export function createSolanaWallet(): SolanaTestWallet {
  const secretKey = ed25519.utils.randomSecretKey();
  const address = toBase58(ed25519.getPublicKey(secretKey));
  return {
    address,
    sign(message, encoding = 'base58') {
      const signature = ed25519.sign(new TextEncoder().encode(message), secretKey);
      if (encoding === 'base58') return toBase58(signature);
      return Buffer.from(signature).toString(encoding);
    },
  };
}

export interface EvmTestWallet {
  address: `0x${string}`;
  sign(message: string): Promise<string>;
}

export function createEvmWallet(): EvmTestWallet {
  const account = privateKeyToAccount(generatePrivateKey());
  return { address: account.address, sign: (message) => account.signMessage({ message }) };
}

export interface Challenge {
  message: string;
  nonce: string;
  issued_at: string;
  expires_at: string;
}

export async function getChallenge(app: App, walletAddress: string, walletType: string): Promise<Challenge> {
  const { status, body } = await call<Challenge>(app, {
    method: 'GET',
    url: '/api/auth/wallet-challenge',
    query: { wallet_address: walletAddress, wallet_type: walletType },
  });
  if (status !== 200) throw new Error(`wallet-challenge failed: ${status} ${JSON.stringify(body)}`);
  return body.data;
}

/** Fetches a challenge, signs it with the wallet and posts it to connect-wallet (or another path). */
export async function signInWithWallet<T = AuthData>(
  app: App,
  wallet: SolanaTestWallet | EvmTestWallet,
  walletType: string,
  options: { encoding?: SignatureEncoding; url?: string; headers?: Record<string, string> } = {},
) {
  const challenge = await getChallenge(app, wallet.address, walletType);
  const signature =
    walletType === 'metamask'
      ? await (wallet as EvmTestWallet).sign(challenge.message)
      : (wallet as SolanaTestWallet).sign(challenge.message, options.encoding);
  return call<T>(app, {
    method: 'POST',
    url: options.url ?? '/api/auth/connect-wallet',
    headers: options.headers,
    payload: {
      wallet_address: wallet.address,
      wallet_type: walletType,
      signature,
      message: challenge.message,
    },
  });
}
