import path from 'node:path';
import { createKeyPairSignerFromPrivateKeyBytes, generateKeyPairSigner } from '@solana/kit';
import type { RpcTransport } from '@solana/rpc-spec';
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
// The composition root is the one place the server reaches the local cluster directly: to start it
// (or read the keys of a standalone one). Business code reaches the chain only through JSON-RPC.
import {
  loadAccountDir,
  MARKET_MAKER_KEYPAIR_FILE,
  readKeyPairFile,
  startClusterWorker,
  TREASURY_KEYPAIR_FILE,
  type ClusterHost,
} from '@solterm/localnet';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config/env';
import { builtPgliteTemplate, openDatabase, type Database } from './db/database';
import { createInProcessScheduler } from './jobs/in-process-scheduler';
import { createPgBossScheduler } from './jobs/pg-boss-scheduler';
import type { JobScheduler } from './jobs/scheduler';
import { readOrCreateSecret } from './lib/data-dir-secret';
import type { ClusterKeys, ModuleContext, ServerModule } from './lib/server-module';
import { createAlertsModule } from './modules/alerts/alerts.module';
import { createAuthModule } from './modules/auth/auth.module';
import { createBotsModule } from './modules/bots/bots.module';
import { createChainModule } from './modules/chain/chain.module';
import { createEmailModule } from './modules/email/email.module';
import { createFillsModule } from './modules/fills/fills.module';
import { createFuturesModule } from './modules/futures/futures.module';
import { createHealthModule } from './modules/health/health.module';
import { createHoldersModule } from './modules/holders/holders.module';
import { createMarketModule } from './modules/market/market.module';
import { createRealtimeModule } from './modules/realtime/realtime.module';
import { createRelayModule } from './modules/relay/relay.module';
import { createSafetyModule } from './modules/safety/safety.module';
import type { RelayDeps } from './modules/relay/relay.service';
import { createTradingModule } from './modules/trading/trading.module';
import { createWalletModule } from './modules/wallet/wallet.module';

export interface ServiceOptions {
  log: FastifyBaseLogger;
  /** The JSON-RPC URL of the chain over HTTP (the embedded cluster's is known once the server listens). */
  rpcUrl: () => string;
  /** An already-open database (tests share one per file); otherwise opened from the config. */
  database?: Database;
  /** The clock every service reads; tests move it to expire challenges, tokens and reset links. */
  now?: () => Date;
  /** 'memory': the embedded cluster (used when SOLANA_RPC_URL is unset) keeps nothing on disk. */
  embeddedCluster?: 'memory';
  /** Wraps the JSON-RPC transport of every chain call (fault-injection tests). */
  wrapRpcTransport?: (inner: RpcTransport) => RpcTransport;
  /** Stops a server-signed send at a crash point (fault-injection tests). */
  relayCrashPoint?: RelayDeps['crashPoint'];
}

type Modules = Awaited<ReturnType<typeof createModules>>;

/** Every service of the server, wired once; the API and the worker processes both start from here. */
export interface Services {
  /** The clock every service reads. */
  now: () => Date;
  database: Database;
  hub: Modules['realtime']['service'];
  auth: Modules['auth']['service'];
  email: Modules['email']['service'];
  market: Modules['market']['service'];
  marketData: Modules['market']['data'];
  marketStream: Modules['market']['stream'];
  holders: Modules['holders']['service'];
  tokenSafety: Modules['safety']['service'];
  chain: Modules['chain']['service'];
  relay: Modules['relay']['service'];
  wallet: Modules['wallet']['service'];
  trading: Modules['trading']['service'];
  tradingStream: Modules['trading']['stream'];
  /** The limit-order keeper of the local venue (absent with Jupiter). */
  keeper: Modules['trading']['keeper'];
  /** The bots' runner of paper and on-chain runs (tests drive its job's passes). */
  botRunner: Modules['bots']['botRunner'];
  /** Perpetual futures: the local venue (trading) or Drift's market data, and the local venue's keeper. */
  perpVenue: Modules['futures']['service'];
  perpKeeper: Modules['futures']['perpKeeper'];
  futuresStream: Modules['futures']['stream'];
  /** Alerts: tests drive the evaluation and deliveries passes. */
  alerts: Modules['alerts']['service'];
  /** The embedded local cluster when SOLANA_RPC_URL is unset, in a worker thread (its methods are async). */
  cluster?: ClusterHost;
  /** Background jobs: the modules' singletons and tasks; started by the process's entry. */
  scheduler: JobScheduler;
  /** Every module in creation order: the HTTP app registers their routes and per-process jobs. */
  modules: readonly ServerModule<unknown>[];
  close(): Promise<void>;
}

