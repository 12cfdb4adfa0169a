import { WALLET_INSTALL_RECHECK_MS } from '@solterm/contracts';
import type { WalletConnector, WalletSession } from './wallet-connectors';
import { WalletError } from './wallet-errors';
import { WALLET_CATALOG, WALLET_KINDS, type SigningWalletType, type WalletKind } from './wallet-kinds';
import { restoreWallet } from './wallet-restore';
import {
  clearStoredWallet,
  readStoredWallet,
  WALLET_STATE_CHANGED_EVENT,
  writeStoredWallet,
} from './wallet-storage';

export interface DiscoveredWallet {
  readonly kind: WalletKind;
  readonly name: string;
  readonly walletType: SigningWalletType;
  readonly family: 'evm' | 'solana';
  readonly installed: boolean;
  readonly icon: string | null;
  readonly installUrl: string | null;
}

export interface ConnectedWallet {
  readonly address: string;
  readonly walletType: SigningWalletType;
  readonly name: string;
  readonly kind: WalletKind;
}

export interface WalletState {
  readonly wallets: readonly DiscoveredWallet[];
  readonly connected: ConnectedWallet | null;
  /** True while the stored wallet is being silently reconnected on load. */
  readonly isRestoring: boolean;
}

export interface WalletManagerOptions {
  readonly connectors: Readonly<Record<WalletKind, WalletConnector>>;
  readonly storage: Storage;
  /** Tells the server the wallet is gone (POST /auth/disconnect-wallet); failures are ignored. */
  readonly notifyBackendDisconnect: () => Promise<unknown>;
  /** Subscribes to wallets appearing or leaving (Wallet Standard register / unregister). */
  readonly onWalletsChanged?: (listener: () => void) => () => void;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly localWalletEnabled?: boolean;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Which connectors may hold a stored wallet of this type. 'solana' is any other Standard wallet: the Local wallet. */
const RESTORE_CANDIDATES: Readonly<Record<string, readonly WalletKind[]>> = {
  metamask: ['metamask'],
  phantom: ['phantom'],
  solflare: ['solflare'],
  solana: ['local'],
};

/**
 * The wallet state of the page, free of React: discovery, connect / disconnect, signing through
 * whichever wallet is connected, and the spec's restore on load. The React provider is a thin
 * adapter over it (useSyncExternalStore).
 */
export class WalletManager {
  readonly #options: WalletManagerOptions;
  readonly #listeners = new Set<() => void>();
  #localWalletEnabled: boolean;
  #session: WalletSession | null = null;
  #stopWatchingSession: () => void = () => {};
  #generation = 0;
  #state: WalletState;

  constructor(options: WalletManagerOptions) {
    this.#options = options;
    this.#localWalletEnabled = options.localWalletEnabled ?? true;
    this.#state = { wallets: this.#discover(), connected: null, isRestoring: false };
  }

