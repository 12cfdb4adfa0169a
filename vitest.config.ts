import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * What a test file may do that would reach the next file run in the same worker: mock a module, fake
 * the timers, stub a global or the environment, spy on a shared object, or set process.env. A file
 * can also ask for a worker of its own with a `// vitest: own worker` comment that says why.
 */
const CHANGES_SHARED_STATE =
  /\bvi\.(mock|doMock|useFakeTimers|stubGlobal|stubEnv|spyOn)\(|process\.env\.\w+\s*=[^=]|delete process\.env|\/\/ vitest: own worker/;

/**
 * One project as two: the files that leave shared state alone run one after another in a worker that
 * keeps its loaded modules (isolate: false), the rest each in a fresh worker. A fresh worker costs
 * ~1.3 s of CPU to start and import (the 36 web model files took 55 s of CPU isolated, 8 s shared),
 * and each file still gets its own app, database and ports.
 */
function sharedAndIsolated(
  name: string,
  include: string[],
  test: NonNullable<TestProjectInlineConfiguration['test']>,
  extra: Omit<TestProjectInlineConfiguration, 'test'> = {},
): TestProjectInlineConfiguration[] {
  const root = test.root ?? '.';
  const files = globSync(include, { cwd: root, ignore: ['**/node_modules/**'] });
  const isolated = files.filter((file) => CHANGES_SHARED_STATE.test(readFileSync(join(root, file), 'utf8')));
  const shared = files.filter((file) => !isolated.includes(file));
  return [
    { ...extra, test: { ...test, name, include: shared, isolate: false } },
    { ...extra, test: { ...test, name: `${name} (isolated)`, include: isolated, isolate: true } },
  ];
}

// One runner for unit, integration and component tests; Playwright runs the end-to-end journeys.
export default defineConfig({
  test: {
    // Three test files at once on two cores (vitest's default there is one). The integration files
    // spend part of their time waiting (slot clocks, sandbox processes, the cluster worker's thread):
    // with two the cores were 87 % busy over a CI run (355 s), with three 98 % (329-339 s). Each file is
    // self-contained: its own in-memory PGlite or uniquely named PostgreSQL database, temporary
    // DATA_DIR and ports chosen by the OS.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    projects: [
      ...sharedAndIsolated(
        'packages',
        ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts', 'apps/web/eslint/**/*.test.ts'],
        // The embedded cluster's tests send, confirm and notify on a real clock: 2 s for a test at
        // load 4 took more than the default 5 s at load 13 (a CI run beside other work).
        { environment: 'node', testTimeout: 30_000 },
      ),
      ...sharedAndIsolated('server', ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'], {
        environment: 'node',
        globalSetup: [
          'apps/server/test/setup/pglite-template.ts',
          'apps/server/test/setup/worker-bundles.ts',
          'apps/server/test/setup/python-snapshot.ts',
          'apps/server/test/setup/worker-exits.ts',
        ],
        setupFiles: [
          'apps/server/test/setup/worker-bundles-env.ts',
          'apps/server/test/setup/worker-breadcrumbs.ts',
        ],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      }),
      // One worker's loaded packages for every web file; src/test/setup.ts gives each file fresh app
      // modules and puts back timers, globals and spies (36 files that mock or stub ran isolated:
      // 136 s of CPU, against 44 s for all 85 files now).
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['./src/test/setup.ts'],
          isolate: false,
          // Wallet Standard's app registry is one module-level set: loaded like the app's own modules
          // (afresh for each file), or a file would find the Local wallets of the files before it.
          server: { deps: { inline: ['@wallet-standard/app'] } },
          // A test may wait 5 s in one findBy (src/test/setup.ts): the default 5 s for the whole test
          // made a slow moment beside the server's files fail a passing test.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
