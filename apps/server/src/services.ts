import path from 'node:path';
import {
  createKeyPairSignerFromPrivateKeyBytes,
  generateKeyPairSigner,
  type KeyPairSigner,
} from '@solana/kit';
import type { RpcTransport } from '@solana/rpc-spec';
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import {
  isTestNetwork,
  WRAPPED_SOL_MINT,
  type TBacktestResult,
  type TSpotOrder,
  type TUserMessage,
} from '@solterm/contracts';
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
import { openDatabase, type Database } from './db/database';
import { createInProcessScheduler } from './jobs/in-process-scheduler';
import { createPgBossScheduler } from './jobs/pg-boss-scheduler';
import type { JobScheduler } from './jobs/scheduler';
import { readOrCreateSecret } from './lib/data-dir-secret';
import { createAuthRepository } from './modules/auth/auth.repository';
import { createAuthService, type AuthService } from './modules/auth/auth.service';
import { createSessionTokens } from './modules/auth/session-tokens';
import { AppError } from './lib/app-error';
import { createChainService, type ChainService } from './modules/chain/chain.service';
import { createEmailService, type EmailService } from './modules/email/email.service';
import { createHoldersService, type HoldersService } from './modules/holders/holders.service';
import {
  createSimulatedHolderSource,
  createSimulatedWalletDirectory,
} from './modules/holders/simulated-holder-source';
import type { MarketData } from './modules/market/market-data';
import { createMarketData } from './modules/market/market-data.factory';
import { createMarketService, type MarketService } from './modules/market/market.service';
import { createMarketStream, type MarketStream } from './modules/market/market.stream';
import { createTokenFactsLookup } from './modules/market/simulator/simulated-tokens';
import { createRealtimeHub, type RealtimeHub } from './modules/realtime/realtime.service';
import { createRelayRepository } from './modules/relay/relay.repository';
import { createRelay, type Relay, type RelayDeps } from './modules/relay/relay.service';
import { createLimitKeeper, type LimitKeeper } from './modules/trading/limit-keeper';
import { createTradingRepository } from './modules/trading/trading.repository';
import { createTradingService, type TradingService } from './modules/trading/trading.service';
import { createJupiterVenue } from './modules/trading/venues/jupiter-venue';
import { createLocalRfqVenue } from './modules/trading/venues/local-rfq-venue';
import type { SpotVenue } from './modules/trading/venues/spot-venue';
import { createWalletRepository } from './modules/wallet/wallet.repository';
import {
  createWalletService,
  type WalletService,
  type WithdrawalLock,
} from './modules/wallet/wallet.service';
import { createBacktestPool } from './modules/bots/backtest/backtest-pool';
import { createBacktestRunner } from './modules/bots/backtest/backtest-runner';
import { createBacktestExports, type BacktestExports } from './modules/bots/backtest/backtest-exports';
import {
  backtestSubmitter,
  backtestTask,
  createBacktestStatus,
  type BacktestStatus,
} from './modules/bots/backtest/backtest-task';
import { createBotsRepository } from './modules/bots/bots.repository';
import { createBotsService, type BotsService } from './modules/bots/bots.service';
import { createMarketplaceRepository } from './modules/bots/marketplace/marketplace.repository';
import {
  createMarketplaceService,
  type MarketplaceService,
} from './modules/bots/marketplace/marketplace.service';
import { createJsLiveThread } from './modules/bots/sandbox/js-live-thread';
import { createPythonSandbox, type PythonAvailability } from './modules/bots/sandbox/python-sandbox';
import { createBotRunsRepository } from './modules/bots/live/bot-runs.repository';
import { createBotRunsService } from './modules/bots/live/bot-runs.service';
import { createBotDetail, type BotDetail } from './modules/bots/live/bot-detail';
import { createOnChainExecutor } from './modules/bots/live/onchain-executor';
import { createBotFundsRepository } from './modules/bots/funds/bot-funds.repository';
import { createBotFundsService, type BotFundsService } from './modules/bots/funds/bot-funds.service';
import { createBotRunner, type BotRunner } from './modules/bots/live/bot-runner';
import { createDriftPerpVenue } from './modules/futures/drift-venue';
import { createFuturesMarkets } from './modules/futures/futures-markets';
import { createFuturesRepository, type RecordedEffect } from './modules/futures/futures.repository';
import { createFuturesService } from './modules/futures/futures.service';
import { createPerpKeeper, type PerpKeeper } from './modules/futures/perp-keeper';
import { createPerpLedger } from './modules/futures/perp-ledger';
import { PERP_MARKETS } from './modules/futures/perp-markets';
import { createPerpVault } from './modules/futures/perp-vault';
import type { PerpVenue } from './modules/futures/perp-venue';

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

