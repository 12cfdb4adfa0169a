import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The sources the test setup bundles (setup/worker-bundles.ts), by the name of their bundle. */
const BUNDLED: Record<string, string> = {
  'apps/server/src/server.ts': 'server',
  'apps/server/src/worker.ts': 'worker',
  'packages/localnet/src/main.ts': 'localnet',
  'apps/server/test/helpers/relay-child.ts': 'relay-child',
};

/**
 * Node's arguments to run one of the project's entry points (a path from the repository root) in a
 * child process: its bundle when this run built them, else the TypeScript through tsx (watch mode).
 */
export function nodeArgsFor(script: string): string[] {
  const bundles = process.env.SOLTERM_TEST_WORKER_BUNDLES;
  const name = BUNDLED[script];
  if (bundles && name) return ['--enable-source-maps', fileURLToPath(new URL(`${name}.mjs`, bundles))];
  return ['--import', 'tsx', path.join(ROOT, script)];
}
