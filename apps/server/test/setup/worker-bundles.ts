import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { PROCESS_BUNDLES } from '../helpers/child-process';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder URL of this run's bundled worker entries, or '' (watch mode: tsx loads the sources). */
    workerBundles: string;
  }
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * The thread entries bundled, named as the production build names them (scripts/build-server.mjs),
 * and the processes the multi-process tests spawn (helpers/child-process.ts).
 */
const ENTRIES = {
  'cluster-worker-entry': 'packages/localnet/src/worker/cluster-worker.ts',
  'backtest-worker-entry': 'apps/server/src/modules/bots/backtest/backtest-worker.ts',
  'js-live-worker-entry': 'apps/server/src/modules/bots/sandbox/js-live-worker.ts',
  ...PROCESS_BUNDLES,
};

/**
 * Bundles the worker threads once per run: every app a test builds starts a cluster worker (and bots
 * start backtest and live JavaScript threads), and through its tsx entry each one resolved and loaded
 * the same TypeScript modules again (about 1.1 s of CPU more per cluster start than the bundle,
 * measured by starting both). Each entry loads its bundle when SOLTERM_TEST_WORKER_BUNDLES names the
 * folder (setup/worker-bundles-env.ts). Not in watch mode, where the sources change under a bundle
 * built once.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.vitest.config.watch) {
    project.provide('workerBundles', '');
    return undefined;
  }
  // Under node_modules so the bundle's npm imports resolve from the project's own node_modules, and
  // under apps/server so the server bundle finds its root (lib/server-root.ts) as the build's does.
  const parent = path.join(ROOT, 'apps', 'server', 'node_modules', '.cache');
  await fs.mkdir(parent, { recursive: true });
  const dir = await fs.mkdtemp(path.join(parent, 'solterm-test-workers-'));
  await build({
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, source]) => [name, path.join(ROOT, source)]),
    ),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    plugins: [
      {
        name: 'external-npm-packages',
        setup(builder) {
          builder.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@solterm/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    logLevel: 'warning',
  });
  project.provide('workerBundles', `${pathToFileURL(dir).href}/`);
  return () => fs.rm(dir, { recursive: true, force: true });
}
