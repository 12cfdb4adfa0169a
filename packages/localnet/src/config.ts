import { parseArgs } from 'node:util';

/**
 * Configuration of the standalone localnet process, read once from the environment, strictly:
 * every bad variable is listed, nothing falls back silently.
 */

export interface LocalnetConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly slotDurationMs: number;
}

function readInteger(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
    return fallback;
  }
  return value;
}

/** Parses LOCALNET_PORT, LOCALNET_HOST, LOCALNET_DATA_DIR, and LOCALNET_SLOT_MS. */
export function readLocalnetConfig(env: NodeJS.ProcessEnv): LocalnetConfig {
  const problems: string[] = [];
  const config: LocalnetConfig = Object.freeze({
    port: readInteger(env, 'LOCALNET_PORT', 8899, 0, 65535, problems),
    host: env.LOCALNET_HOST === undefined || env.LOCALNET_HOST === '' ? '127.0.0.1' : env.LOCALNET_HOST,
    dataDir:
      env.LOCALNET_DATA_DIR === undefined || env.LOCALNET_DATA_DIR === ''
        ? './data/localnet'
        : env.LOCALNET_DATA_DIR,
    slotDurationMs: readInteger(env, 'LOCALNET_SLOT_MS', 400, 1, 60_000, problems),
  });
  if (problems.length > 0) throw new Error(`invalid localnet configuration:\n  ${problems.join('\n  ')}`);
  return config;
}

/** `solana-test-validator`-style flags of `npm run localnet -- …`. */
export interface LocalnetFlags {
  /** Directories of JSON account fixtures (`--account-dir`, repeatable). */
  readonly accountDirs: readonly string[];
  /** Start from an empty data directory (`--reset`). */
  readonly reset: boolean;
  /** A bare validator's genesis: no listed tokens, so no mints, inventory or token metadata (`--bare`). */
  readonly bare: boolean;
  /** The data directory (`--ledger DIR`, as the validator names it), over LOCALNET_DATA_DIR. */
  readonly ledger?: string;
  /** The JSON-RPC port (`--rpc-port N`; PubSub on N + 1), over LOCALNET_PORT. */
  readonly rpcPort?: number;
}

/** Parses the command line; unknown flags are refused, as the validator refuses them. */
export function readLocalnetFlags(argv: readonly string[]): LocalnetFlags {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'account-dir': { type: 'string', multiple: true },
      reset: { type: 'boolean' },
      bare: { type: 'boolean' },
      ledger: { type: 'string' },
      'rpc-port': { type: 'string' },
      // The validator's output switch: this server prints a few lines at start either way.
      quiet: { type: 'boolean', short: 'q' },
    },
    strict: true,
    allowPositionals: false,
  });
  const rpcPort = values['rpc-port'];
  if (rpcPort !== undefined && !(/^\d+$/.test(rpcPort) && Number(rpcPort) >= 1 && Number(rpcPort) <= 65534)) {
    throw new Error(`--rpc-port must be a port from 1 to 65534 (got ${JSON.stringify(rpcPort)})`);
  }
  return {
    accountDirs: values['account-dir'] ?? [],
    reset: values.reset === true,
    bare: values.bare === true,
    ...(values.ledger === undefined ? {} : { ledger: values.ledger }),
    ...(rpcPort === undefined ? {} : { rpcPort: Number(rpcPort) }),
  };
}
