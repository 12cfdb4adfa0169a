import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { getWalletErrorMessage, isUserRejection, WalletError } from './wallet-errors';
import type { WalletKind } from './wallet-kinds';

const rejected4001 = Object.assign(new Error('The request was rejected'), { code: 4001 });
const rejectedText = new Error('User rejected the request.');
const backend = (error: unknown) => new WalletError('BACKEND_FAILED', 'x', { cause: error });

describe('getWalletErrorMessage (spec part 1 §8)', () => {
  it.each<[string, unknown, WalletKind | null, string]>([
    [
      'EVM wallet missing',
      new WalletError('WALLET_NOT_FOUND'),
      'metamask',
      'Wallet not found. Please install a wallet extension.',
    ],
    [
      'Phantom missing',
      new WalletError('WALLET_NOT_FOUND'),
      'phantom',
      'Wallet not found. Please install a Solana wallet extension.',
    ],
    [
      'Solflare missing',
      new WalletError('WALLET_NOT_FOUND'),
      'solflare',
      'Wallet not found. Please install a Solana wallet extension.',
    ],
    [
      'Local wallet missing',
      new WalletError('WALLET_NOT_FOUND'),
      'local',
      'Wallet not found. Please install a Solana wallet extension.',
    ],
    [
      'MetaMask no accounts',
      new WalletError('NO_ACCOUNTS'),
      'metamask',
      'No accounts found. Please connect your MetaMask wallet.',
    ],
    ['MetaMask code 4001', rejected4001, 'metamask', 'User rejected the MetaMask connection request.'],
    ['Phantom code 4001', rejected4001, 'phantom', 'User rejected the Phantom connection request.'],
    [
      'Solflare "User rejected" text',
      rejectedText,
      'solflare',
      'User rejected the Solflare connection request.',
    ],
    ['rejection of an unnamed wallet', rejectedText, 'local', 'User rejected the connection request.'],
    ['rejection, no wallet known', { code: 4001 }, null, 'User rejected the connection request.'],
    ['Phantom other failure', new Error('boom'), 'phantom', 'Failed to connect Phantom. Please try again.'],
    [
      'MetaMask other failure',
      new Error('boom'),
      'metamask',
      'Failed to connect MetaMask. Please try again.',
    ],
    ['Local wallet failure', new Error('boom'), 'local', 'Failed to connect Local wallet. Please try again.'],
    [
      'Phantom gave no account',
      new WalletError('NO_ACCOUNTS'),
      'phantom',
      'Failed to connect Phantom. Please try again.',
    ],
    [
      'Solflare gave no public key',
      new WalletError('NO_ACCOUNTS'),
      'solflare',
      'Failed to get public key from Solflare wallet',
    ],
    ['Solflare other failure', new Error('boom'), 'solflare', 'Failed to connect to Solflare wallet'],
    [
      'server unreachable',
      backend(new ApiError('Network error.', { status: 0, kind: 'network' })),
      'phantom',
      'Failed to connect to backend',
    ],
    [
      'server refusal keeps its reason',
      backend(new ApiError('Invalid wallet signature', { status: 401, kind: 'unauthorized' })),
      'phantom',
      'Invalid wallet signature',
    ],
    ['server error without text', backend(new Error('')), null, 'Failed to connect to backend'],
    ['anything else', 'weird', null, 'Wallet connection failed'],
  ])('%s', (_case, error, kind, expected) => {
    expect(getWalletErrorMessage(error, kind)).toBe(expected);
  });

  it('recognises rejections by code 4001 or the words "User rejected"', () => {
    expect(isUserRejection({ code: 4001 })).toBe(true);
    expect(isUserRejection(new Error('WalletSignMessageError: User rejected the request'))).toBe(true);
    expect(isUserRejection(new Error('user declined'))).toBe(false);
    expect(isUserRejection(null)).toBe(false);
  });
});
