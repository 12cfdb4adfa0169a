import type {
  Wallet,
  WindowAppReadyEvent,
  WindowRegisterWalletEvent,
  WindowRegisterWalletEventCallback,
} from '@wallet-standard/base';

/**
 * Registers a wallet with every Wallet Standard app on the page, whichever loads first: it
 * dispatches `wallet-standard:register-wallet` for apps already listening and listens for
 * `wallet-standard:app-ready` from apps that start later. The same protocol as
 * @wallet-standard/wallet's registerWallet, which is not a dependency here.
 */
export function registerWallet(wallet: Wallet, target: Window = window): void {
  const callback: WindowRegisterWalletEventCallback = ({ register }) => register(wallet);
  try {
    target.dispatchEvent(new RegisterWalletEvent(callback));
  } catch (error) {
    console.error('wallet-standard:register-wallet event could not be dispatched\n', error);
  }
  try {
    target.addEventListener('wallet-standard:app-ready', (event) =>
      callback((event as WindowAppReadyEvent).detail),
    );
  } catch (error) {
    console.error('wallet-standard:app-ready event listener could not be added\n', error);
  }
}

class RegisterWalletEvent extends Event implements WindowRegisterWalletEvent {
  readonly #detail: WindowRegisterWalletEventCallback;

  get detail(): WindowRegisterWalletEventCallback {
    return this.#detail;
  }

  override get type(): 'wallet-standard:register-wallet' {
    return 'wallet-standard:register-wallet';
  }

  constructor(callback: WindowRegisterWalletEventCallback) {
    super('wallet-standard:register-wallet', { bubbles: false, cancelable: false, composed: false });
    this.#detail = callback;
  }

  // The protocol's events are unstoppable: every app on the page must see them.
  override preventDefault(): never {
    throw new Error('preventDefault cannot be called');
  }

  override stopImmediatePropagation(): never {
    throw new Error('stopImmediatePropagation cannot be called');
  }

  override stopPropagation(): never {
    throw new Error('stopPropagation cannot be called');
  }
}
