import { ed25519 } from '@noble/curves/ed25519.js';
import { getAddressEncoder, getBase58Encoder, getUtf8Encoder } from '@solana/kit';
import type { TConnectWalletRequest } from '@solterm/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { LocalWallet } from './local-wallet/local-wallet';
import { WalletError } from './wallet-errors';
import {
  connectManualWallet,
  linkWalletToUser,
  signInWithWallet,
  validateChainId,
  validateManualWalletAddress,
  type SigningWallet,
  type WalletApi,
} from './wallet-sign-in';

// A SIWS-style challenge as the server issues it; the client signs it byte for byte.
const CHALLENGE = [
  'localhost wants you to sign in with your Solana account:',
  'ADDRESS',
  '',
  'Sign in to solterm',
  '',
  'Nonce: 4f3c2a1b',
  'Issued At: 2025-01-01T00:00:00.000Z',
].join('\n');

const AUTH_RESULT = { token: 'jwt', user: { id: 'u1' }, expires_at: '2025-01-02T00:00:00.000Z' };

function fakeApi() {
  const get = vi.fn(async (_path: string) => ({
    message: CHALLENGE,
    nonce: 'n',
    issued_at: '',
    expires_at: '',
  }));
  const post = vi.fn(async (_path: string, _body?: unknown) => AUTH_RESULT);
  return { api: { get, post } as unknown as WalletApi, get, post };
}

async function localSigner(): Promise<SigningWallet> {
  const wallet = new LocalWallet(localStorage);
  wallet.create();
  const { accounts } = await wallet.features['standard:connect'].connect();
  const account = accounts[0]!;
  return {
    address: account.address,
    walletType: 'solana',
    signMessage: async (message) =>
      (await wallet.features['solana:signMessage'].signMessage({ account, message }))[0]!.signature,
    getChainId: async () => undefined,
  };
}

describe('wallet sign-in', () => {
  it('Solana: fetches the challenge, signs its UTF-8 bytes, sends a base58 ed25519 signature', async () => {
    const { api, get, post } = fakeApi();
    const signer = await localSigner();

    const result = await signInWithWallet(api, signer);

    expect(result).toBe(AUTH_RESULT);
    expect(get).toHaveBeenCalledWith(
      `/auth/wallet-challenge?wallet_address=${signer.address}&wallet_type=solana`,
    );
    const [path, body] = post.mock.calls[0]! as [string, TConnectWalletRequest];
    expect(path).toBe('/auth/connect-wallet');
    expect(body).toMatchObject({ wallet_address: signer.address, wallet_type: 'solana', message: CHALLENGE });
    expect(body.chain_id).toBeUndefined();
    const signature = Uint8Array.from(getBase58Encoder().encode(body.signature!));
    const publicKey = Uint8Array.from(getAddressEncoder().encode(signer.address as never));
    expect(ed25519.verify(signature, Uint8Array.from(getUtf8Encoder().encode(CHALLENGE)), publicKey)).toBe(
      true,
    );
  });

  it('MetaMask: sends the 0x-hex personal_sign signature and the chain id', async () => {
    const { api, post } = fakeApi();
    const signMessage = vi.fn(async () => new Uint8Array(65).fill(0xab));
    await signInWithWallet(api, {
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      walletType: 'metamask',
      signMessage,
      getChainId: async () => '0x89',
    });
    expect(signMessage).toHaveBeenCalledWith(Uint8Array.from(getUtf8Encoder().encode(CHALLENGE)));
    const body = post.mock.calls[0]![1] as TConnectWalletRequest;
    expect(body.signature).toBe(`0x${'ab'.repeat(65)}`);
    expect(body.chain_id).toBe('0x89');
    expect(body.wallet_type).toBe('metamask');
  });

  it('linking posts the same signed body to /auth/connect-wallet-to-user', async () => {
    const { api, post } = fakeApi();
    const signer = await localSigner();
    await linkWalletToUser(api, signer);
    expect(post.mock.calls[0]![0]).toBe('/auth/connect-wallet-to-user');
    expect(post.mock.calls[0]![1]).toMatchObject({ wallet_address: signer.address, message: CHALLENGE });
  });

  it('server failures become BACKEND_FAILED carrying the ApiError', async () => {
    const { api, get } = fakeApi();
    const apiError = new ApiError('Network error.', { status: 0, kind: 'network' });
    get.mockRejectedValueOnce(apiError);
    const error = await signInWithWallet(api, await localSigner()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletError);
    expect((error as WalletError).code).toBe('BACKEND_FAILED');
    expect((error as WalletError).cause).toBe(apiError);
  });

  it('manual: posts wallet_type manual with the chain id and no signature', async () => {
    const { api, post } = fakeApi();
    await connectManualWallet(api, ' 0x52908400098527886E0F7030069857D2E4169EE7 ', '0xA4B1');
    expect(post).toHaveBeenCalledWith('/auth/connect-wallet', {
      wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
      wallet_type: 'manual',
      chain_id: '0xa4b1',
    });
  });

  it('manual address and chain id validation (spec part 1 §5)', () => {
    expect(validateManualWalletAddress('')).toBe('Please enter a wallet address');
    expect(validateManualWalletAddress('   ')).toBe('Please enter a wallet address');
    expect(validateManualWalletAddress('0x123')).toBe('Please enter a valid Ethereum wallet address');
    expect(validateManualWalletAddress('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU')).toBe(
      'Please enter a valid Ethereum wallet address',
    );
    expect(validateManualWalletAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBeNull();
    expect(validateChainId('0x2105')).toBeNull();
    expect(validateChainId('8453')).toBe('Chain id must be a hex number such as 0x1');
  });
});
