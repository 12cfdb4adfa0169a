import type { Wallets } from '@wallet-standard/app';
import type { Wallet } from '@wallet-standard/base';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalWallet } from './local-wallet/local-wallet';
import { createStandardConnector, type WalletConnector, type WalletSession } from './wallet-connectors';
import type { WalletKind } from './wallet-kinds';
import { WalletManager } from './wallet-manager';
import {
  WALLET_ADDRESS_STORAGE_KEY,
  WALLET_STATE_CHANGED_EVENT,
  WALLET_TYPE_STORAGE_KEY,
} from './wallet-storage';

const STORED = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const OTHER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

function fakeSession(
  kind: WalletKind,
  address: string,
): WalletSession & { disconnect: ReturnType<typeof vi.fn> } {
  return {
    kind,
    address,
    signMessage: vi.fn(async () => new Uint8Array(64)),
    signTransaction: vi.fn(async (tx: Uint8Array) => tx),
    getChainId: async () => undefined,
    disconnect: vi.fn(async () => undefined),
    onAccountLost: () => () => {},
  };
}

/** A connector whose behaviour per attempt is scripted; records when it was asked (fake clock). */
function fakeConnector(
  kind: WalletKind,
  { installedAt = 0, silentAddress = null }: { installedAt?: number; silentAddress?: string | null } = {},
) {
  const silentCalls: number[] = [];
  const connector: WalletConnector = {
    kind,
    // The extension injects itself at `installedAt` on the fake clock.
    isInstalled: () => Date.now() >= installedAt,
    icon: () => null,
    connect: vi.fn(async () => fakeSession(kind, STORED)),
    connectSilently: vi.fn(async () => {
      silentCalls.push(Date.now());
      return silentAddress ? fakeSession(kind, silentAddress) : null;
    }),
  };
  return { connector, silentCalls };
}

function uninstalled(kind: WalletKind): WalletConnector {
  return { kind, isInstalled: () => false, icon: () => null, connect: vi.fn(), connectSilently: vi.fn() };
}

function connectors(
  overrides: Partial<Record<WalletKind, WalletConnector>> = {},
): Record<WalletKind, WalletConnector> {
  return {
    metamask: uninstalled('metamask'),
    phantom: uninstalled('phantom'),
    solflare: uninstalled('solflare'),
    local: uninstalled('local'),
    ...overrides,
  };
}

function createManager(
  overrides: Partial<Record<WalletKind, WalletConnector>>,
  notifyBackendDisconnect: () => Promise<unknown> = vi.fn(async () => undefined),
) {
  return new WalletManager({
    connectors: connectors(overrides),
    storage: localStorage,
    notifyBackendDisconnect,
  });
}

function store(address: string, walletType: string) {
  localStorage.setItem(WALLET_ADDRESS_STORAGE_KEY, address);
  localStorage.setItem(WALLET_TYPE_STORAGE_KEY, walletType);
}

const storedData = () => [
  localStorage.getItem(WALLET_ADDRESS_STORAGE_KEY),
  localStorage.getItem(WALLET_TYPE_STORAGE_KEY),
];

