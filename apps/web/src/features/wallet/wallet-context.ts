import { createContext, useContext } from 'react';
import type { ConnectedWallet, DiscoveredWallet } from './wallet-manager';
import type { WalletKind } from './wallet-kinds';

export interface WalletContextValue {
  /** MetaMask, Phantom, Solflare and (on test networks) the Local wallet, each with its installed flag. */
  readonly wallets: readonly DiscoveredWallet[];
  /** The wallet connected in this page, or null (stored wallet_address may still exist: see spec §4 restore). */
  readonly connected: ConnectedWallet | null;
  /** True while a stored wallet is being silently reconnected on load. */
  readonly isRestoring: boolean;
  /** Connects with the wallet's prompt; sets wallet_address / wallet_type and fires walletStateChanged. */
  connect(kind: WalletKind): Promise<ConnectedWallet>;
  /** Extension disconnect, POST /auth/disconnect-wallet, clear local data; never throws. */
  disconnect(): Promise<void>;
  /** Signs bytes with the connected wallet: ed25519 for Solana wallets, EIP-191 personal_sign for MetaMask. */
  signMessage(message: Uint8Array): Promise<Uint8Array>;
  /** Signs a wire-format Solana transaction (legacy or v0) and returns it with this wallet's signature added. */
  signTransaction(transaction: Uint8Array): Promise<Uint8Array>;
  /** Hex EVM chain id of a connected MetaMask; undefined for Solana wallets. */
  getChainId(): Promise<string | undefined>;
}

export const WalletContext = createContext<WalletContextValue | null>(null);

/** The page's wallet: discovery, connection and signing. Use inside {@link WalletProvider}. */
export function useWallet(): WalletContextValue {
  const value = useContext(WalletContext);
  if (!value) throw new Error('useWallet must be used inside <WalletProvider>');
  return value;
}
