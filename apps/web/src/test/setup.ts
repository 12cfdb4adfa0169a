import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library auto-cleans only when test globals are on; the web project runs without them.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