describe('WalletManager restore on load (spec part 1 §4: 3 attempts, 500 ms × attempt)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tries at 500, 1000 and 1500 ms after each other, then gives up and keeps stored data', async () => {
    // Given a stored Phantom address and a Phantom that does not trust the app
    store(STORED, 'phantom');
    const phantom = fakeConnector('phantom', { silentAddress: null });
    const manager = createManager({ phantom: phantom.connector });

    // When the page loads
    manager.start();
    expect(manager.getState().isRestoring).toBe(true);
    await vi.advanceTimersByTimeAsync(499);
    expect(phantom.silentCalls).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);

    // Then three silent attempts ran, waiting 500, 1000 and 1500 ms
    expect(phantom.silentCalls).toEqual([500, 1500, 3000]);
    expect(phantom.connector.connect).not.toHaveBeenCalled();
    expect(manager.getState()).toMatchObject({ connected: null, isRestoring: false });
    expect(storedData()).toEqual([STORED, 'phantom']);
  });

  it('reconnects silently when the wallet is trusted and the address matches', async () => {
    store(STORED, 'phantom');
    // The extension injects itself late: absent at attempt 1 (500 ms), present at attempt 2 (1500 ms).
    const phantom = fakeConnector('phantom', { installedAt: 1000, silentAddress: STORED });
    const manager = createManager({ phantom: phantom.connector });
    const onChanged = vi.fn();
    window.addEventListener(WALLET_STATE_CHANGED_EVENT, onChanged);

    manager.start();
    await vi.advanceTimersByTimeAsync(10_000);

    expect(phantom.silentCalls).toEqual([1500]);
    expect(manager.getState().connected).toEqual({
      address: STORED,
      walletType: 'phantom',
      name: 'Phantom',
      kind: 'phantom',
    });
    expect(manager.getState().isRestoring).toBe(false);
    expect(onChanged).toHaveBeenCalled();
    window.removeEventListener(WALLET_STATE_CHANGED_EVENT, onChanged);
  });

  it('does not connect when the trusted wallet has another address, and keeps stored data', async () => {
    store(STORED, 'solflare');
    const solflare = fakeConnector('solflare', { silentAddress: OTHER });
    const manager = createManager({ solflare: solflare.connector });

    manager.start();
    await vi.advanceTimersByTimeAsync(10_000);

    expect(solflare.silentCalls).toEqual([500]);
    expect(manager.getState().connected).toBeNull();
    expect(storedData()).toEqual([STORED, 'solflare']);
  });

  it('matches MetaMask addresses case-insensitively', async () => {
    const evm = '0x52908400098527886E0F7030069857D2E4169EE7';
    store(evm, 'metamask');
    const metamask = fakeConnector('metamask', { silentAddress: evm.toLowerCase() });
    const manager = createManager({ metamask: metamask.connector });
    manager.start();
    await vi.advanceTimersByTimeAsync(600);
    expect(manager.getState().connected?.kind).toBe('metamask');
  });

  it('re-checks installed wallets after 1 s (extensions inject late)', async () => {
    const solflare = fakeConnector('solflare', { installedAt: 800 });
    const manager = createManager({ solflare: solflare.connector });
    manager.start();
    const installed = () =>
      manager.getState().wallets.find((wallet) => wallet.kind === 'solflare')?.installed;
    expect(installed()).toBe(false);
    await vi.advanceTimersByTimeAsync(999);
    expect(installed()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(installed()).toBe(true);
  });

  it('restores nothing without stored data or for a manual address', async () => {
    const phantom = fakeConnector('phantom', { silentAddress: STORED });
    const manager = createManager({ phantom: phantom.connector });
    manager.start();
    expect(manager.getState().isRestoring).toBe(false);
    store(STORED, 'manual');
    createManager({ phantom: phantom.connector }).start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(phantom.silentCalls).toEqual([]);
  });

  it('restores the Local wallet (wallet_type solana) through Wallet Standard, only while enabled', async () => {
    const local = new LocalWallet(localStorage);
    local.create();
    await local.features['standard:connect'].connect(); // the app was trusted in an earlier visit
    store(local.address!, 'solana');
    const registry: Wallets = { get: () => [local as Wallet], on: () => () => {}, register: () => () => {} };

    const disabled = new WalletManager({
      connectors: connectors({ local: createStandardConnector('local', registry) }),
      storage: localStorage,
      notifyBackendDisconnect: async () => undefined,
      localWalletEnabled: false,
    });
    disabled.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(disabled.getState().connected).toBeNull();
    expect(disabled.getState().wallets.map((wallet) => wallet.kind)).not.toContain('local');

    const enabled = new WalletManager({
      connectors: connectors({ local: createStandardConnector('local', registry) }),
      storage: localStorage,
      notifyBackendDisconnect: async () => undefined,
      localWalletEnabled: true,
    });
    enabled.start();
    await vi.advanceTimersByTimeAsync(600);
    expect(enabled.getState().connected).toMatchObject({
      kind: 'local',
      walletType: 'solana',
      address: local.address,
    });
  });
});

describe('WalletManager connect / disconnect', () => {
  it('connect stores wallet_address / wallet_type and fires walletStateChanged', async () => {
    const phantom = fakeConnector('phantom');
    const manager = createManager({ phantom: phantom.connector });
    const onChanged = vi.fn();
    window.addEventListener(WALLET_STATE_CHANGED_EVENT, onChanged);

    const connected = await manager.connect('phantom');

    expect(connected).toEqual({ address: STORED, walletType: 'phantom', name: 'Phantom', kind: 'phantom' });
    expect(storedData()).toEqual([STORED, 'phantom']);
    expect(onChanged).toHaveBeenCalledTimes(1);
    window.removeEventListener(WALLET_STATE_CHANGED_EVENT, onChanged);
  });

  it('disconnect: extension, then backend, then local data; errors ignored', async () => {
    const session = fakeSession('phantom', STORED);
    session.disconnect.mockRejectedValue(new Error('extension gone'));
    const phantom: WalletConnector = { ...fakeConnector('phantom').connector, connect: async () => session };
    const backend = vi.fn(async () => {
      throw new Error('offline');
    });
    const manager = createManager({ phantom }, backend);
    await manager.connect('phantom');

    await expect(manager.disconnect()).resolves.toBeUndefined();

    expect(session.disconnect).toHaveBeenCalled();
    expect(backend).toHaveBeenCalled();
    expect(storedData()).toEqual([null, null]);
    expect(manager.getState().connected).toBeNull();
  });

  it('signing without a connected wallet fails with NOT_CONNECTED', () => {
    expect(() => createManager({}).signMessage(new Uint8Array([1]))).toThrow('No wallet connected');
  });
});
