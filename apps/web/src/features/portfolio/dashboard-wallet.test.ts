import { describe, expect, it } from 'vitest';
import { WalletError } from '../wallet/wallet-errors';
import { getDashboardConnectErrorMessage, validateDashboardWalletAddress } from './dashboard-wallet';

describe('getDashboardConnectErrorMessage', () => {
  it("uses the dashboard card's texts", () => {
    expect(getDashboardConnectErrorMessage({ code: 4001, message: 'nope' }, 'Phantom')).toBe(
      'Connection cancelled by user',
    );
    expect(getDashboardConnectErrorMessage(new Error('User rejected the request'), 'Phantom')).toBe(
      'Connection cancelled by user',
    );
    expect(getDashboardConnectErrorMessage(new WalletError('NO_ACCOUNTS'), 'Solflare')).toBe(
      'Wallet is not connected. Please connect your wallet extension first.',
    );
    expect(getDashboardConnectErrorMessage(new WalletError('WALLET_NOT_FOUND'), 'Phantom')).toBe(
      'Wallet not found. Please install a Solana wallet extension.',
    );
    expect(getDashboardConnectErrorMessage(new Error('popup blocked'), 'Phantom')).toBe(
      'Failed to connect Phantom: popup blocked',
    );
  });
});

describe('validateDashboardWalletAddress', () => {
  it('only needs something after trimming', () => {
    expect(validateDashboardWalletAddress('   ')).toBe('Please enter a wallet address');
    expect(validateDashboardWalletAddress('anything')).toBeNull();
  });
});
