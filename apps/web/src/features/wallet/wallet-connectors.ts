import {
  SolanaSignMessage,
  SolanaSignTransaction,
  type SolanaSignMessageFeature,
  type SolanaSignTransactionFeature,
} from '@solana/wallet-standard-features';
import type { Wallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import {
  StandardConnect,
  StandardDisconnect,
  StandardEvents,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
} from '@wallet-standard/features';
import { WalletError } from './wallet-errors';
import { WALLET_CATALOG, type WalletKind } from './wallet-kinds';

/** A live connection to one account of one wallet. */
export interface WalletSession {
  readonly kind: WalletKind;
  readonly address: string;
  signMessage(message: Uint8Array): Promise<Uint8Array>;
  signTransaction(transaction: Uint8Array): Promise<Uint8Array>;
  /** EVM chain id as hex (MetaMask); undefined for Solana wallets. */
  getChainId(): Promise<string | undefined>;
  disconnect(): Promise<void>;
  /** Calls back when the wallet drops or switches away from this account. */
  onAccountLost(listener: () => void): () => void;
}

/** One way of reaching one wallet: is it there, connect with a prompt, connect only if already trusted. */
export interface WalletConnector {
  readonly kind: WalletKind;
  isInstalled(): boolean;
  icon(): string | null;
  connect(): Promise<WalletSession>;
  /** The trusted-app path: resolves null when the wallet would have to ask the user. Throws WALLET_NOT_FOUND. */
  connectSilently(): Promise<WalletSession | null>;
}

// ---------------------------------------------------------------- Wallet Standard (Solana)

type SignInCapableWallet = Wallet & {
  features: StandardConnectFeature &
    SolanaSignMessageFeature &
    Partial<StandardDisconnectFeature & StandardEventsFeature & SolanaSignTransactionFeature>;
};

/** A wallet the app can sign in with: Wallet Standard connect plus Solana message signing. */
export function isSolanaSignInWallet(wallet: Wallet): wallet is SignInCapableWallet {
  return (
    StandardConnect in wallet.features &&
    SolanaSignMessage in wallet.features &&
    wallet.chains.some((chain) => chain.startsWith('solana:'))
  );
}

export function findStandardWallet(registry: Wallets, name: string): SignInCapableWallet | null {
  return (
    registry
      .get()
      .find(
        (wallet): wallet is SignInCapableWallet => wallet.name === name && isSolanaSignInWallet(wallet),
      ) ?? null
  );
}

function pickSolanaAccount(accounts: readonly WalletAccount[]): WalletAccount | null {
  return (
    accounts.find((account) => account.chains.some((chain) => chain.startsWith('solana:'))) ??
    accounts[0] ??
    null
  );
}

function createStandardSession(
  kind: WalletKind,
  wallet: SignInCapableWallet,
  account: WalletAccount,
): WalletSession {
  return {
    kind,
    address: account.address,
    async signMessage(message) {
      const [output] = await wallet.features[SolanaSignMessage].signMessage({ account, message });
      if (!output) throw new WalletError('UNSUPPORTED', `${wallet.name} returned no signature.`);
      return output.signature;
    },
    async signTransaction(transaction) {
      const feature = wallet.features[SolanaSignTransaction];
      if (!feature) throw new WalletError('UNSUPPORTED', `${wallet.name} cannot sign transactions.`);
      const [output] = await feature.signTransaction({ account, transaction });
      if (!output) throw new WalletError('UNSUPPORTED', `${wallet.name} returned no transaction.`);
      return output.signedTransaction;
    },
    getChainId: async () => undefined,
    async disconnect() {
      await wallet.features[StandardDisconnect]?.disconnect();
    },
    onAccountLost(listener) {
      const events = wallet.features[StandardEvents];
      if (!events) return () => {};
      return events.on('change', ({ accounts }) => {
        if (accounts && !accounts.some((candidate) => candidate.address === account.address)) listener();
      });
    },
  };
}

/** Phantom, Solflare and the Local wallet: found by name in the Wallet Standard registry. */
export function createStandardConnector(kind: WalletKind, registry: Wallets): WalletConnector {
  const name = WALLET_CATALOG[kind].name;
  const find = () => findStandardWallet(registry, name);
  const open = async (silent: boolean): Promise<WalletSession | null> => {
    const wallet = find();
    if (!wallet) throw new WalletError('WALLET_NOT_FOUND', `${name} is not installed.`);
    const { accounts } = await wallet.features[StandardConnect].connect(
      silent ? { silent: true } : undefined,
    );
    const account = pickSolanaAccount(accounts.length > 0 ? accounts : wallet.accounts);
    if (!account) {
      if (silent) return null;
      throw new WalletError('NO_ACCOUNTS', `${name} gave no account.`);
    }
    return createStandardSession(kind, wallet, account);
  };
  return {
    kind,
    isInstalled: () => find() !== null,
    icon: () => find()?.icon ?? null,
    connect: async () => (await open(false)) as WalletSession,
    async connectSilently() {
      if (!find()) throw new WalletError('WALLET_NOT_FOUND', `${name} is not installed.`);
      try {
        return await open(true);
      } catch {
        // Wallets that refuse a silent connect (untrusted app) throw; that is the "not trusted" answer.
        return null;
      }
    },
  };
}

// ---------------------------------------------------------------- MetaMask (EIP-1193)

export interface Eip1193Provider {
  readonly isMetaMask?: boolean;
  readonly providers?: readonly Eip1193Provider[];
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): void;
  removeListener?(event: string, listener: (...args: unknown[]) => void): void;
}

