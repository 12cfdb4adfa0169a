// The production build of the server: each entry (the API server, the job worker, and the threads and
// processes they start) bundled by esbuild into apps/server/dist with the workspace packages inlined and
// every npm dependency left as an import. Inside the bundle every module's import.meta.url is the
// bundle's, so the threads are emitted under the names the code looks for beside it
// (`./backtest-worker-entry.mjs`, `./cluster-worker-entry.mjs`, …), replacing the TypeScript-loading
// entries that development and the tests use. The folder is overwritten, not emptied first, so a
// process already running from it keeps finding the files it loads later.
import fs from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { build } from 'esbuild';

const OUT_DIR = 'apps/server/dist';
const ENTRIES = {
  server: 'apps/server/src/server.ts',
  worker: 'apps/server/src/worker.ts',
  'backtest-worker-entry': 'apps/server/src/modules/bots/backtest/backtest-worker.ts',
  'js-live-worker-entry': 'apps/server/src/modules/bots/sandbox/js-live-worker.ts',
  'cluster-worker-entry': 'packages/localnet/src/worker/cluster-worker.ts',
};
/**
 * The Python sandbox's host process runs from a private copy outside the project and may read nothing
 * else, so it is one self-contained file: everything bundled but Pyodide, which it is handed by path.
 */
const PYTHON_HOST = 'apps/server/src/modules/bots/sandbox/python-host.ts';

/** npm packages stay imports (resolved from node_modules at run time); our workspace packages are bundled. */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@solterm/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * A migrated, empty PGlite data directory as a tar beside the bundle: the compiled server's first
 * start on a fresh DATA_DIR loads it instead of running initdb and every migration
 * (`builtPgliteTemplate` in apps/server/src/db/database.ts).
 */
async function writePgliteTemplate(file) {
  const client = new PGlite();
  try {
    await migrate(drizzle(client), { migrationsFolder: 'apps/server/drizzle' });
    const dump = await client.dumpDataDir('none');
    await fs.writeFile(file, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

const started = Date.now();
await build({
  entryPoints: ENTRIES,
  outdir: OUT_DIR,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpmPackages],
  logLevel: 'warning',
});
await build({
  entryPoints: { 'python-host': PYTHON_HOST },
  outdir: OUT_DIR,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['pyodide'],
  logLevel: 'warning',
});
await writePgliteTemplate(`${OUT_DIR}/pglite-template.tar`);
console.log(`server built into ${OUT_DIR} in ${Date.now() - started} ms`);