/** Every service of the server, wired once; the API and the worker processes both start from here. */
export interface Services {
  /** The clock every service reads. */
  now: () => Date;
  database: Database;
  hub: RealtimeHub;
  auth: AuthService;
  email: EmailService;
  market: MarketService;
  marketData: MarketData;
  marketStream: MarketStream;
  holders: HoldersService;
  chain: ChainService;
  relay: Relay;
  wallet: WalletService;
  trading: TradingService;
  /** The limit-order keeper of the local venue (absent with Jupiter). */
  keeper?: LimitKeeper;
  /** Bot definitions and backtests. */
  bots: BotsService;
  /** Backtests' fills kept for their CSV export. */
  backtestExports: BacktestExports;
  /** Where the backtests computed in this process are. */
  backtestStatus: BacktestStatus;
  /** Whether this server runs Python strategies (GET /api/health says, and why not). */
  pythonAvailability: () => PythonAvailability;
  /** Paper bots' runner (its job is scheduled when this process runs jobs). */
  botRunner: BotRunner;
  /** Each user's bot key, its funds and delegations. */
  botFunds: BotFundsService;
  /** Public bots with verified track records, and copying. */
  marketplace: MarketplaceService;
  /** The owner's view of one bot: runs, fills, position, equity, errors. */
  botDetail: BotDetail;
  /** Perpetual futures: the local venue (trading) or Drift's market data. */
  perpVenue: PerpVenue;
  /** The local perp venue's keeper (absent with Drift). */
  perpKeeper?: PerpKeeper;
  /** The embedded local cluster when SOLANA_RPC_URL is unset, in a worker thread (its methods are async). */
  cluster?: ClusterHost;
  /** Background jobs: the keeper (or reconciliation) as a singleton; started by the process's entry. */
  scheduler: JobScheduler;
  close(): Promise<void>;
}

/** The cluster's privileged keys: its own (embedded), a standalone cluster's files, or none (a real cluster). */
interface ClusterKeys {
  treasury: KeyPairSigner;
  marketMaker: KeyPairSigner;
}

async function startChain(config: AppConfig, options: ServiceOptions) {
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
          airdrop: config.rpc.airdrop,
        },
        log: (line, level = 'info') => options.log[level]({ component: 'localnet' }, line),
      });
  const keys: ClusterKeys | undefined = cluster
    ? { treasury: cluster.treasury, marketMaker: cluster.marketMaker }
    : config.localnetKeysDir
      ? {
          treasury: (await readKeyPairFile(path.join(config.localnetKeysDir, TREASURY_KEYPAIR_FILE))).signer,
          marketMaker: (await readKeyPairFile(path.join(config.localnetKeysDir, MARKET_MAKER_KEYPAIR_FILE)))
            .signer,
        }
      : undefined;
  // The embedded cluster is reached through its JSON-RPC handler in the worker, without HTTP (the same
  // JSON-RPC text as over HTTP, u64 values kept exact); SOLANA_RPC_URL over HTTP.
  const chain = createChainService({
    rpcUrl: options.rpcUrl,
    now: options.now ?? (() => new Date()),
    log: options.log,
    wrapTransport: options.wrapRpcTransport,
    transport: cluster
      ? async <T>({ payload }: { payload: unknown }) =>
          parseJsonWithBigInts(await cluster.handleJsonRpcText(stringifyJsonWithBigInts(payload))) as T
      : undefined,
  });
  return { cluster, keys, chain };
}

async function startMarket(config: AppConfig, options: ServiceOptions, now: () => Date, hub: RealtimeHub) {
  // The simulator's seed decides every future price: a public default would let anyone compute the
  // market ahead of time, so without MARKET_SEED each data directory gets its own, generated once.
  const seed =
    config.market.seed ?? (await readOrCreateSecret(config.dataDir, 'market-seed', 16)).toString('hex');
  const marketData = createMarketData({ ...config.market, seed }, { now, log: options.log });
  const market = createMarketService({ data: marketData, now, log: options.log });
  const tokenFacts = createTokenFactsLookup();
  // Holder balances come from the simulator until the local chain provides token accounts (holder-source.ts).
  const holders = createHoldersService({
    market,
    source: createSimulatedHolderSource({
      seed,
      now,
      facts: tokenFacts,
      async priceOf(mint) {
        const token = await market.findToken(mint);
        return token ? (await marketData.getQuote(token))?.price : undefined;
      },
    }),
    directory: createSimulatedWalletDirectory({ seed, dexOf: (mint) => tokenFacts(mint)?.dex }),
  });
  const marketStream = createMarketStream({
    hub,
    market,
    tickMs: config.market.tickMs,
    now,
    log: options.log,
  });
  return { marketData, market, holders, marketStream };
}

