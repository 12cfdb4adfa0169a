import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { NETWORKS } from '@solterm/contracts';

const ZPort = z.coerce.number().int().min(0).max(65535);
const ZPositiveInt = z.coerce.number().int().positive();
const LAMPORTS_PER_SOL = 1_000_000_000n;

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies' X-Forwarded-For entries to believe: `false` (none, the default), a hop count, or a
 * list of proxy addresses and CIDRs. `true` (every hop) is refused: with it the leftmost entry, which
 * the client writes itself, becomes the client address, and per-client limits are void.
 */
const ZTrustProxy = z
  .string()
  .trim()
  .default('false')
  .superRefine((value, context) => {
    if (value === 'true') {
      context.addIssue({
        code: 'custom',
        message:
          'TRUST_PROXY=true would trust every hop, so a forged X-Forwarded-For would pass as the client address; give the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.1,10.9.0.0/16)',
      });
    } else if (
      value !== 'false' &&
      !/^\d+$/.test(value) &&
      !value.split(',').every((entry) => isProxyAddress(entry.trim()))
    ) {
      context.addIssue({
        code: 'custom',
        message:
          'TRUST_PROXY must be false, a hop count, or a comma-separated list of proxy addresses or CIDRs',
      });
    }
  })
  .transform((value): false | number | string[] => {
    if (value === 'false') return false;
    if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
    return value.split(',').map((entry) => entry.trim());
  });

/**
 * Every setting the server reads, parsed once at boot. Behaviour branches on these explicit settings,
 * never on NODE_ENV. Unset optional URLs mean "use the embedded implementation".
 */
