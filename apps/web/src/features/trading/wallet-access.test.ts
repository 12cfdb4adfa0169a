import { describe, expect, it } from 'vitest';
import { getWalletAccess } from './wallet-access';

describe('getWalletAccess', () => {
  it('needs a wallet', () => {
    expect(getWalletAccess(null)).toEqual({ kind: 'no_wallet' });
    expect(getWalletAccess({ solana_wallet_address: '  ', wallet_type: 'phantom' })).toEqual({
      kind: 'no_wallet',
    });
  });

  it('refuses EVM and manual wallets', () => {
    expect(getWalletAccess({ solana_wallet_address: '0xabc', wallet_type: 'metamask' }).kind).toBe(
      'not_solana',
    );
    expect(getWalletAccess({ solana_wallet_address: 'abc', wallet_type: 'manual' }).kind).toBe('not_solana');
    expect(getWalletAccess({ solana_wallet_address: 'abc', wallet_type: null }).kind).toBe('not_solana');
  });

  it('allows phantom, solflare and generic Solana wallets', () => {
    for (const walletType of ['phantom', 'solflare', 'solana']) {
      expect(getWalletAccess({ solana_wallet_address: 'Addr', wallet_type: walletType })).toEqual({
        kind: 'solana',
        address: 'Addr',
        walletType,
      });
    }
  });
});