  getState = (): WalletState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Starts discovery, the 1 s install re-check and the restore of a stored wallet. Returns stop. */
  start(): () => void {
    const generation = ++this.#generation;
    const isCancelled = () => generation !== this.#generation;
    const stopWatchingWallets = this.#options.onWalletsChanged?.(() => this.refreshWallets()) ?? (() => {});
    const recheck = setTimeout(() => this.refreshWallets(), WALLET_INSTALL_RECHECK_MS);
    this.refreshWallets();
    void this.#restore(isCancelled);
    return () => {
      if (generation === this.#generation) this.#generation += 1;
      clearTimeout(recheck);
      stopWatchingWallets();
    };
  }

  /** The Local wallet is offered on non-mainnet networks only. */
  setLocalWalletEnabled(enabled: boolean): void {
    if (enabled === this.#localWalletEnabled) return;
    this.#localWalletEnabled = enabled;
    if (!enabled && this.#session?.kind === 'local') this.#dropSession();
    this.refreshWallets();
  }

  refreshWallets(): void {
    const wallets = this.#discover();
    const same =
      wallets.length === this.#state.wallets.length &&
      wallets.every((wallet, index) => {
        const previous = this.#state.wallets[index];
        return (
          previous?.kind === wallet.kind &&
          previous.installed === wallet.installed &&
          previous.icon === wallet.icon
        );
      });
    if (!same) this.#setState({ wallets });
  }

  /** Connects a wallet with its prompt; sets wallet_address / wallet_type and fires walletStateChanged. */
  async connect(kind: WalletKind): Promise<ConnectedWallet> {
    if (kind === 'local' && !this.#localWalletEnabled) {
      throw new WalletError('UNSUPPORTED', 'The Local wallet is offered on test networks only.');
    }
    const session = await this.#connector(kind).connect();
    this.#adopt(session);
    writeStoredWallet(this.#options.storage, session.address, WALLET_CATALOG[kind].walletType);
    return this.#state.connected as ConnectedWallet;
  }

  /** Extension disconnect, backend disconnect, clear local data; errors ignored (spec part 1 §4). */
  async disconnect(): Promise<void> {
    const session = this.#session;
    this.#dropSession();
    await session?.disconnect().catch(() => undefined);
    await this.#options.notifyBackendDisconnect().catch(() => undefined);
    clearStoredWallet(this.#options.storage);
  }

  /** Ends the page's connection without touching storage or the server (after logout cleared them). */
  forget(): void {
    const session = this.#session;
    this.#dropSession();
    void session?.disconnect().catch(() => undefined);
  }

  signMessage(message: Uint8Array): Promise<Uint8Array> {
    return this.#requireSession().signMessage(message);
  }

  signTransaction(transaction: Uint8Array): Promise<Uint8Array> {
    return this.#requireSession().signTransaction(transaction);
  }

  /** Hex EVM chain id of the connected MetaMask; undefined for Solana wallets. */
  getChainId(): Promise<string | undefined> {
    return this.#requireSession().getChainId();
  }

  #requireSession(): WalletSession {
    if (!this.#session)
      throw new WalletError('NOT_CONNECTED', 'No wallet connected. Please connect a wallet first.');
    return this.#session;
  }

  #discover(): DiscoveredWallet[] {
    return WALLET_KINDS.filter((kind) => kind !== 'local' || this.#localWalletEnabled).map((kind) => {
      const { name, walletType, family, installUrl } = WALLET_CATALOG[kind];
      const connector = this.#connector(kind);
      return {
        kind,
        name,
        walletType,
        family,
        installUrl,
        installed: connector.isInstalled(),
        icon: connector.icon(),
      };
    });
  }

  async #restore(isCancelled: () => boolean): Promise<void> {
    const stored = readStoredWallet(this.#options.storage);
    const kinds = (stored && RESTORE_CANDIDATES[stored.walletType]) || [];
    if (!stored || kinds.length === 0 || this.#session) return;
    this.#setState({ isRestoring: true });
    const outcome = await restoreWallet({
      stored,
      candidates: kinds.map((kind) => this.#connector(kind)),
      sleep: this.#options.sleep ?? defaultSleep,
      isCancelled: () => isCancelled() || this.#session !== null,
    });
    if (isCancelled()) return;
    // A connect the user made meanwhile wins over the restore.
    if (outcome.status === 'restored' && !this.#session) {
      this.#adopt(outcome.session);
      window.dispatchEvent(new CustomEvent(WALLET_STATE_CHANGED_EVENT));
    }
    this.#setState({ isRestoring: false });
  }

  /** The connector of a kind; the Local wallet reads as not installed while disabled (mainnet). */
  #connector(kind: WalletKind): WalletConnector {
    const connector = this.#options.connectors[kind];
    if (kind !== 'local') return connector;
    return { ...connector, isInstalled: () => this.#localWalletEnabled && connector.isInstalled() };
  }

  #adopt(session: WalletSession): void {
    this.#stopWatchingSession();
    this.#session = session;
    this.#stopWatchingSession = session.onAccountLost(() => {
      if (this.#session === session) this.#dropSession();
    });
    const { name, walletType } = WALLET_CATALOG[session.kind];
    this.#setState({ connected: { address: session.address, walletType, name, kind: session.kind } });
  }

  #dropSession(): void {
    this.#stopWatchingSession();
    this.#stopWatchingSession = () => {};
    this.#session = null;
    if (this.#state.connected) this.#setState({ connected: null });
  }

  #setState(patch: Partial<WalletState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }
}