/** The embedded cluster (SOLANA_RPC_URL unset) in a worker thread, with its keys and JSON-RPC handler. */
async function startCluster(config: AppConfig, options: ServiceOptions) {
  const cluster = config.solanaRpcUrl
    ? undefined
    : await startClusterWorker({
        cluster: {
          dataDir: options.embeddedCluster === 'memory' ? undefined : path.join(config.dataDir, 'localnet'),
          slotDurationMs: config.localnetSlotMs,
          slotClock: 'auto',
          accounts: (await Promise.all(config.localnetAccountDirs.map(loadAccountDir))).flat(),
        },
        limits: {
          maxBatchSize: config.rpc.maxBatchSize,
          maxResponseBytes: config.rpc.maxResponseBytes,
          unfilteredTokenScans: config.rpc.unfilteredTokenScans,
          airdrop: config.rpc.airdrop,
        },
        log: (line, level = 'info') => options.log[level]({ component: 'localnet' }, line),
      });
  // A standalone cluster's keys are its files in LOCALNET_KEYS_DIR; a real cluster's are unknown.
  const keysDir = config.localnetKeysDir;
  const keyFile = async (dir: string, name: string) => (await readKeyPairFile(path.join(dir, name))).signer;
  const clusterKeys: ClusterKeys | undefined = cluster
    ? { treasury: cluster.treasury, marketMaker: cluster.marketMaker }
    : keysDir
      ? {
          treasury: await keyFile(keysDir, TREASURY_KEYPAIR_FILE),
          marketMaker: await keyFile(keysDir, MARKET_MAKER_KEYPAIR_FILE),
        }
      : undefined;
  // The embedded cluster is reached through its JSON-RPC handler in the worker, without HTTP (the same
  // JSON-RPC text as over HTTP, u64 values kept exact); SOLANA_RPC_URL over HTTP.
  const transport = cluster
    ? async <T>({ payload }: { payload: unknown }) =>
        parseJsonWithBigInts(await cluster.handleJsonRpcText(stringifyJsonWithBigInts(payload))) as T
    : undefined;
  return { cluster, clusterKeys, transport };
}

/** The database, the session-signing secret and the key custodial keys are encrypted under. */
async function openStorage(config: AppConfig, options: ServiceOptions) {
  const database =
    options.database ??
    (await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite'), template: builtPgliteTemplate },
    ));
  const jwtSecret = config.jwtSecret
    ? new TextEncoder().encode(config.jwtSecret)
    : await readOrCreateSecret(config.dataDir, 'jwt-secret', 32);
  const walletEncryptionKey = config.walletEncryptionKey
    ? Buffer.from(config.walletEncryptionKey, 'hex')
    : await readOrCreateSecret(config.dataDir, 'wallet-encryption-key', 32);
  return { database, jwtSecret, walletEncryptionKey };
}

