import { useSyncExternalStore } from 'react';
import { getLocalWallet } from './local-wallet';

export interface LocalWalletControls {
  /** The key's address, or null before Create / Import. */
  readonly address: string | null;
  /** Creates a new key (replacing any existing one); returns its address. */
  create(): string;
  /** Imports a base58 64-byte secret or a solana-keygen JSON array; throws LocalKeyImportError. */
  importSecretKey(input: string): string;
  /** Base58 of the 64-byte secret key, as Phantom exports it. */
  exportSecretKey(): string | null;
}

/** The Local wallet's own settings (create / import / export), kept in sync with its storage. */
export function useLocalWallet(): LocalWalletControls {
  const wallet = getLocalWallet();
  const address = useSyncExternalStore(wallet.subscribe, () => wallet.address);
  return {
    address,
    create: () => wallet.create(),
    importSecretKey: (input) => wallet.importSecretKey(input),
    exportSecretKey: () => wallet.exportSecretKey(),
  };
}
