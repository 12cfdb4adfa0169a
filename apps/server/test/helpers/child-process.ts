import net from 'node:net';
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

/** A loopback port free now (the OS's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port free now whose next port is free too, for the standalone cluster: it serves PubSub
 * on its port + 1, as a validator does, and stops at start when that one is taken (a test then waited
 * 60 s for a line it never printed).
 */
export async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65_535 && (await isFree(port + 1))) return port;
  }
}
