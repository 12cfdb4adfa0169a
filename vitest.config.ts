import { defineConfig } from 'vitest/config';

// One runner for unit, integration and component tests; Playwright runs the end-to-end journeys.
export default defineConfig({
  test: {
    // Two test files at once (vitest's default on two cores is one). The integration files spend much
    // of their time waiting (slot clocks, sandbox processes, the cluster worker's thread), and each one
    // is self-contained: its own in-memory PGlite or uniquely named PostgreSQL database, temporary
    // DATA_DIR and ports chosen by the OS.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    projects: [
      {
        test: {
          name: 'packages',
          include: ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts', 'apps/web/eslint/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: [
            'apps/server/test/setup/pglite-template.ts',
            'apps/server/test/setup/worker-bundles.ts',
            'apps/server/test/setup/python-snapshot.ts',
          ],
          setupFiles: ['apps/server/test/setup/worker-bundles-env.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // A test may wait 5 s in one findBy (src/test/setup.ts): the default 5 s for the whole test
          // made a slow moment beside the server's files fail a passing test.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