/** The spot venue: the local RFQ market maker where the cluster's keys are known, else Jupiter. */
function createVenue(
  config: AppConfig,
  options: ServiceOptions,
  chain: ChainService,
  market: MarketService,
  keys?: ClusterKeys,
): SpotVenue {
  if (config.spotVenue === 'local-rfq' && !keys) {
    throw new Error(
      'SPOT_VENUE=local-rfq needs the embedded cluster or LOCALNET_KEYS_DIR: unset SOLANA_RPC_URL, set LOCALNET_KEYS_DIR, or use jupiter',
    );
  }
  if (config.spotVenue === 'local-rfq' && keys) {
    return createLocalRfqVenue({
      chain,
      maker: keys.marketMaker,
      ...config.rfq,
      async usdPriceOf(token) {
        return market.getUsdPrice(await market.resolveToken(token.mint));
      },
    });
  }
  return createJupiterVenue({
    baseUrl: config.market.jupiterSwapUrl,
    apiKey: config.market.jupiterApiKey,
    timeoutMs: config.market.providerTimeoutMs,
    log: options.log,
  });
}

/** Limit orders escrow with a venue key of their own (kept under DATA_DIR) and settle against the maker. */
async function escrowSignerOf(config: AppConfig, options: ServiceOptions, keys?: ClusterKeys) {
  if (!keys) return undefined;
  if (options.embeddedCluster === 'memory') return generateKeyPairSigner();
  return createKeyPairSignerFromPrivateKeyBytes(
    await readOrCreateSecret(config.dataDir, 'venue-escrow-key', 32),
  );
}

function createScheduler(config: AppConfig, log: FastifyBaseLogger): JobScheduler {
  return config.databaseUrl
    ? createPgBossScheduler({ connectionString: config.databaseUrl, log })
    : createInProcessScheduler(log);
}

async function openStorage(config: AppConfig, options: ServiceOptions) {
  const database =
    options.database ??
    (await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
    ));
  const jwtSecret = config.jwtSecret
    ? new TextEncoder().encode(config.jwtSecret)
    : await readOrCreateSecret(config.dataDir, 'jwt-secret', 32);
  const walletEncryptionKey = config.walletEncryptionKey
    ? Buffer.from(config.walletEncryptionKey, 'hex')
    : await readOrCreateSecret(config.dataDir, 'wallet-encryption-key', 32);
  return { database, jwtSecret, walletEncryptionKey };
}

/** The relay and its clients (wallet transfers, spot trading) and the limit keeper. */
async function createTradingServices(
  config: AppConfig,
  options: ServiceOptions,
  deps: {
    database: Database;
    now: () => Date;
    hub: RealtimeHub;
    chain: ChainService;
    market: MarketService;
    keys?: ClusterKeys;
  },
) {
  const { database, now, hub, chain, market, keys } = deps;
  const { log } = options;
  const venue = createVenue(config, options, chain, market, keys);
  const escrow = await escrowSignerOf(config, options, keys);
  // The relay first: wallet and trading register their ticket kinds with it.
  const relay = createRelay({
    repo: createRelayRepository(database.db),
    db: database.db,
    chain,
    now,
    log,
    crashPoint: options.relayCrashPoint,
  });
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
    escrowAddress: escrow?.address,
    now,
    log,
    onOrderChanged: publishOrder,
  });
  const keeper =
    escrow && keys
      ? createLimitKeeper({
          repo: tradingRepository,
          chain,
          trading,
          relay,
          escrow,
          maker: keys.marketMaker,
          intervalMs: config.limitKeeperIntervalMs,
          fundEscrow: isTestNetwork(config.network),
          now,
          log,
          onOrderChanged: publishOrder,
        })
      : undefined;
  const wallet = createWalletService({
    chain,
    market,
    relay,
    network: config.network,
    faucetRateLimit: config.faucetRateLimit,
    faucetGrants: createWalletRepository(database.db),
    now,
    // The cluster's treasury is the mint authority of its tokens: the faucet mints USDC with it.
    faucetMinter: keys?.treasury,
  });
  return { relay, trading, keeper, wallet };
}