/** Creates the modules, lowest layer first: each is given the services of those below it. */
async function createModules(
  context: ModuleContext,
  options: ServiceOptions,
  root: Awaited<ReturnType<typeof openStorage>> & Awaited<ReturnType<typeof startCluster>>,
  scheduler: JobScheduler,
) {
  const email = createEmailModule(context);
  const chain = createChainModule(context, {
    rpcUrl: options.rpcUrl,
    transport: root.transport,
    pubsub: root.cluster?.pubsub,
    wrapTransport: options.wrapRpcTransport,
  });
  const auth = createAuthModule(context, {
    email: email.service,
    jwtSecret: root.jwtSecret,
    walletEncryptionKey: root.walletEncryptionKey,
  });
  const realtime = await createRealtimeModule(context, {
    auth: auth.service,
    sessionsRevoked: auth.events.sessionsRevoked,
  });
  const hub = realtime.service;
  const market = await createMarketModule(context, { hub });
  const holders = createHoldersModule(context, { market: market.service, simulation: market.simulation });
  const relay = createRelayModule(context, { chain: chain.service, crashPoint: options.relayCrashPoint });
  const lower = { hub, chain: chain.service, market: market.service, relay: relay.service };
  const wallet = createWalletModule(context, { ...lower, auth: auth.service });
  const trading = await createTradingModule(context, lower);
  const upper = { ...lower, auth: auth.service, withdrawalLock: wallet.withdrawalLock };
  const bots = createBotsModule(context, {
    ...upper,
    trading: trading.service,
    scheduler,
    walletEncryptionKey: root.walletEncryptionKey,
    holdsFundsAwaitingWallet: auth.events.holdsFundsAwaitingWallet,
  });
  const futures = await createFuturesModule(context, upper);
  const fills = createFillsModule({
    market: market.service,
    trading: trading.service,
    botFills: bots.chartFills,
    perpFills: futures.service.trading?.chartFills,
  });
  const health = createHealthModule(context, { pythonAvailability: bots.pythonAvailability });
  const safety = createSafetyModule(context, {
    chain: chain.service,
    venue: {
      maker: context.clusterKeys?.marketMaker.address,
      treasury: context.clusterKeys?.treasury.address,
      escrow: trading.escrowAddress,
      vault: futures.vaultAddress,
    },
  });
  const alerts = createAlertsModule(context, {
    hub,
    email: email.service,
    auth: auth.service,
    market: market.service,
    bots: bots.service,
    botActivity: bots.botActivity,
    futures: futures.service.trading,
    secretKey: root.walletEncryptionKey,
  });
  return {
    email,
    chain,
    auth,
    realtime,
    market,
    holders,
    relay,
    wallet,
    trading,
    bots,
    futures,
    fills,
    health,
    safety,
    alerts,
  };
}

/** Builds every module (nothing runs yet: the entry starts the market feed and the scheduler). */
export async function createServices(config: AppConfig, options: ServiceOptions): Promise<Services> {
  const { log } = options;
  const now = options.now ?? (() => new Date());
  // The database (PGlite's start and migrations, on this thread) and the cluster's genesis (in its
  // worker thread) need nothing of each other: started together, a first start waits for the longer.
  const [opened, started] = await Promise.allSettled([
    openStorage(config, options),
    startCluster(config, options),
  ]);
  if (opened.status === 'rejected' || started.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.cluster?.close();
    if (opened.status === 'fulfilled' && !options.database) await opened.value.database.close();
    throw opened.status === 'rejected' ? opened.reason : (started as PromiseRejectedResult).reason;
  }
  const storage = opened.value;
  const { database } = storage;
  const cluster = started.value;
  const scheduler = config.databaseUrl
    ? createPgBossScheduler({ connectionString: config.databaseUrl, log })
    : createInProcessScheduler(log);
  const context: ModuleContext = {
    config,
    log,
    now,
    database,
    clusterKeys: cluster.clusterKeys,
    // A venue key is kept under DATA_DIR (a new one each run for an in-memory cluster).
    venueKey: async (name) =>
      options.embeddedCluster === 'memory'
        ? generateKeyPairSigner()
        : createKeyPairSignerFromPrivateKeyBytes(await readOrCreateSecret(config.dataDir, name, 32)),
  };
  const modules = await createModules(context, options, { ...storage, ...cluster }, scheduler);
  const all: ServerModule<unknown>[] = Object.values(modules);
  for (const { jobs } of all) {
    if (config.jobs) jobs?.singletons?.forEach((job) => scheduler.singleton(job));
    // Tasks (backtests) are computed where jobs run: with JOBS=off an API process submits them to the
    // others. Embedded, the one process is the only one there is.
    if (config.jobs || scheduler.kind === 'in-process') jobs?.tasks?.forEach((task) => scheduler.task(task));
  }
  const { realtime, market, trading, bots, futures } = modules;
  return {
    now,
    database,
    hub: realtime.service,
    auth: modules.auth.service,
    email: modules.email.service,
    market: market.service,
    marketData: market.data,
    marketStream: market.stream,
    holders: modules.holders.service,
    tokenSafety: modules.safety.service,
    chain: modules.chain.service,
    relay: modules.relay.service,
    wallet: modules.wallet.service,
    trading: trading.service,
    tradingStream: trading.stream,
    keeper: trading.keeper,
    botRunner: bots.botRunner,
    perpVenue: futures.service,
    perpKeeper: futures.perpKeeper,
    futuresStream: futures.stream,
    alerts: modules.alerts.service,
    cluster: cluster.cluster,
    scheduler,
    modules: all,
    async close() {
      await scheduler.stop();
      for (const module of [...all].reverse()) await module.close?.();
      await cluster.cluster?.close();
      if (!options.database) await database.close();
    },
  };
}
