import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

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
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