/** window.ethereum when it is MetaMask (or MetaMask among several injected providers). */
export function getMetaMaskProvider(target: Window = window): Eip1193Provider | null {
  const ethereum = (target as Window & { ethereum?: Eip1193Provider }).ethereum;
  if (!ethereum) return null;
  const fromList = ethereum.providers?.find((provider) => provider.isMetaMask === true);
  if (fromList) return fromList;
  return ethereum.isMetaMask === true ? ethereum : null;
}

const toHex = (bytes: Uint8Array): string =>
  `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;

function fromHex(hex: string): Uint8Array {
  const digits = hex.startsWith('0x') ? hex.slice(2) : hex;
  const bytes = new Uint8Array(digits.length / 2);
  for (let index = 0; index < bytes.length; index += 1) {
    bytes[index] = Number.parseInt(digits.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

function readAccounts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function createMetaMaskSession(provider: Eip1193Provider, address: string): WalletSession {
  return {
    kind: 'metamask',
    address,
    async signMessage(message) {
      // EIP-191 personal_sign: params are [hex of the message bytes, address].
      const signature = await provider.request({
        method: 'personal_sign',
        params: [toHex(message), address],
      });
      if (typeof signature !== 'string')
        throw new WalletError('UNSUPPORTED', 'MetaMask returned no signature.');
      return fromHex(signature);
    },
    signTransaction: async () => {
      throw new WalletError(
        'UNSUPPORTED',
        'MetaMask cannot sign Solana transactions. Connect a Solana wallet to trade.',
      );
    },
    async getChainId() {
      const chainId = await provider.request({ method: 'eth_chainId' });
      return typeof chainId === 'string' ? chainId : undefined;
    },
    async disconnect() {
      // Not every MetaMask version knows wallet_revokePermissions; the local session ends either way.
      await provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] });
    },
    onAccountLost(listener) {
      if (!provider.on) return () => {};
      const onAccountsChanged = (accounts: unknown) => {
        const lower = readAccounts(accounts).map((account) => account.toLowerCase());
        if (!lower.includes(address.toLowerCase())) listener();
      };
      provider.on('accountsChanged', onAccountsChanged as (...args: unknown[]) => void);
      return () =>
        provider.removeListener?.('accountsChanged', onAccountsChanged as (...args: unknown[]) => void);
    },
  };
}

export function createMetaMaskConnector(target: Window = window): WalletConnector {
  const provider = () => getMetaMaskProvider(target);
  const require = (): Eip1193Provider => {
    const found = provider();
    if (!found) throw new WalletError('WALLET_NOT_FOUND', 'MetaMask is not installed.');
    return found;
  };
  return {
    kind: 'metamask',
    isInstalled: () => provider() !== null,
    icon: () => null,
    async connect() {
      const ethereum = require();
      const [address] = readAccounts(await ethereum.request({ method: 'eth_requestAccounts' }));
      if (!address) throw new WalletError('NO_ACCOUNTS', 'MetaMask gave no account.');
      return createMetaMaskSession(ethereum, address);
    },
    async connectSilently() {
      const ethereum = require();
      try {
        // eth_accounts never prompts: it lists accounts only for a site the user already trusts.
        const [address] = readAccounts(await ethereum.request({ method: 'eth_accounts' }));
        return address ? createMetaMaskSession(ethereum, address) : null;
      } catch {
        return null;
      }
    },
  };
}
