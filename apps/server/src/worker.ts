/**
 * `npm run worker`: a process that runs background jobs only (the limit keeper, reconciliation; later
 * bots, funding and liquidation), no HTTP. It shares the API processes' PostgreSQL (pg-boss hands
 * each singleton job to one process at a time) and their chain.
 */
import { pino } from 'pino';
import { loadConfig } from './config/env';
import { exitOnSignals } from './lib/graceful-shutdown';
import { createServices } from './services';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new Error('npm run worker needs DATABASE_URL: workers share the API processes’ PostgreSQL');
  }
  if (!config.solanaRpcUrl) {
    throw new Error(
      'npm run worker needs SOLANA_RPC_URL: every process must reach one chain (e.g. `npm run localnet` with LOCALNET_KEYS_DIR)',
    );
  }
  const rpcUrl = config.solanaRpcUrl;
  const log = pino({ level: config.logLevel, base: { process: 'worker', pid: process.pid } });
  const services = await createServices({ ...config, jobs: true }, { log, rpcUrl: () => rpcUrl });
  exitOnSignals(log, () => services.close());
  await services.marketData.start();
  await services.scheduler.start();
  log.info({ scheduler: services.scheduler.kind }, 'solterm worker is running jobs');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
