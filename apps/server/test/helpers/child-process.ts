import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * The entry points tests start as child processes, by the name of their bundle: vitest's global setup
 * bundles them once per run (setup/worker-bundles.ts), since through tsx each one spent ~3 s of CPU
 * loading the server's TypeScript, the bundle a fraction of that.
 */
export const PROCESS_BUNDLES = {
  server: 'apps/server/src/server.ts',
  worker: 'apps/server/src/worker.ts',
  localnet: 'packages/localnet/src/main.ts',
  'relay-child': 'apps/server/test/helpers/relay-child.ts',
} as const;

const BUNDLE_OF = new Map<string, string>(
  Object.entries(PROCESS_BUNDLES).map(([name, source]) => [source, name]),
);

/**
 * Node's arguments to run one of the project's entry points (a path from the repository root) in a
 * child process: its bundle when this run built them, else the TypeScript through tsx (watch mode).
 */
export function nodeArgsFor(script: string): string[] {
  const bundles = process.env.SOLTERM_TEST_WORKER_BUNDLES;
  const name = BUNDLE_OF.get(script);
  if (bundles && name) return ['--enable-source-maps', fileURLToPath(new URL(`${name}.mjs`, bundles))];
  return ['--import', 'tsx', path.join(ROOT, script)];
}
