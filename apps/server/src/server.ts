import { buildApp } from './app';
import { loadConfig } from './config/env';
import { exitOnSignals } from './lib/graceful-shutdown';
import { keepServingOnUncaughtErrors } from './lib/last-resort';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  const { server } = app;
  exitOnSignals(server.log, () => app.close());
  keepServingOnUncaughtErrors(server.log);
  await server.listen({ port: config.port, host: config.host });
  server.log.info(
    { network: config.network, database: app.database.kind, dataDir: config.dataDir, jobs: config.jobs },
    `solterm is running at http://localhost:${config.port}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
