import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { createKeyPairSignerFromPrivateKeyBytes, generateKeyPairSigner } from '@solana/kit';
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { isTestNetwork, type TSpotOrder } from '@solterm/contracts';
// The composition root is the one place the server imports the local cluster: to start it and serve
// it at /rpc. Business code reaches the chain only through JSON-RPC (modules/chain), as a real cluster.
import { startClusterWorker, type ClusterHost } from '@solterm/localnet';
import { toFastifyTrustProxy, type AppConfig } from './config/env';
import { openDatabase, type Database } from './db/database';
import { readOrCreateSecret } from './lib/data-dir-secret';
import { registerApiDocs } from './plugins/api-docs';
import { createRequireAuth } from './plugins/authenticate';
import { registerErrorHandling } from './plugins/error-handler';
import { registerWebApp } from './plugins/web-app';
import { createAuthRepository } from './modules/auth/auth.repository';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { createAuthService, type AuthService } from './modules/auth/auth.service';
import { createChainService, type ChainService } from './modules/chain/chain.service';
import { createSessionTokens } from './modules/auth/session-tokens';
import { createEmailService, type EmailService } from './modules/email/email.service';
import { registerOutboxRoutes } from './modules/email/outbox.routes';
import { registerHealthRoutes } from './modules/health/health.routes';
import { createRealtimeHub, type RealtimeHub } from './modules/realtime/realtime.hub';
import { registerRealtimeRoutes } from './modules/realtime/realtime.routes';
import {
  createSimulatedHolderSource,
  createSimulatedWalletDirectory,
} from './modules/holders/simulated-holder-source';
import { registerHoldersRoutes } from './modules/holders/holders.routes';
import { createHoldersService, type HoldersService } from './modules/holders/holders.service';
import type { MarketData } from './modules/market/market-data';
import { createMarketData } from './modules/market/market-data.factory';
import { registerMarketRoutes } from './modules/market/market.routes';
import { createMarketService, type MarketService } from './modules/market/market.service';
import { createMarketStream, type MarketStream } from './modules/market/market.stream';
import { createTokenFactsLookup } from './modules/market/simulator/simulated-tokens';
import { registerWalletRoutes } from './modules/wallet/wallet.routes';
import { createWalletRepository } from './modules/wallet/wallet.repository';
import { createWalletService, type WalletService } from './modules/wallet/wallet.service';
import { createLimitKeeper, type LimitKeeper } from './modules/trading/limit-keeper';
import { createRelayRepository } from './modules/relay/relay.repository';
import { createRelay, type Relay } from './modules/relay/relay.service';
import { createTradingRepository } from './modules/trading/trading.repository';
import { registerTradingRoutes } from './modules/trading/trading.routes';
import { createTradingService, type TradingService } from './modules/trading/trading.service';
import { createJupiterVenue } from './modules/trading/venues/jupiter-venue';
import { createLocalRfqVenue } from './modules/trading/venues/local-rfq-venue';
import type { SpotVenue } from './modules/trading/venues/spot-venue';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VERSION = (
  JSON.parse(fs.readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

export interface BuildOptions {
  /** An already-open database (tests share one per file); otherwise opened from the config. */
  database?: Database;
  /** The clock every service reads; tests move it to expire challenges, tokens and reset links. */
  now?: () => Date;
  /** 'memory': the embedded cluster (used when SOLANA_RPC_URL is unset) keeps nothing on disk. */
  embeddedCluster?: 'memory';
}

/** Largest JSON-RPC request body /rpc accepts (a signed transaction is at most 1232 bytes). */
const RPC_BODY_LIMIT_BYTES = 64 * 1024;

export interface App {
  server: FastifyInstance;
  database: Database;
  hub: RealtimeHub;
  services: {
    auth: AuthService;
    email: EmailService;
    market: MarketService;
    holders: HoldersService;
    chain: ChainService;
    relay: Relay;
    wallet: WalletService;
    trading: TradingService;
  };
  /** The limit-order keeper of the local venue (absent with Jupiter). */
  keeper?: LimitKeeper;
  /**
   * The embedded local cluster when SOLANA_RPC_URL is unset, running in a worker thread (tests and
   * tooling only; its methods are async).
   */
  cluster?: ClusterHost;
  /** The JSON-RPC URL the server reaches the chain at (known once the server listens). */
  rpcUrl(): string;
  /** The market data source (simulator or live) and the real-time market publisher. */
  market: { data: MarketData; stream: MarketStream };
  close(): Promise<void>;
}

/** Builds the whole server (not listening). The composition root: every dependency is wired here. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
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

  const ownsDatabase = !options.database;
  const database =
    options.database ??
    (await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
    ));
  const now = options.now ?? (() => new Date());

  const jwtSecret = config.jwtSecret
    ? new TextEncoder().encode(config.jwtSecret)
    : await readOrCreateSecret(config.dataDir, 'jwt-secret', 32);
  const walletEncryptionKey = config.walletEncryptionKey
    ? Buffer.from(config.walletEncryptionKey, 'hex')
    : await readOrCreateSecret(config.dataDir, 'wallet-encryption-key', 32);

  const email = createEmailService({
    db: database.db,
    smtpUrl: config.smtpUrl,
    from: config.emailFrom,
    log: server.log,
  });
  // The hub comes first: revoking a session (logout, password reset) closes its sockets.
  const hub = createRealtimeHub({ database, log: server.log, now });
  await hub.start();
  const auth = createAuthService({
    repo: createAuthRepository(database.db),
    tokens: createSessionTokens(jwtSecret),
    email,
    walletEncryptionKey,
    network: config.network,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    sessionTtlHours: config.sessionTtlHours,
    rememberMeTtlDays: config.rememberMeTtlDays,
    loginThrottle: config.loginThrottle,
    now,
    log: server.log,
    onSessionsRevoked: (revocation) => hub.revokeSessions(revocation),
  });

  // The simulator's seed decides every future price: a public default would let anyone compute the
  // market ahead of time, so without MARKET_SEED each data directory gets its own, generated once.
  const marketSeed =
    config.market.seed ?? (await readOrCreateSecret(config.dataDir, 'market-seed', 16)).toString('hex');
  const marketData = createMarketData({ ...config.market, seed: marketSeed }, { now, log: server.log });
  const market = createMarketService({ data: marketData, now, log: server.log });
  const tokenFacts = createTokenFactsLookup();
  // Holder balances come from the simulator until the local chain provides token accounts (holder-source.ts).
  const holders = createHoldersService({
    market,
    source: createSimulatedHolderSource({
      seed: marketSeed,
      now,
      facts: tokenFacts,
      async priceOf(mint) {
        const token = await market.findToken(mint);
        return token ? (await marketData.getQuote(token))?.price : undefined;
      },
    }),
    directory: createSimulatedWalletDirectory({
      seed: marketSeed,
      dexOf: (mint) => tokenFacts(mint)?.dex,
    }),
  });
  const marketStream = createMarketStream({ hub, market, tickMs: config.market.tickMs, log: server.log });

  // Chain: a configured RPC URL, or the embedded cluster served at /rpc on this server's own port. The
  // cluster (LiteSVM, slot clock, ledger, JSON-RPC handler) runs in a worker thread, so no chain work
  // runs on this event loop.
  const cluster = config.solanaRpcUrl
    ? undefined
    : await startClusterWorker({
        cluster: {
          dataDir: options.embeddedCluster === 'memory' ? undefined : path.join(config.dataDir, 'localnet'),
          slotDurationMs: config.localnetSlotMs,
          slotClock: 'auto',
        },
        limits: {
          maxBatchSize: config.rpc.maxBatchSize,
          maxResponseBytes: config.rpc.maxResponseBytes,
          airdrop: config.rpc.airdrop,
        },
        log: (line, level = 'info') => server.log[level]({ component: 'localnet' }, line),
      });
  const rpcUrl = (): string => {
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
  // The embedded cluster is reached through its JSON-RPC handler in the worker, without HTTP (the same
  // JSON-RPC text as over HTTP, u64 values kept exact, as an internal caller); SOLANA_RPC_URL over HTTP.
  const chain = createChainService({
    rpcUrl,
    now,
    log: server.log,
    transport: cluster
      ? async <T>({ payload }: { payload: unknown }) =>
          parseJsonWithBigInts(await cluster.handleJsonRpcText(stringifyJsonWithBigInts(payload))) as T
      : undefined,
  });

  // Spot venue: the local RFQ market maker on the embedded cluster (it holds the maker's key), else Jupiter.
  if (config.spotVenue === 'local-rfq' && !cluster) {
    throw new Error('SPOT_VENUE=local-rfq needs the embedded cluster: unset SOLANA_RPC_URL or use jupiter');
  }
  const venue: SpotVenue =
    config.spotVenue === 'local-rfq' && cluster
      ? createLocalRfqVenue({
          chain,
          maker: cluster.marketMaker,
          ...config.rfq,
          async usdPriceOf(token) {
            return market.getUsdPrice(await market.resolveToken(token.mint));
          },
        })
      : createJupiterVenue({
          baseUrl: config.market.jupiterSwapUrl,
          apiKey: config.market.jupiterApiKey,
          timeoutMs: config.market.providerTimeoutMs,
          log: server.log,
        });
  // Limit orders escrow with a venue key of their own (kept under DATA_DIR) and settle against the maker.
  const escrowSigner = cluster
    ? options.embeddedCluster === 'memory'
      ? await generateKeyPairSigner()
      : await createKeyPairSignerFromPrivateKeyBytes(
          await readOrCreateSecret(config.dataDir, 'venue-escrow-key', 32),
        )
    : undefined;
  // The relay first: wallet and trading register their ticket kinds with it.
  const relay = createRelay({ repo: createRelayRepository(database.db), chain, now, log: server.log });
  const tradingRepository = createTradingRepository(database.db, now);
  const publishOrder = (userId: string, order: TSpotOrder) => {
    void hub.publish(userId, { type: 'order_update', data: order }).catch(() => undefined);
  };
  const trading = createTradingService({
    repo: tradingRepository,
    relay,
    chain,
    market,
    venue,
    escrowAddress: escrowSigner?.address,
    now,
    log: server.log,
    onOrderChanged: publishOrder,
  });
  const keeper: LimitKeeper | undefined =
    escrowSigner && cluster
      ? createLimitKeeper({
          repo: tradingRepository,
          chain,
          trading,
          relay,
          escrow: escrowSigner,
          maker: cluster.marketMaker,
          intervalMs: config.limitKeeperIntervalMs,
          fundEscrow: isTestNetwork(config.network),
          now,
          log: server.log,
          onOrderChanged: publishOrder,
        })
      : undefined;
  const wallet = createWalletService({
    chain,
    market,
    network: config.network,
    faucetRateLimit: config.faucetRateLimit,
    faucetGrants: createWalletRepository(database.db),
    now,
    // The embedded cluster's treasury is the mint authority of its tokens: the faucet mints USDC with it.
    faucetMinter: cluster?.treasury,
    relay,
  });

  await server.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        frameSrc: ["'self'", 'https:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        // The app is served over plain http on localhost; upgrading would break it there.
        upgradeInsecureRequests: null,
      },
    },
  });
  await server.register(fastifyRateLimit, { global: false });
  await server.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await registerApiDocs(server, VERSION);

  const requireAuth = createRequireAuth(auth);
  registerHealthRoutes(server, { network: config.network, database: database.kind, version: VERSION });
  registerAuthRoutes(server, {
    auth,
    requireAuth,
    rateLimit: { max: config.authRateLimit.max, timeWindow: config.authRateLimit.windowMs },
  });
  if (config.devOutbox) registerOutboxRoutes(server, { email });
  registerRealtimeRoutes(server, { hub, auth });
  registerMarketRoutes(server, { market, now });
  registerHoldersRoutes(server, { holders });
  registerTradingRoutes(server, { trading, keeper, requireAuth });
  registerWalletRoutes(server, { wallet, requireAuth });
  if (cluster) {
    // Raw text in and out: answers hold u64 values beyond 2^53, written as exact integer literals.
    await server.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser(
        'application/json',
        { parseAs: 'string', bodyLimit: RPC_BODY_LIMIT_BYTES },
        (_request, body, done) => done(null, body),
      );
      // Every caller of /rpc is public: limited per client (its IP) here and by the handler's limits.
      scope.post(
        '/rpc',
        {
          bodyLimit: RPC_BODY_LIMIT_BYTES,
          schema: { hide: true },
          config: { rateLimit: { max: config.rpc.rateLimit.max, timeWindow: config.rpc.rateLimit.windowMs } },
        },
        async (request, reply) => {
          const answer = await cluster.handleJsonRpcBytes(request.body as string, {
            kind: 'public',
            clientId: request.ip,
          });
          return reply
            .type('application/json; charset=utf-8')
            .send(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength));
        },
      );
    });
  }
  await registerWebApp(server, config.webDistDir ?? path.resolve(SERVER_DIR, '../web/dist'));

  // Last: the market's first snapshot is warmed once everything is registered.
  await marketData.start();
  marketStream.start();
  // The chain is reached over HTTP, possibly at this very server's /rpc: chain work starts once it listens.
  // Sends interrupted by a previous stop are settled from the chain first, then the keeper starts.
  server.addHook('onListen', async () => {
    await relay
      .reconcileSent()
      .catch((error: unknown) => server.log.error({ err: error }, 'reconciliation after restart failed'));
    await keeper
      ?.start()
      .catch((error: unknown) => server.log.error({ err: error }, 'limit keeper failed to start'));
  });

  return {
    server,
    database,
    hub,
    services: { auth, email, market, holders, chain, relay, wallet, trading },
    keeper,
    market: { data: marketData, stream: marketStream },
    cluster,
    rpcUrl,
    async close() {
      await server.close();
      await keeper?.stop();
      await cluster?.close();
      marketStream.stop();
      await marketData.stop();
      await hub.stop();
      if (ownsDatabase) await database.close();
    },
  };
}
