import {
  SolanaSignMessage,
  SolanaSignTransaction,
  type SolanaSignMessageFeature,
  type SolanaSignMessageInput,
  type SolanaSignMessageOutput,
  type SolanaSignTransactionFeature,
  type SolanaSignTransactionInput,
  type SolanaSignTransactionOutput,
} from '@solana/wallet-standard-features';
import { getTransactionDecoder, getTransactionEncoder, type SignatureBytes } from '@solana/kit';
import type { IdentifierString, Wallet, WalletAccount } from '@wallet-standard/base';
import {
  StandardConnect,
  StandardDisconnect,
  StandardEvents,
  type StandardConnectFeature,
  type StandardConnectInput,
  type StandardConnectOutput,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  type StandardEventsListeners,
  type StandardEventsNames,
} from '@wallet-standard/features';
import {
  exportLocalSecretKey,
  generateLocalKeypair,
  importLocalSecretKey,
  LOCAL_WALLET_STORAGE_KEY,
  readStoredLocalWallet,
  signWithLocalKeypair,
  writeStoredLocalWallet,
  type LocalKeypair,
} from './local-keypair';
import { LOCAL_WALLET_ICON } from './local-wallet-icon';
import { registerWallet } from './register-wallet';

export const LOCAL_WALLET_NAME = 'Local wallet';
/** The Local wallet never signs for mainnet: it is a development and test-network convenience. */
export const LOCAL_WALLET_CHAINS = ['solana:localnet', 'solana:devnet', 'solana:testnet'] as const;

export type LocalWalletFeatures = StandardConnectFeature &
  StandardDisconnectFeature &
  StandardEventsFeature &
  SolanaSignMessageFeature &
  SolanaSignTransactionFeature;

const ACCOUNT_FEATURES = [SolanaSignMessage, SolanaSignTransaction] as const;

/**
 * A Wallet Standard wallet whose ed25519 key lives in this browser's localStorage. The app talks
 * to it exactly as to Phantom or Solflare (connect, signMessage, signTransaction); the extra
 * methods (create, import, export) are the wallet's own settings screen.
 */
export class LocalWallet implements Wallet {
  readonly version = '1.0.0' as const;
  readonly name = LOCAL_WALLET_NAME;
  readonly icon = LOCAL_WALLET_ICON;
  readonly chains = LOCAL_WALLET_CHAINS;

  readonly #storage: Storage;
  readonly #changeListeners = new Set<StandardEventsListeners['change']>();
  readonly #stateListeners = new Set<() => void>();
  #keypair: LocalKeypair | null = null;
  #account: WalletAccount | null = null;
  #authorized = false;
  #connected = false;

  constructor(storage: Storage = window.localStorage) {
    this.#storage = storage;
    this.#load();
  }

  get accounts(): readonly WalletAccount[] {
    return this.#connected && this.#account ? [this.#account] : [];
  }

