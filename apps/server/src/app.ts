import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { toFastifyTrustProxy, type AppConfig } from './config/env';
import type { Database } from './db/database';
import { registerHttpApp } from './http-app';
import type { JobScheduler } from './jobs/scheduler';
import { createHotAnswers, type HotAnswers } from './lib/hot-answers';
import type { ZodApp } from './lib/zod-app';
import type { LimitKeeper } from './modules/trading/limit-keeper';
import type { TradingStream } from './modules/trading/trading.stream';
import { registerErrorHandling } from './plugins/error-handler';
import { SECURITY_HEADER_OPTIONS, securityHeadersOf } from './plugins/security-headers';
import { SERVER_ROOT } from './lib/server-root';
import { createServices, type ServiceOptions, type Services } from './services';

const VERSION = (
  JSON.parse(fs.readFileSync(path.join(SERVER_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

export interface BuildOptions {
  /** An already-open database (tests share one per file); otherwise opened from the config. */
  database?: Database;
  /** The clock every service reads; tests move it to expire challenges, tokens and reset links. */
  now?: () => Date;
  /** 'memory': the embedded cluster (used when SOLANA_RPC_URL is unset) keeps nothing on disk. */
  embeddedCluster?: 'memory';
  /** Wraps the JSON-RPC transport of every chain call (fault-injection tests). */
  wrapRpcTransport?: ServiceOptions['wrapRpcTransport'];
  /** Stops a server-signed send at a crash point (fault-injection tests). */
  relayCrashPoint?: ServiceOptions['relayCrashPoint'];
}

export interface App {
  server: ZodApp;
  database: Database;
  hub: Services['hub'];
  services: Pick<
    Services,
    'auth' | 'email' | 'market' | 'holders' | 'chain' | 'relay' | 'wallet' | 'trading'
  >;
  /** The limit-order keeper of the local venue (absent with Jupiter). */
  keeper?: LimitKeeper;
  /** The paper bots' runner (tests drive its job's passes). */
  botRunner: Services['botRunner'];
  /** The perp venue (local or Drift) and the local venue's keeper (tests drive its passes). */
  perpVenue: Services['perpVenue'];
  perpKeeper?: Services['perpKeeper'];
  /** Background jobs of this process; started once the server listens. */
  scheduler: JobScheduler;
  /**
   * The embedded local cluster when SOLANA_RPC_URL is unset, running in a worker thread (tests and
   * tooling only; its methods are async).
   */
  cluster?: Services['cluster'];
  /** The JSON-RPC URL the server reaches the chain at (known once the server listens). */
  rpcUrl(): string;
  /** The market data source (simulator or live) and the real-time market publisher. */
  market: { data: Services['marketData']; stream: Services['marketStream'] };
  /** The spot book and positions channels' stream (tests tick it by hand). */
  tradingStream: TradingStream;
  /** The futures market and account channels' stream (tests tick it by hand). */
  futuresStream: Services['futuresStream'];
  /** Alerts (tests drive the evaluation and deliveries passes). */
  alerts: Services['alerts'];
  close(): Promise<void>;
}

function createHttpServer(config: AppConfig): { server: ZodApp; hot: HotAnswers } {
  const server = Fastify({
    logger: {
      level: config.logLevel,
      redact: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.new_password',
        '*.token',
        '*.signature',
      ],
    },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: toFastifyTrustProxy(config.trustProxy),
    forceCloseConnections: true,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(server);
  const hot = createHotAnswers(securityHeadersOf(SECURITY_HEADER_OPTIONS));
  hot.install(server.server);
  server.addHook('preClose', (done) => {
    hot.close();
    done();
  });
  return { server, hot };
}

/** The JSON-RPC URL: SOLANA_RPC_URL, or this server's own /rpc (the embedded cluster) once it listens. */
function rpcUrlOf(config: AppConfig, server: ZodApp): () => string {
  return () => {
    if (config.solanaRpcUrl) return config.solanaRpcUrl;
    const bound = server.server.address();
    if (bound && typeof bound === 'object') {
      const host =
        bound.address === '::' || bound.address === '0.0.0.0'
          ? '127.0.0.1'
          : bound.family === 'IPv6'
            ? `[${bound.address}]`
            : bound.address;
      return `http://${host}:${bound.port}/rpc`;
    }
    return `http://127.0.0.1:${config.port}/rpc`;
  };
}

/**
 * Builds the API process (not listening): the services (createServices, shared with the worker) and
 * the HTTP app on top. Background jobs start once it listens: the chain may be this server's own /rpc.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
  const { server, hot } = createHttpServer(config);
  const rpcUrl = rpcUrlOf(config, server);
  const services = await createServices(config, { ...options, log: server.log, rpcUrl });
  await registerHttpApp(server, services, config, { version: VERSION, hot });
  // Each API process serves its own sockets (market ticks); the worker has none.
  for (const { jobs } of services.modules)
    jobs?.perApiProcess?.forEach((job) => services.scheduler.everyProcess(job));
  await services.marketData.start();
  server.addHook('onListen', async () => {
    await services.scheduler
      .start()
      .catch((error: unknown) => server.log.error({ err: error }, 'background jobs failed to start'));
  });
  const { auth, email, market, holders, chain, relay, wallet, trading } = services;
  return {
    server,
    database: services.database,
    hub: services.hub,
    services: { auth, email, market, holders, chain, relay, wallet, trading },
    keeper: services.keeper,
    botRunner: services.botRunner,
    perpVenue: services.perpVenue,
    perpKeeper: services.perpKeeper,
    scheduler: services.scheduler,
    cluster: services.cluster,
    rpcUrl,
    market: { data: services.marketData, stream: services.marketStream },
    tradingStream: services.tradingStream,
    futuresStream: services.futuresStream,
    alerts: services.alerts,
    async close() {
      await server.close();
      await services.close();
    },
  };
}
