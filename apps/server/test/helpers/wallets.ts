import type { App } from '../../src/app';
import type { EvmTestWallet } from './evm-test-wallet';
import { call, type AuthData } from './test-app';

export { createEvmWallet, type EvmTestWallet } from './evm-test-wallet';

export {
  createSolanaWallet,
  toBase58,
  type SignatureEncoding,
  type SolanaSigningWallet,
  type SolanaTestWallet,
} from './solana-test-wallet';
import {
  createSolanaWallet,
  type SignatureEncoding,
  type SolanaSigningWallet,
  type SolanaTestWallet,
} from './solana-test-wallet';

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

/** A wallet user signed in with Phantom and funded by the faucet (POST /api/wallet/fund). */
export async function fundedWalletUser(
  app: App,
  funding: { amount_sol: number; amount_usdc: number },
): Promise<{ token: string; wallet: SolanaSigningWallet }> {
  const wallet = createSolanaWallet();
  const { body } = await signInWithWallet(app, wallet, 'phantom');
  const token = (body as { data: { token: string } }).data.token;
  const funded = await call(app, {
    method: 'POST',
    url: '/api/wallet/fund',
    headers: { authorization: `Bearer ${token}` },
    payload: funding,
  });
  if (funded.status !== 200) throw new Error(`fund failed: ${funded.status} ${JSON.stringify(funded.body)}`);
  return { token, wallet };
}
