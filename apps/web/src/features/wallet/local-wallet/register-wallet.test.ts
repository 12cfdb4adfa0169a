import { getWallets } from '@wallet-standard/app';
import type { Wallet, WindowAppReadyEventAPI, WindowRegisterWalletEvent } from '@wallet-standard/base';
import { describe, expect, it, vi } from 'vitest';
import { LocalWallet } from './local-wallet';
import { registerWallet } from './register-wallet';

function appReadyEvent(api: WindowAppReadyEventAPI): Event {
  const event = new Event('wallet-standard:app-ready');
  Object.defineProperty(event, 'detail', { value: api });
  return event;
}

describe('registerWallet (Wallet Standard registration protocol)', () => {
  it('an app already listening receives the wallet through wallet-standard:register-wallet', () => {
    const target = new EventTarget() as Window;
    const wallet = new LocalWallet(localStorage);
    const register = vi.fn(() => () => {});
    target.addEventListener('wallet-standard:register-wallet', (event) =>
      (event as WindowRegisterWalletEvent).detail({ register }),
    );

    registerWallet(wallet, target);

    expect(register).toHaveBeenCalledExactlyOnceWith(wallet);
  });

  it('an app that starts later receives the wallet when it dispatches wallet-standard:app-ready', () => {
    const target = new EventTarget() as Window;
    const wallet = new LocalWallet(localStorage);
    registerWallet(wallet, target);

    const register = vi.fn(() => () => {});
    target.dispatchEvent(appReadyEvent({ register }));

    expect(register).toHaveBeenCalledExactlyOnceWith(wallet);
  });

  it('the register-wallet event cannot be stopped by one listener', () => {
    const target = new EventTarget() as Window;
    let captured: Event | null = null;
    target.addEventListener('wallet-standard:register-wallet', (event) => (captured = event));
    registerWallet(new LocalWallet(localStorage), target);
    expect(captured).not.toBeNull();
    expect(() => captured!.stopPropagation()).toThrow();
    expect((captured as unknown as WindowRegisterWalletEvent).type).toBe('wallet-standard:register-wallet');
  });

  it('works with @wallet-standard/app getWallets() in both orders', () => {
    const early: Wallet = new LocalWallet(localStorage);
    registerWallet(early); // before the app: caught by the app-ready event getWallets() dispatches
    const wallets = getWallets();
    expect(wallets.get()).toContain(early);

    const onRegister = vi.fn();
    wallets.on('register', onRegister);
    const late: Wallet = new LocalWallet(localStorage);
    registerWallet(late); // after the app: caught by its register-wallet listener
    expect(wallets.get()).toContain(late);
    expect(onRegister).toHaveBeenCalledWith(late);
  });
});
