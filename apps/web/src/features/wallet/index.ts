// The wallet feature's public face: what other features may import.
export { WalletGlyph } from './components/wallet-glyph';
export { getLocalWallet } from './local-wallet/local-wallet';
export { useWallet } from './wallet-context';
export { WalletError, isUserRejection } from './wallet-errors';
export { WALLET_CATALOG } from './wallet-kinds';
export type { WalletKind } from './wallet-kinds';
export type { ConnectedWallet, DiscoveredWallet } from './wallet-manager';
export { WALLET_API_PATHS, linkWalletToUser } from './wallet-sign-in';
export { WALLET_STATE_CHANGED_EVENT } from './wallet-storage';