  get features(): LocalWalletFeatures {
    return {
      [StandardConnect]: { version: '1.0.0', connect: this.#connect },
      [StandardDisconnect]: { version: '1.0.0', disconnect: this.#disconnect },
      [StandardEvents]: { version: '1.0.0', on: this.#on },
      [SolanaSignMessage]: { version: '1.1.0', signMessage: this.#signMessage },
      [SolanaSignTransaction]: {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signTransaction: this.#signTransaction,
      },
    };
  }

  /** The key's address, connected or not (for the wallet's own card). */
  get address(): string | null {
    return this.#keypair?.address ?? null;
  }

  get hasKey(): boolean {
    return this.#keypair !== null;
  }

  /** Creates a new key, replacing any existing one. */
  create(): string {
    return this.#replaceKey(generateLocalKeypair());
  }

  /** Imports a base58 64-byte secret (Phantom export) or a solana-keygen JSON array. Throws LocalKeyImportError. */
  importSecretKey(input: string): string {
    return this.#replaceKey(importLocalSecretKey(input));
  }

  /** Base58 of the 64-byte secret key; null when there is no key. */
  exportSecretKey(): string | null {
    return this.#keypair ? exportLocalSecretKey(this.#keypair) : null;
  }

  /** Re-reads localStorage (another tab may have changed the key). */
  reload(): void {
    const previousAccounts = this.accounts;
    this.#load();
    if (!this.#authorized) this.#connected = false;
    this.#emitIfAccountsChanged(previousAccounts);
    this.#notifyState();
  }

  /** Listens to any change of key, authorization or connection (for the app's settings card). */
  subscribe = (listener: () => void): (() => void) => {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  };

  #load(): void {
    const stored = readStoredLocalWallet(this.#storage);
    const keypair = stored?.keypair ?? null;
    if (keypair?.address !== this.#keypair?.address) this.#setKeypair(keypair);
    this.#authorized = stored?.authorized ?? false;
  }

  #setKeypair(keypair: LocalKeypair | null): void {
    this.#keypair = keypair;
    this.#account = keypair
      ? Object.freeze({
          address: keypair.address,
          publicKey: keypair.publicKey.slice(),
          chains: this.chains,
          features: ACCOUNT_FEATURES,
          label: LOCAL_WALLET_NAME,
        })
      : null;
  }

  #replaceKey(keypair: LocalKeypair): string {
    const previousAccounts = this.accounts;
    this.#setKeypair(keypair);
    // A new key keeps the app's authorization: the same app is still talking to the same wallet.
    writeStoredLocalWallet(this.#storage, keypair, this.#authorized);
    this.#emitIfAccountsChanged(previousAccounts);
    this.#notifyState();
    return keypair.address;
  }

  #connect = async ({ silent }: StandardConnectInput = {}): Promise<StandardConnectOutput> => {
    if (!this.#keypair) {
      if (silent) return { accounts: [] };
      throw new Error('No Local wallet yet. Create or import one first.');
    }
    // A silent connect succeeds only for an app the user connected before (a trusted app).
    if (silent && !this.#authorized) return { accounts: [] };
    const previousAccounts = this.accounts;
    this.#connected = true;
    if (!this.#authorized) {
      this.#authorized = true;
      writeStoredLocalWallet(this.#storage, this.#keypair, true);
    }
    this.#emitIfAccountsChanged(previousAccounts);
    this.#notifyState();
    return { accounts: this.accounts };
  };

  #disconnect = async (): Promise<void> => {
    const previousAccounts = this.accounts;
    this.#connected = false;
    this.#authorized = false;
    if (this.#keypair) writeStoredLocalWallet(this.#storage, this.#keypair, false);
    this.#emitIfAccountsChanged(previousAccounts);
    this.#notifyState();
  };

  #on = <E extends StandardEventsNames>(event: E, listener: StandardEventsListeners[E]): (() => void) => {
    // 'change' is the only Standard event.
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  };

  #emitIfAccountsChanged(previous: readonly WalletAccount[]): void {
    const next = this.accounts;
    if (previous.length === next.length && previous.every((account, index) => account === next[index]))
      return;
    for (const listener of [...this.#changeListeners]) listener({ accounts: next });
  }

  #notifyState(): void {
    for (const listener of [...this.#stateListeners]) listener();
  }

  #keypairFor(account: WalletAccount, chain?: IdentifierString): LocalKeypair {
    const keypair = this.#keypair;
    if (!this.#connected || !keypair) throw new Error('The Local wallet is not connected.');
    if (account.address !== keypair.address)
      throw new Error(`The Local wallet has no account ${account.address}.`);
    if (chain !== undefined && !(this.chains as readonly string[]).includes(chain)) {
      throw new Error(`The Local wallet does not sign for ${chain}.`);
    }
    return keypair;
  }

  #signMessage = async (
    ...inputs: readonly SolanaSignMessageInput[]
  ): Promise<readonly SolanaSignMessageOutput[]> =>
    inputs.map(({ account, message }) => {
      const keypair = this.#keypairFor(account);
      return {
        signedMessage: message,
        signature: signWithLocalKeypair(keypair, message),
        signatureType: 'ed25519',
      };
    });

  #signTransaction = async (
    ...inputs: readonly SolanaSignTransactionInput[]
  ): Promise<readonly SolanaSignTransactionOutput[]> =>
    inputs.map(({ account, transaction, chain }) => {
      const keypair = this.#keypairFor(account, chain);
      const decoded = getTransactionDecoder().decode(transaction);
      if (!(keypair.address in decoded.signatures)) {
        throw new Error(`This transaction does not need a signature from ${keypair.address}.`);
      }
      const signature = signWithLocalKeypair(
        keypair,
        Uint8Array.from(decoded.messageBytes),
      ) as SignatureBytes;
      // Spreading keeps the signer order, so every other slot stays where it was, untouched.
      const signed = {
        ...decoded,
        signatures: Object.freeze({ ...decoded.signatures, [keypair.address]: signature }),
      };
      return { signedTransaction: Uint8Array.from(getTransactionEncoder().encode(signed)) };
    });
}

let sharedLocalWallet: LocalWallet | null = null;

/** The page's one Local wallet (created on first use, kept in sync with other tabs). */
export function getLocalWallet(): LocalWallet {
  if (!sharedLocalWallet) {
    const wallet = new LocalWallet(window.localStorage);
    window.addEventListener('storage', (event) => {
      if (event.key === LOCAL_WALLET_STORAGE_KEY || event.key === null) wallet.reload();
    });
    sharedLocalWallet = wallet;
  }
  return sharedLocalWallet;
}

let registered = false;

/** Registers the Local wallet with Wallet Standard once per page, so the app discovers it like any extension. */
export function registerLocalWallet(): LocalWallet {
  const wallet = getLocalWallet();
  if (!registered) {
    registered = true;
    registerWallet(wallet);
  }
  return wallet;
}
