/**
 * `npm run localnet`: the local cluster alone, as a Solana JSON-RPC endpoint (default
 * http://127.0.0.1:8899, data under ./data/localnet).
 */
import { rm } from 'node:fs/promises';
import { loadAccountDir } from './account-fixtures';
import { readLocalnetConfig, readLocalnetFlags } from './config';
import { startLocalnetServer } from './http-server';
import { createLocalCluster } from './local-cluster';
import { createJsonRpcHandler } from './rpc/json-rpc-handler';
import { createPubSub } from './rpc/pubsub';
import { writeValidatorLedgerFiles } from './validator-ledger-files';

async function main(): Promise<void> {
  const flags = readLocalnetFlags(process.argv.slice(2));
  const config = {
    ...readLocalnetConfig(process.env),
    ...(flags.ledger === undefined ? {} : { dataDir: flags.ledger }),
    ...(flags.rpcPort === undefined ? {} : { port: flags.rpcPort }),
  };
  const log = (message: string): void => console.error(message);
  if (flags.reset) await rm(config.dataDir, { recursive: true, force: true });
  const accounts = (await Promise.all(flags.accountDirs.map(loadAccountDir))).flat();
  const cluster = await createLocalCluster({
    dataDir: config.dataDir,
    slotDurationMs: config.slotDurationMs,
    log,
    accounts,
    ...(flags.bare ? { tokens: [] } : {}),
  });
  await writeValidatorLedgerFiles(config.dataDir, cluster);
  const server = await startLocalnetServer({
    handler: createJsonRpcHandler(cluster, { log }),
    port: config.port,
    host: config.host,
    pubsub: createPubSub(cluster),
  });
  console.log(`localnet: listening on ${server.url} (slot ${cluster.slot}, data ${config.dataDir})`);
  console.log(`localnet: PubSub on ${server.url.replace('http', 'ws')} and ${server.pubsubUrl}`);
  if (accounts.length > 0) console.log(`localnet: ${accounts.length} accounts loaded from --account-dir`);
  console.log(`localnet: treasury ${cluster.treasury.address}, market maker ${cluster.marketMaker.address}`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`localnet: ${signal}, flushing the ledger and stopping`);
    server
      .close()
      .then(() => cluster.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('localnet: shutdown failed', error);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
