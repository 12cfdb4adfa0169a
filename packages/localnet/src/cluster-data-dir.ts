/**
 * What a cluster keeps in its data directory besides the ledger: the treasury's and the market
 * maker's keypairs and the seed of its blockhashes (its identity across restarts), under a lock
 * so that two processes never share one directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock';
import { generateStoredKeyPair, loadOrCreateKeyPairFile, type StoredKeyPair } from './keypair-store';
import { Ledger, type LedgerReplay } from './ledger';

export const TREASURY_KEYPAIR_FILE = 'treasury-keypair.json';
export const MARKET_MAKER_KEYPAIR_FILE = 'market-maker-keypair.json';
const CLUSTER_META_FILE = 'cluster.json';

/** A cluster's keys, seed and ledger: fresh ones in memory, or those of `dataDir` (created if new). */
export interface ClusterStorage {
  readonly treasury: StoredKeyPair;
  readonly marketMaker: StoredKeyPair;
  readonly blockhashSeed: Uint8Array;
  readonly ledger: Ledger | null;
  readonly replay: LedgerReplay | null;
  /** Releases the data directory's lock. */
  readonly unlock: () => Promise<void>;
}

export async function openClusterStorage(options: {
  readonly dataDir?: string;
  readonly fsync?: boolean;
  readonly log?: (message: string) => void;
}): Promise<ClusterStorage> {
  const { dataDir } = options;
  if (dataDir === undefined) {
    return {
      treasury: await generateStoredKeyPair(),
      marketMaker: await generateStoredKeyPair(),
      blockhashSeed: randomBytes(32),
      ledger: null,
      replay: null,
      unlock: async () => undefined,
    };
  }
  await mkdir(dataDir, { recursive: true });
  const unlock = await lockDataDir(dataDir);
  try {
    const treasury = await loadOrCreateKeyPairFile(join(dataDir, TREASURY_KEYPAIR_FILE));
    const marketMaker = await loadOrCreateKeyPairFile(join(dataDir, MARKET_MAKER_KEYPAIR_FILE));
    const blockhashSeed = await loadOrCreateBlockhashSeed(join(dataDir, CLUSTER_META_FILE));
    const { ledger, replay } = await Ledger.open(dataDir, {
      fsync: options.fsync ?? true,
      onError: (error) => options.log?.(`localnet: ledger write failed: ${String(error)}`),
    });
    return { treasury, marketMaker, blockhashSeed, ledger, replay, unlock };
  } catch (error) {
    await unlock();
    throw error;
  }
}

async function loadOrCreateBlockhashSeed(path: string): Promise<Uint8Array> {
  try {
    const meta = JSON.parse(await readFile(path, 'utf8')) as { blockhashSeed?: unknown };
    if (typeof meta.blockhashSeed === 'string' && /^[0-9a-f]{64}$/.test(meta.blockhashSeed)) {
      return Buffer.from(meta.blockhashSeed, 'hex');
    }
    throw new Error(`${path} has no valid blockhashSeed`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const seed = randomBytes(32);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(
    temporary,
    `${JSON.stringify({ version: 1, blockhashSeed: seed.toString('hex') }, null, 2)}\n`,
  );
  await rename(temporary, path);
  return seed;
}