/** The perp venue's vault key: kept under DATA_DIR (a new one each run for an in-memory cluster). */
async function perpVaultSigner(config: AppConfig, options: ServiceOptions) {
  if (options.embeddedCluster === 'memory') return generateKeyPairSigner();
  return createKeyPairSignerFromPrivateKeyBytes(
    await readOrCreateSecret(config.dataDir, 'perp-vault-key', 32),
  );
}

/**
 * Perpetual futures: the in-house venue where the cluster's keys are known (its USDC vault on chain,
 * the maker and insurance fund minted by the treasury), else Drift's market data (read-only).
 */
async function createFutures(
  config: AppConfig,
  options: ServiceOptions,
  deps: {
    database: Database;
    now: () => Date;
    hub: RealtimeHub;
    chain: ChainService;
    relay: Relay;
    market: MarketService;
    keys?: ClusterKeys;
    withdrawalLock: WithdrawalLock;
  },
): Promise<{ perpVenue: PerpVenue; perpKeeper?: PerpKeeper }> {
  const { database, now, hub, chain, relay, market, keys } = deps;
  const { log } = options;
  if (config.perpVenue === 'drift') {
    return {
      perpVenue: createDriftPerpVenue({
        baseUrl: config.driftDataApiUrl,
        timeoutMs: config.market.providerTimeoutMs,
        log,
        now,
      }),
    };
  }
  if (!keys) {
    throw new Error(
      'PERP_VENUE=local needs the embedded cluster or LOCALNET_KEYS_DIR: unset SOLANA_RPC_URL, set LOCALNET_KEYS_DIR, or use drift',
    );
  }
  const ledger = createPerpLedger({ database, markets: PERP_MARKETS, log });
  await ledger.load();
  const repo = createFuturesRepository(database.db, now);
  const vault = createPerpVault({
    chain,
    relay,
    vault: await perpVaultSigner(config, options),
    minter: keys.treasury,
    fundFees: isTestNetwork(config.network),
    log,
  });
  const markets = createFuturesMarkets({ ledger, repo, now });
  const pendingBooks = new Set<string>();
  let bookTimer: NodeJS.Timeout | undefined;
  const publishBooks = () => {
    bookTimer = undefined;
    for (const symbol of pendingBooks) {
      void hub.publishChannel(`futures-book:${symbol}`, markets.bookNow(symbol)).catch(() => undefined);
    }
    pendingBooks.clear();
  };
  const onEffect = (effect: RecordedEffect) => {
    for (const symbol of effect.markets) pendingBooks.add(symbol);
    // Books are pushed at most every 200 ms: a burst of commands sends the last state once.
    if (pendingBooks.size > 0 && !bookTimer) bookTimer = setTimeout(publishBooks, 200);
    const bySymbol = new Map<string, typeof effect.fills>();
    for (const fill of effect.fills) bySymbol.set(fill.market, [...(bySymbol.get(fill.market) ?? []), fill]);
    for (const [symbol, fills] of bySymbol) {
      const perp = PERP_MARKETS.find((m) => m.symbol === symbol)!;
      void hub
        .publishChannel(`futures-trades:${symbol}`, {
          symbol,
          trades: fills.map((fill) => ({
            symbol,
            side: fill.side === 'buy' ? ('Long' as const) : ('Short' as const),
            size: service.wire.size(fill.size, perp),
            price: service.wire.price(fill.price, perp),
            at: new Date(fill.at).toISOString(),
          })),
        })
        .catch(() => undefined);
    }
    for (const userId of effect.users) {
      const liquidated = effect.liquidated.includes(userId);
      void hub
        .publish(userId, {
          type: 'futures_update',
          data: liquidated
            ? {
                reason: 'liquidation',
                message:
                  'Your futures positions were liquidated: your equity fell below the maintenance margin. They were closed at the market and a liquidation fee went to the insurance fund.',
              }
            : {
                reason: effect.fills.length > 0 ? 'fill' : 'deposit',
                message: 'Your futures account changed',
              },
        })
        .catch(() => undefined);
    }
  };
  // The keeper needs the service and the service syncs markets through the keeper before orders.
  let syncMarket: (symbol: string) => Promise<void> = async () => undefined;
  const service = createFuturesService({
    ledger,
    repo,
    vault,
    chain,
    relay,
    now,
    withdrawalLock: deps.withdrawalLock,
    onEffect,
    syncMarket: (symbol) => syncMarket(symbol),
  });
  const perpKeeper = createPerpKeeper({
    ledger,
    service,
    repo,
    vault,
    market,
    chain,
    now,
    log,
    intervalMs: config.perpKeeperIntervalMs,
  });
  syncMarket = perpKeeper.syncMarket;
  return { perpVenue: { kind: 'local', ...markets, trading: service }, perpKeeper };
}

