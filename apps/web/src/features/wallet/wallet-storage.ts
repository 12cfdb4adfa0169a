import { LOCAL_STORAGE_KEYS } from '@solterm/contracts';
import type { SigningWalletType } from './wallet-kinds';

/** Keys the spec stores locally (part 1 §3) and the event that tells the rest of the app. */
export const WALLET_ADDRESS_STORAGE_KEY = LOCAL_STORAGE_KEYS.walletAddress;
export const WALLET_TYPE_STORAGE_KEY = LOCAL_STORAGE_KEYS.walletType;
export const WALLET_STATE_CHANGED_EVENT = 'walletStateChanged';

export interface StoredWallet {
  readonly address: string;
  readonly walletType: string;
}

export function readStoredWallet(storage: Storage): StoredWallet | null {
  const address = storage.getItem(WALLET_ADDRESS_STORAGE_KEY);
  if (!address) return null;
  return { address, walletType: storage.getItem(WALLET_TYPE_STORAGE_KEY) ?? '' };
}

function announceWalletStateChanged(): void {
  window.dispatchEvent(new CustomEvent(WALLET_STATE_CHANGED_EVENT));
}

export function writeStoredWallet(
  storage: Storage,
  address: string,
  walletType: SigningWalletType | 'manual',
): void {
  storage.setItem(WALLET_ADDRESS_STORAGE_KEY, address);
  storage.setItem(WALLET_TYPE_STORAGE_KEY, walletType);
  announceWalletStateChanged();
}

export function clearStoredWallet(storage: Storage): void {
  storage.removeItem(WALLET_ADDRESS_STORAGE_KEY);
  storage.removeItem(WALLET_TYPE_STORAGE_KEY);
  announceWalletStateChanged();
}
