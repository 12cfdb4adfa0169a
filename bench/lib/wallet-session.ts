import { createSolanaWallet } from '../../apps/server/test/helpers/solana-test-wallet';

/** A JSON call to the server's /api answering its `data` (throws on a non-2xx answer). */
export type ApiRequest = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * A Phantom-type wallet user signed in to the server at `url` (wallet challenge, signature,
 * connect-wallet): its test wallet, its token and a request function that sends it.
 */
export async function signInWalletUser(url: string) {
  let token = '';
  const request: ApiRequest = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 200)}`);
    return (JSON.parse(text) as { data: T }).data;
  };
  const wallet = createSolanaWallet();
  const challenge = await request<{ message: string }>(
    'GET',
    `/auth/wallet-challenge?wallet_address=${wallet.address}&wallet_type=phantom`,
  );
  token = (
    await request<{ token: string }>('POST', '/auth/connect-wallet', {
      wallet_address: wallet.address,
      wallet_type: 'phantom',
      signature: wallet.sign(challenge.message),
      message: challenge.message,
    })
  ).token;
  return { wallet, token, request };
}