/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes a function trusting that many hops from the
 * socket: Fastify 5 treats a bare number as "trust nothing", since a hop count cannot tell a proxy
 * from a client connecting directly (so use a count only where clients reach the server through the
 * proxy alone; otherwise list the proxies' addresses).
 */
export function toFastifyTrustProxy(
  trustProxy: false | number | string[],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  return (_address, hop) => hop < trustProxy;
}

const ZConfigSchema = z
  .object({
    PORT: ZPort.default(8080),
    HOST: z.string().min(1).default('localhost'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.url().optional(),
    JWT_SECRET: z.string().min(32, { message: 'JWT_SECRET must be at least 32 characters' }).optional(),
    WALLET_ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, { message: 'WALLET_ENCRYPTION_KEY must be 64 hex characters (32 bytes)' })
      .optional(),
    SOLANA_NETWORK: z.enum(NETWORKS).default('localnet'),
    // Chain: unset runs the embedded local cluster, served at /rpc on this server's port.
    SOLANA_RPC_URL: z.url().optional(),
    LOCALNET_SLOT_MS: ZPositiveInt.min(10).max(60_000).default(400),
    // With SOLANA_RPC_URL at a cluster started by `npm run localnet`: its data dir, whose treasury and
    // market-maker keypairs let the local RFQ venue, the keeper and the faucet run against it.
    LOCALNET_KEYS_DIR: z.string().min(1).optional(),
    // The embedded cluster's account fixtures (`solana-test-validator --account-dir`): directories of
    // JSON account files, separated by the path delimiter, placed at each start.
    LOCALNET_ACCOUNT_DIR: z.string().min(1).optional(),
    // Background jobs (limit keeper, reconciliation) in this process: on, or off for an API process
    // that leaves them to `npm run worker` processes (shared through pg-boss on PostgreSQL).
    JOBS: z.enum(['on', 'off']).default('on'),
    // Spot venue: the embedded RFQ market maker (needs the embedded cluster) or Jupiter.
    SPOT_VENUE: z.enum(['local-rfq', 'jupiter']).optional(),
    // Perpetual futures: the in-house venue (needs the embedded cluster or its keys) or Drift's market data.
    PERP_VENUE: z.enum(['local', 'drift']).optional(),
    DRIFT_DATA_API_URL: z.url().default('https://data.api.drift.trade'),
    PERP_KEEPER_INTERVAL_MS: ZPositiveInt.min(50).max(60_000).default(1000),
    // Futures orders, closes and cancels one client may send a minute (an API trader's budget).
    FUTURES_ORDER_RATE_LIMIT_MAX: ZPositiveInt.default(600),
    LIMIT_KEEPER_INTERVAL_MS: ZPositiveInt.min(50).max(60_000).default(1000),
    /** How often unsettled server-signed transactions are asked about again (the relay's reconcile job). */
    RELAY_RECONCILE_INTERVAL_MS: ZPositiveInt.min(50).max(60_000).default(2000),
    // Longest one backtest may compute (user code gets the same CPU budget in its sandbox).
    BACKTEST_TIME_LIMIT_MS: ZPositiveInt.min(500).max(300_000).default(20_000),
    // The local maker signs a swap at execute time only while its quote is this young and the price
    // has not moved against it by more than the tolerance; and it keeps a floor of each token.
    RFQ_QUOTE_TTL_MS: ZPositiveInt.min(1000).max(60_000).default(10_000),
    RFQ_PRICE_TOLERANCE_BPS: z.coerce.number().int().min(0).max(100).default(10),
    MAKER_INVENTORY_FLOOR_BPS: z.coerce.number().int().min(0).max(9_999).default(1_000),
    FAUCET_RATE_LIMIT_MAX: ZPositiveInt.default(10),
    FAUCET_RATE_LIMIT_WINDOW_MS: ZPositiveInt.default(3_600_000),
    // Public JSON-RPC at /rpc (embedded cluster): limits of anonymous clients, as public clusters set them.
    RPC_RATE_LIMIT_MAX: ZPositiveInt.default(100),
    RPC_RATE_LIMIT_WINDOW_MS: ZPositiveInt.default(10_000),
    RPC_MAX_BATCH: ZPositiveInt.max(10_000).default(100),
    RPC_MAX_RESPONSE_BYTES: ZPositiveInt.min(1024).default(2 * 1024 * 1024),
    RPC_TOKEN_SCANS: z.enum(['narrow', 'any']).default('narrow'),
    RPC_AIRDROP_MAX_SOL: ZPositiveInt.default(5),
    RPC_AIRDROP_ADDRESS_MAX_SOL: ZPositiveInt.default(10),
    RPC_AIRDROP_CLIENT_MAX_SOL: ZPositiveInt.default(50),
    RPC_AIRDROP_WINDOW_MS: ZPositiveInt.default(3_600_000),
    RPC_AIRDROP_RESERVE_SOL: z.coerce.number().int().min(0).default(10_000),
    // Alerts: how often they are evaluated and due deliveries sent; whether webhooks may reach
    // private, loopback and link-local addresses (off: refused, also through DNS and redirects).
    ALERTS_INTERVAL_MS: ZPositiveInt.min(100).max(60_000).default(2000),
    ALERT_WEBHOOK_ALLOW_PRIVATE: z.enum(['on', 'off']).default('off'),
    PUBLIC_URL: z.url().optional(),
    SMTP_URL: z.string().min(1).optional(),
    // The dev outbox (GET /api/dev/outbox, loopback clients only): unset means on for localnet only.
    DEV_OUTBOX: z.enum(['on', 'off']).optional(),
    // The dev price hook (POST /api/dev/market/shift, loopback clients, simulated market only):
    // unset means on for localnet only.
    DEV_MARKET: z.enum(['on', 'off']).optional(),
    EMAIL_FROM: z.string().min(3).default('solterm <no-reply@solterm.local>'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    BODY_LIMIT_BYTES: ZPositiveInt.default(256 * 1024),
    AUTH_RATE_LIMIT_MAX: ZPositiveInt.default(20),
    AUTH_RATE_LIMIT_WINDOW_MS: ZPositiveInt.default(60_000),
    // Per email: after this many failed sign-ins within the window, a doubling delay, at most the max.
    LOGIN_FAILURES_MAX: ZPositiveInt.default(5),
    LOGIN_FAILURES_WINDOW_MS: ZPositiveInt.default(900_000),
    LOGIN_BACKOFF_MAX_MS: ZPositiveInt.default(900_000),
    SESSION_TTL_HOURS: ZPositiveInt.default(24),
    // After an account that had a Solana wallet links another, how long withdrawals to the new one
    // are refused (a stolen session cannot link its own wallet and take the money at once).
    WALLET_CHANGE_LOCK_MS: ZPositiveInt.default(86_400_000),
    REMEMBER_ME_TTL_DAYS: ZPositiveInt.default(30),
    WEB_DIST_DIR: z.string().min(1).optional(),
    TRUST_PROXY: ZTrustProxy,
    // Market data: the embedded simulator (default, no network) or the live providers.
    MARKET_DATA: z.enum(['simulator', 'live']).default('simulator'),
    // Unset: generated once per DATA_DIR (DATA_DIR/market-seed), so future prices are not public.
    MARKET_SEED: z.string().min(1).max(200).optional(),
    MARKET_TICK_MS: ZPositiveInt.min(100).default(1000),
    MARKET_PROVIDER_TIMEOUT_MS: ZPositiveInt.default(10_000),
    COINGECKO_API_URL: z.url().default('https://api.coingecko.com/api/v3'),
    COINGECKO_API_KEY: z.string().min(1).optional(),
    DEXSCREENER_API_URL: z.url().default('https://api.dexscreener.com'),
    JUPITER_PRICE_API_URL: z.url().default('https://lite-api.jup.ag/price/v3'),
    JUPITER_TOKENS_API_URL: z.url().default('https://lite-api.jup.ag/tokens/v2'),
    JUPITER_SWAP_API_URL: z.url().default('https://lite-api.jup.ag/swap/v1'),
    JUPITER_API_KEY: z.string().min(1).optional(),
  })
  .superRefine((raw, context) => {
    if (raw.DEV_OUTBOX === 'on' && raw.SOLANA_NETWORK === 'mainnet') {
      context.addIssue({
        code: 'custom',
        path: ['DEV_OUTBOX'],
        message: 'DEV_OUTBOX=on is refused on mainnet: the outbox holds password reset links',
      });
    }
    if (raw.DEV_MARKET === 'on' && raw.SOLANA_NETWORK === 'mainnet') {
      context.addIssue({
        code: 'custom',
        path: ['DEV_MARKET'],
        message: 'DEV_MARKET=on is refused on mainnet: it moves the prices orders and positions settle at',
      });
    }
  })
  .transform((raw) => ({
    port: raw.PORT,
    host: raw.HOST,
    dataDir: path.resolve(raw.DATA_DIR),
    databaseUrl: raw.DATABASE_URL,
    jwtSecret: raw.JWT_SECRET,
    walletEncryptionKey: raw.WALLET_ENCRYPTION_KEY,
    network: raw.SOLANA_NETWORK,
    solanaRpcUrl: raw.SOLANA_RPC_URL,
    localnetSlotMs: raw.LOCALNET_SLOT_MS,
    localnetKeysDir: raw.LOCALNET_KEYS_DIR ? path.resolve(raw.LOCALNET_KEYS_DIR) : undefined,
    localnetAccountDirs: (raw.LOCALNET_ACCOUNT_DIR ?? '')
      .split(path.delimiter)
      .filter((dir) => dir !== '')
      .map((dir) => path.resolve(dir)),
    jobs: raw.JOBS === 'on',
    spotVenue:
      raw.SPOT_VENUE ??
      (raw.SOLANA_RPC_URL && !raw.LOCALNET_KEYS_DIR ? ('jupiter' as const) : ('local-rfq' as const)),
    limitKeeperIntervalMs: raw.LIMIT_KEEPER_INTERVAL_MS,
    relayReconcileIntervalMs: raw.RELAY_RECONCILE_INTERVAL_MS,
    perpVenue:
      raw.PERP_VENUE ??
      (raw.SOLANA_RPC_URL && !raw.LOCALNET_KEYS_DIR ? ('drift' as const) : ('local' as const)),
    driftDataApiUrl: raw.DRIFT_DATA_API_URL,
    perpKeeperIntervalMs: raw.PERP_KEEPER_INTERVAL_MS,
    futuresOrderRateLimit: { max: raw.FUTURES_ORDER_RATE_LIMIT_MAX, windowMs: 60_000 },
    backtestTimeLimitMs: raw.BACKTEST_TIME_LIMIT_MS,
    rfq: {
      quoteTtlMs: raw.RFQ_QUOTE_TTL_MS,
      priceToleranceBps: raw.RFQ_PRICE_TOLERANCE_BPS,
      inventoryFloorBps: raw.MAKER_INVENTORY_FLOOR_BPS,
    },
    faucetRateLimit: { max: raw.FAUCET_RATE_LIMIT_MAX, windowMs: raw.FAUCET_RATE_LIMIT_WINDOW_MS },
    rpc: {
      rateLimit: { max: raw.RPC_RATE_LIMIT_MAX, windowMs: raw.RPC_RATE_LIMIT_WINDOW_MS },
      maxBatchSize: raw.RPC_MAX_BATCH,
      maxResponseBytes: raw.RPC_MAX_RESPONSE_BYTES,
      unfilteredTokenScans: raw.RPC_TOKEN_SCANS === 'any',
      airdrop: {
        maxLamportsPerRequest: BigInt(raw.RPC_AIRDROP_MAX_SOL) * LAMPORTS_PER_SOL,
        maxLamportsPerAddress: BigInt(raw.RPC_AIRDROP_ADDRESS_MAX_SOL) * LAMPORTS_PER_SOL,
        maxLamportsPerClient: BigInt(raw.RPC_AIRDROP_CLIENT_MAX_SOL) * LAMPORTS_PER_SOL,
        windowMs: raw.RPC_AIRDROP_WINDOW_MS,
        treasuryReserveLamports: BigInt(raw.RPC_AIRDROP_RESERVE_SOL) * LAMPORTS_PER_SOL,
      },
    },
    alerts: {
      intervalMs: raw.ALERTS_INTERVAL_MS,
      allowPrivateWebhooks: raw.ALERT_WEBHOOK_ALLOW_PRIVATE === 'on',
    },
    publicUrl: raw.PUBLIC_URL,
    smtpUrl: raw.SMTP_URL,
    devOutbox: raw.DEV_OUTBOX ? raw.DEV_OUTBOX === 'on' : raw.SOLANA_NETWORK === 'localnet',
    devMarket: raw.DEV_MARKET ? raw.DEV_MARKET === 'on' : raw.SOLANA_NETWORK === 'localnet',
    emailFrom: raw.EMAIL_FROM,
    logLevel: raw.LOG_LEVEL,
    bodyLimitBytes: raw.BODY_LIMIT_BYTES,
    authRateLimit: { max: raw.AUTH_RATE_LIMIT_MAX, windowMs: raw.AUTH_RATE_LIMIT_WINDOW_MS },
    loginThrottle: {
      maxFailures: raw.LOGIN_FAILURES_MAX,
      windowMs: raw.LOGIN_FAILURES_WINDOW_MS,
      backoffMaxMs: raw.LOGIN_BACKOFF_MAX_MS,
    },
    sessionTtlHours: raw.SESSION_TTL_HOURS,
    walletChangeLockMs: raw.WALLET_CHANGE_LOCK_MS,
    rememberMeTtlDays: raw.REMEMBER_ME_TTL_DAYS,
    webDistDir: raw.WEB_DIST_DIR ? path.resolve(raw.WEB_DIST_DIR) : undefined,
    trustProxy: raw.TRUST_PROXY,
    market: {
      data: raw.MARKET_DATA,
      seed: raw.MARKET_SEED,
      tickMs: raw.MARKET_TICK_MS,
      providerTimeoutMs: raw.MARKET_PROVIDER_TIMEOUT_MS,
      coingeckoUrl: raw.COINGECKO_API_URL,
      coingeckoApiKey: raw.COINGECKO_API_KEY,
      dexscreenerUrl: raw.DEXSCREENER_API_URL,
      jupiterPriceUrl: raw.JUPITER_PRICE_API_URL,
      jupiterTokensUrl: raw.JUPITER_TOKENS_API_URL,
      jupiterSwapUrl: raw.JUPITER_SWAP_API_URL,
      jupiterApiKey: raw.JUPITER_API_KEY,
    },
  }));

export type AppConfig = Readonly<z.output<typeof ZConfigSchema>>;

/** Names of every environment variable the server reads (the README's configuration table lists them). */
export const CONFIG_KEYS = Object.keys((ZConfigSchema.in as z.ZodObject).shape);

/**
 * Parses configuration from an environment map, listing every bad key on failure.
 * Keys the server does not know are ignored (the process environment holds many unrelated ones).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const relevant = Object.fromEntries(
    Object.entries(env).filter(
      ([key, value]) => CONFIG_KEYS.includes(key) && value !== undefined && value !== '',
    ),
  );
  const parsed = ZConfigSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(parsed.data);
}
