import type { TWalletType } from '@solterm/contracts';
import { LOCAL_WALLET_NAME } from './local-wallet/local-wallet';

/** The wallets the app offers by name. Phantom, Solflare and the Local wallet speak Wallet Standard; MetaMask EIP-1193. */
export type WalletKind = 'metamask' | 'phantom' | 'solflare' | 'local';

/** wallet_type on the wire for a signing wallet (manual addresses are not wallets). */
export type SigningWalletType = Exclude<TWalletType, 'manual'>;

export interface WalletCatalogEntry {
  readonly kind: WalletKind;
  readonly name: string;
  readonly walletType: SigningWalletType;
  readonly family: 'evm' | 'solana';
  /** Where to get the extension; the Local wallet needs none. */
  readonly installUrl: string | null;
}

export const WALLET_CATALOG: Readonly<Record<WalletKind, WalletCatalogEntry>> = {
  metamask: {
    kind: 'metamask',
    name: 'MetaMask',
    walletType: 'metamask',
    family: 'evm',
    installUrl: 'https://metamask.io/download/',
  },
  phantom: {
    kind: 'phantom',
    name: 'Phantom',
    walletType: 'phantom',
    family: 'solana',
    installUrl: 'https://phantom.com/download',
  },
  solflare: {
    kind: 'solflare',
    name: 'Solflare',
    walletType: 'solflare',
    family: 'solana',
    installUrl: 'https://solflare.com/download',
  },
  // Any Wallet Standard wallet other than Phantom and Solflare signs in as the generic 'solana' type.
  local: { kind: 'local', name: LOCAL_WALLET_NAME, walletType: 'solana', family: 'solana', installUrl: null },
};

export const WALLET_KINDS = Object.keys(WALLET_CATALOG) as WalletKind[];
