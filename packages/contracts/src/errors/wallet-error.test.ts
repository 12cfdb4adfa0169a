import { describe, it, expect } from 'vitest';
import { getWalletConnectErrorMessage, isUserRejectedError } from './wallet-error';

describe('isUserRejectedError', () => {
  it.each([
    [{ code: 4001 }, true],
    [{ code: '4001' }, true],
    [{ message: 'User rejected the request.' }, true],
    [{ message: 'user rejected' }, true],
    [{ code: 4100, message: 'Unauthorized' }, false],
    [{}, false],
    [null, false],
  ] as const)('%j → %s', (error, expected) => {
    expect(isUserRejectedError(error)).toBe(expected);
  });
});

describe('getWalletConnectErrorMessage', () => {
  it.each([
    [{ code: 4001 }, 'MetaMask', 'User rejected the MetaMask connection request.'],
    [{ message: 'User rejected' }, 'Solflare', 'User rejected the Solflare connection request.'],
    [{ code: 4001 }, undefined, 'User rejected the connection request.'],
    [{ message: 'boom' }, 'Phantom', 'Failed to connect Phantom. Please try again.'],
    [null, undefined, 'Wallet connection failed'],
  ] as const)('%j, %s → %s', (error, wallet, expected) => {
    expect(getWalletConnectErrorMessage(error, wallet)).toBe(expected);
  });
});
