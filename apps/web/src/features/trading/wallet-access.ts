import { SOLANA_WALLET_TYPES, type TUser } from '@solterm/contracts';

/**
 * What the account's wallet allows (part 1 §5–§6): portfolio data and trading need a Solana
 * wallet (phantom, solflare, solana); none, or an EVM / manual one, is refused with the spec's text.
 */
export type WalletAccess =
  | { readonly kind: 'no_wallet' }
  | { readonly kind: 'not_solana'; readonly walletType: string | null }
  | { readonly kind: 'solana'; readonly address: string; readonly walletType: string };

/**
 * @example
 * getWalletAccess({ solana_wallet_address: null, wallet_type: null }); // { kind: 'no_wallet' }
 * getWalletAccess({ solana_wallet_address: '0xabc…', wallet_type: 'metamask' }); // { kind: 'not_solana', … }
 */
export function getWalletAccess(
  user: Pick<TUser, 'solana_wallet_address' | 'wallet_type'> | null | undefined,
): WalletAccess {
  const address = user?.solana_wallet_address?.trim();
  if (!address) return { kind: 'no_wallet' };
  const walletType = user?.wallet_type ?? null;
  if (!walletType || !(SOLANA_WALLET_TYPES as readonly string[]).includes(walletType)) {
    return { kind: 'not_solana', walletType };
  }
  return { kind: 'solana', address, walletType };
}
