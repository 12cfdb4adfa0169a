/**
 * What `solana-test-validator --ledger DIR` leaves in DIR that projects' test setups read (kit's
 * live tests read them to know the node): the identity's and the faucet's keypairs and
 * `validator.log`, whose start lines name the version and the genesis hash. `npm run localnet`
 * writes them at each start; both keypairs are the treasury's, this cluster's identity and faucet.
 */
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TREASURY_KEYPAIR_FILE } from './cluster-data-dir';
import type { LocalCluster } from './local-cluster';
import { SOLANA_CORE_VERSION } from './rpc/rpc-method';

export const VALIDATOR_KEYPAIR_FILE = 'validator-keypair.json';
export const FAUCET_KEYPAIR_FILE = 'faucet-keypair.json';
export const VALIDATOR_LOG_FILE = 'validator.log';

/** The start lines of `validator.log`, in Agave 2.3's log format (its version line prints feat: in decimal). */
export function validatorLogLines(cluster: LocalCluster, at: Date): string[] {
  const prefix = `[${at.toISOString()} INFO  solterm_localnet]`;
  return [
    `${prefix} agave-validator ${SOLANA_CORE_VERSION} (src:00000000; feat:0, client:Agave) — answers as Agave ${SOLANA_CORE_VERSION}`,
    `${prefix} identity: ${cluster.treasury.address}`,
    `${prefix} genesis hash: ${cluster.genesisHash}`,
  ];
}

/** Writes the keypair copies (mode 0600, as the treasury's) and the log's start lines into `dataDir`. */
export async function writeValidatorLedgerFiles(dataDir: string, cluster: LocalCluster): Promise<void> {
  const treasury = join(dataDir, TREASURY_KEYPAIR_FILE);
  await copyFile(treasury, join(dataDir, VALIDATOR_KEYPAIR_FILE));
  await copyFile(treasury, join(dataDir, FAUCET_KEYPAIR_FILE));
  await writeFile(
    join(dataDir, VALIDATOR_LOG_FILE),
    `${validatorLogLines(cluster, new Date()).join('\n')}\n`,
  );
}
