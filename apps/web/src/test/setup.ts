import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';

// findBy* and waitFor wait up to 5 s (the default 1 s): the full suite runs the web tests beside the
// server's on two cores, and a busy moment once made a passing form test miss the 1 s (seen in CI).
configure({ asyncUtilTimeout: 5_000 });

// happy-dom has no window.alert, which browsers have and the forms call; tests spy on it.
if (typeof window.alert !== 'function') window.alert = () => undefined;

// A request no test stubbed must not leave the process: happy-dom's own fetch would connect to its
// page's origin (localhost:3000). It fails as an unreachable server does.
globalThis.fetch = () => Promise.reject(new TypeError('fetch failed: no server in this test'));

// Testing Library auto-cleans only when test globals are on; the web project runs without them.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// Every web test file runs in a worker shared with others (isolate: false): a fresh worker per file
// cost ~3.8 s of CPU, mostly loading React and the DOM again. What one file changes must not reach
// the next: this setup runs before each file, so the app's own modules load afresh (a module another
// file imported stays loaded otherwise, holding the real version of something this file mocks with
// vi.mock; packages stay loaded), and after each test the clock, globals and spies are put back.
vi.resetModules();
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // The app shows an identical toast once within 100 ms: a test that toasts what the test before it
  // toasted would find it suppressed when the two run that close together (the file alone, fast).
  // Imported here, after this file's module reset, it is the instance the file's code uses.
  try {
    (await import('../lib/toast')).forgetShownToasts();
  } catch {
    // the file mocks ../lib/toast: its toasts are the mock's
  }
});

/**
 * Timers a file leaves behind (a pending transaction followed for minutes, a poll) end with the file,
 * as with a worker of its own: the next file's stubbed fetch must not hear them. Installed once per
 * worker (this setup runs again for every file); a fired or cleared timer leaves the set.
 */
function timersOfThisWorker(): Set<ReturnType<typeof setTimeout>> {
  const key = Symbol.for('solterm.web-tests.timers');
  const scope = globalThis as typeof globalThis & { [key]?: Set<ReturnType<typeof setTimeout>> };
  const existing = scope[key];
  if (existing) return existing;
  const live = new Set<ReturnType<typeof setTimeout>>();
  const { setTimeout: set, clearTimeout: clear, setInterval: every, clearInterval: stop } = globalThis;
  const tracked = {
    setTimeout: (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const timer = set(
        (...given: unknown[]) => {
          live.delete(timer);
          callback(...given);
        },
        ms,
        ...args,
      );
      live.add(timer);
      return timer;
    },
    clearTimeout: (timer: ReturnType<typeof setTimeout> | undefined) => {
      if (timer !== undefined) live.delete(timer);
      clear(timer);
    },
    setInterval: (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const timer = every(callback, ms, ...args);
      live.add(timer);
      return timer;
    },
    clearInterval: (timer: ReturnType<typeof setInterval> | undefined) => {
      if (timer !== undefined) live.delete(timer);
      stop(timer);
    },
  };
  for (const target of new Set([globalThis, window])) Object.assign(target, tracked);
  scope[key] = live;
  return live;
}
const liveTimers = timersOfThisWorker();
afterAll(() => {
  for (const timer of liveTimers) clearTimeout(timer);
  liveTimers.clear();
});

/**
 * Wallet Standard listeners a file adds to the shared window (a wallet's `app-ready`, the registry's
 * `register-wallet`) end with the file too: each file's app modules load afresh, and a listener of an
 * earlier file's Local wallet would register that wallet, with its own keys, in this file's registry.
 */
function walletStandardListenersOfThisWorker(): Set<[string, EventListenerOrEventListenerObject]> {
  const key = Symbol.for('solterm.web-tests.wallet-standard-listeners');
  const scope = window as Window & { [key]?: Set<[string, EventListenerOrEventListenerObject]> };
  const existing = scope[key];
  if (existing) return existing;
  const live = new Set<[string, EventListenerOrEventListenerObject]>();
  const add: (
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) => void = window.addEventListener.bind(window) as unknown as EventTarget['addEventListener'];
  window.addEventListener = ((
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) => {
    if (listener && type.startsWith('wallet-standard:')) live.add([type, listener]);
    add(type, listener, options);
  }) as typeof window.addEventListener;
  scope[key] = live;
  return live;
}
const walletStandardListeners = walletStandardListenersOfThisWorker();
afterAll(() => {
  for (const [type, listener] of walletStandardListeners) window.removeEventListener(type, listener);
  walletStandardListeners.clear();
});