/** Builds every service (nothing runs yet: the entry starts the market feed and the scheduler). */
export async function createServices(config: AppConfig, options: ServiceOptions): Promise<Services> {
  const { log } = options;
  const now = options.now ?? (() => new Date());
  const { database, jwtSecret, walletEncryptionKey } = await openStorage(config, options);
  const email = createEmailService({ db: database.db, smtpUrl: config.smtpUrl, from: config.emailFrom, log });
  // The hub comes first: revoking a session (logout, password reset) closes its sockets.
  const hub = createRealtimeHub({ database, log, now });
  await hub.start();
  let holdsFundsAwaitingWallet: (userId: string) => Promise<boolean> = async () => false;
  const auth = createAuthService({
    repo: createAuthRepository(database.db, now),
    tokens: createSessionTokens(jwtSecret),
    email,
    walletEncryptionKey,
    network: config.network,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    sessionTtlHours: config.sessionTtlHours,
    rememberMeTtlDays: config.rememberMeTtlDays,
    loginThrottle: config.loginThrottle,
    walletChangeLockMs: config.walletChangeLockMs,
    holdsFundsAwaitingWallet: (userId) => holdsFundsAwaitingWallet(userId),
    now,
    log,
    onSessionsRevoked: (revocation) => hub.revokeSessions(revocation),
  });
  // Money leaves (bot and futures withdrawals) for a newly linked wallet only once its lock ends.
  const withdrawalLock: WithdrawalLock = (userId, address) =>
    auth.withdrawalsLockedUntil(userId, address, now());
  const { marketData, market, holders, marketStream } = await startMarket(config, options, now, hub);
  const { cluster, keys, chain } = await startChain(config, { ...options, now });
  const { relay, trading, keeper, wallet } = await createTradingServices(config, options, {
    database,
    now,
    hub,
    chain,
    market,
    keys,
  });
  const python = createPythonSandbox({ log, timeLimitMs: config.backtestTimeLimitMs });
  const backtestPool = createBacktestPool({ log, timeLimitMs: config.backtestTimeLimitMs, python });
  const scheduler = createScheduler(config, log);
  const backtestExports = createBacktestExports(database.db, now);
  const backtestStatus = createBacktestStatus();
  // Backtests are computed where jobs run: with JOBS=off an API process submits them to the others.
  // Embedded, the one process is the only one there is.
  if (config.jobs || scheduler.kind === 'in-process') {
    scheduler.task(
      backtestTask(
        createBacktestRunner({
          market,
          pool: backtestPool,
          timeLimitMs: config.backtestTimeLimitMs,
          now,
          log,
          exports: backtestExports,
        }),
        (userId, progress) => {
          void hub.publish(userId, { type: 'backtest_progress', data: progress }).catch(() => undefined);
        },
        backtestStatus,
      ),
    );
  }
  const botRunsRepo = createBotRunsRepository(database.db);
  const publishToUser = (userId: string, message: TUserMessage) => {
    void hub.publish(userId, message).catch(() => undefined);
  };
  const sandboxes = { js: createJsLiveThread({ log }), python };
  const botFundsRepo = createBotFundsRepository(database.db);
  // SOL or tokens at a bot key before any wallet was linked: a node that cannot say counts as funds.
  holdsFundsAwaitingWallet = async (userId) => {
    const key = await botFundsRepo.keyOf(userId);
    if (!key) return false;
    try {
      const [lamports, tokens] = await Promise.all([
        chain.getBalance(key.address),
        chain.getTokenBalances(key.address),
      ]);
      return lamports > 0n || [...tokens.values()].some((token) => token.amount > 0n);
    } catch {
      return true;
    }
  };
  // A revocation stops the user's on-chain runs; those are known once the runs service exists.
  let stopOnChainRuns: (userId: string) => Promise<void> = async () => undefined;
  const botFunds = createBotFundsService({
    repo: botFundsRepo,
    chain,
    relay,
    encryptionKey: walletEncryptionKey,
    now,
    onRevoked: (userId) => stopOnChainRuns(userId),
    withdrawalLock,
  });
  const botRunner = createBotRunner({
    repo: botRunsRepo,
    market,
    now,
    log,
    publish: publishToUser,
    sandboxes,
    onChain: {
      executor: createOnChainExecutor({
        repo: botFundsRepo,
        wallet: botFunds.wallet,
        trading,
        chain,
        now,
        log,
      }),
      walletOf: (userId) => botFunds.approvingWallet(userId),
    },
  });
  const botRuns = createBotRunsService({
    repo: botRunsRepo,
    market,
    runner: botRunner,
    sandboxes,
    now,
    publish: publishToUser,
    onChain: {
      approvedAllowance: (userId) => botFunds.approvedAllowance(userId),
      // A run's virtual cash: the approval's SOL at the maker's bid in the pair's quote token.
      async valueOfLamports(quoteMint, lamports) {
        if (quoteMint === WRAPPED_SOL_MINT) return lamports;
        const value = await trading.makerQuoteAmount(await trading.resolvePair('SOL/USDC'), 'Sell', lamports);
        if (value === null) throw new AppError('TRADING__VENUE_UNAVAILABLE');
        return value;
      },
    },
  });
  stopOnChainRuns = (userId) =>
    botRuns.stopOnChainRuns(userId, 'The bot stopped: its delegation was revoked');
  const botsRepo = createBotsRepository(database.db, now);
  const marketplaceRepo = createMarketplaceRepository(database.db);
  const submitBacktest = backtestSubmitter(scheduler, config.backtestTimeLimitMs);
  const bots = createBotsService({
    repo: botsRepo,
    backtest: submitBacktest,
    now,
    runs: botRuns,
    copyCounts: (ids) => marketplaceRepo.copyCounts(ids),
    pythonAvailability: () => python.availability(),
    cancelBacktest: (key) => backtestPool.cancel(key),
  });
  const botDetail = createBotDetail({
    findOwned: (userId, id) => botsRepo.findOwned(userId, id),
    repo: botRunsRepo,
    market,
    now,
  });
  const marketplace = createMarketplaceService({
    repo: marketplaceRepo,
    bots: botsRepo,
    runs: botRuns,
    users: auth,
    // A detail compares a few figures and the trades' times: it reads the answer's JSON.
    backtest: async (payload) => JSON.parse(await submitBacktest(payload)) as TBacktestResult,
    lamportsOf: (walletAddress) => chain.getBalance(walletAddress),
    now,
  });
  if (config.jobs) scheduler.singleton(botRunner.job());
  if (config.jobs) {
    // Sends interrupted by a stop are settled from the chain: by the keeper's passes, or on their own.
    scheduler.singleton(
      keeper?.job() ?? {
        name: 'relay-reconcile',
        intervalMs: config.limitKeeperIntervalMs,
        run: async () => void (await relay.reconcileSent()),
      },
    );
    // Every server-signed transaction not settled yet (a lost answer, a crash, a restart) is asked
    // about again until it landed, failed, or expired unseen — the only moments a domain acts.
    scheduler.singleton({
      name: 'relay-server-tickets',
      intervalMs: config.relayReconcileIntervalMs,
      run: async () => void (await relay.server.reconcile()),
    });
  }
  const { perpVenue, perpKeeper } = await createFutures(config, options, {
    database,
    now,
    hub,
    chain,
    relay,
    market,
    keys,
    withdrawalLock,
  });
  if (config.jobs && perpKeeper) scheduler.singleton(perpKeeper.job());
  const ownsDatabase = !options.database;
  return {
    now,
    database,
    hub,
    auth,
    email,
    market,
    marketData,
    marketStream,
    holders,
    chain,
    relay,
    wallet,
    trading,
    keeper,
    bots,
    backtestExports,
    backtestStatus,
    pythonAvailability: () => python.availability(),
    botRunner,
    botFunds,
    marketplace,
    botDetail,
    perpVenue,
    perpKeeper,
    cluster,
    scheduler,
    async close() {
      await scheduler.stop();
      await backtestPool.close();
      python.close();
      await sandboxes.js.close();
      // Bots' passes end once their sandboxes are gone; none may still write after the database closes.
      await botRunner.idle();
      await cluster?.close();
      await marketData.stop();
      await hub.stop();
      if (ownsDatabase) await database.close();
    },
  };
}
