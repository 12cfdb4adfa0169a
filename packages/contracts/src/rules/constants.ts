/**
 * Every business constant of the spec (part 1 §9 and part 2 §9, plus the numbers stated elsewhere
 * in the spec text), named once. Durations are milliseconds unless the name says otherwise.
 * Decimal rates and amounts are JS numbers whose shortest decimal form is exact; convert them with
 * `SpecDecimal` before computing money with them.
 */

// ── Notifications ────────────────────────────────────────────────────────────────────────────

/** Default toast duration (top-right). */
export const TOAST_DURATION_MS = 4000;
/** Success toast duration. */
export const TOAST_SUCCESS_DURATION_MS = 3000;
/** Error toast duration. */
export const TOAST_ERROR_DURATION_MS = 5000;
/** Toasts within this window of the previous one are suppressed. */
export const TOAST_SUPPRESSION_MS = 100;
/** Pair-switch calls within this window of the previous one are ignored. */
export const PAIR_SWITCH_SUPPRESSION_MS = 100;

// ── Transport ────────────────────────────────────────────────────────────────────────────────

/** Base path of every API call. */
export const API_BASE_PATH = '/api';
/** Time-out of one API request. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Attempts per API request (the first try plus retries). */
export const REQUEST_MAX_ATTEMPTS = 3;
/** Waits before the 2nd and 3rd attempt. */
export const REQUEST_RETRY_DELAYS_MS = [1000, 2000] as const;
/** Retries of GET /market/dashboard-coins. */
export const DASHBOARD_COINS_RETRIES = 3;
/** Time-out for loading a lazily loaded page chunk. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

// ── Real-time connection ─────────────────────────────────────────────────────────────────────

/** WebSocket path on the page's host (wss when the page is https). */
export const WS_PATH = '/ws';
/** Reconnect attempts after an unclean close. */
export const WS_MAX_RECONNECT_ATTEMPTS = 5;
/** First reconnect delay; doubles on each attempt. */
export const WS_RECONNECT_BASE_DELAY_MS = 1000;

// ── Auth and wallet ──────────────────────────────────────────────────────────────────────────

// PASSWORD_MIN_LENGTH (8), WALLET_TYPES and SOLANA_WALLET_TYPES (the wallet types allowed to load
// portfolio data) live beside the auth schemas in auth/auth.schemas.ts.
/** Digits of the OTP code (one per box). */
export const OTP_LENGTH = 6;
/** OTP resend countdown, shown as 00:SS. */
export const OTP_RESEND_COUNTDOWN_SECONDS = 60;
/** Redirect to /dashboard after login, signup or wallet connect. */
export const REDIRECT_AFTER_LOGIN_MS = 1000;
/** Redirect after forgot-password (to /otp-verification) or reset-password (to /auth). */
export const REDIRECT_AFTER_PASSWORD_RESET_MS = 2000;
/** Solflare installation is re-checked after this delay on /wallet-connect. */
export const WALLET_INSTALL_RECHECK_MS = 1000;
/** Wallet restoration attempts on load. */
export const WALLET_RESTORE_MAX_ATTEMPTS = 3;
/** Wallet restoration waits this times the attempt number between attempts. */
export const WALLET_RESTORE_DELAY_STEP_MS = 500;
/** Keys the client stores locally. */
export const LOCAL_STORAGE_KEYS = {
  authToken: 'auth_token',
  walletAddress: 'wallet_address',
  walletType: 'wallet_type',
} as const;

/** One entry of the manual EVM chain list. */
export interface EvmChain {
  /** Chain id in hex, as sent in `chain_id`. */
  readonly id: string;
  /** Display name. */
  readonly name: string;
}

/** Manual EVM chain list on /wallet-connect (a custom hex id is also allowed). */
export const EVM_CHAINS: readonly EvmChain[] = [
  { id: '0x1', name: 'Ethereum Mainnet' },
  { id: '0x89', name: 'Polygon' },
  { id: '0xa4b1', name: 'Arbitrum One' },
  { id: '0x38', name: 'BNB Smart Chain' },
  { id: '0x2105', name: 'Base' },
];

// ── Network mode ─────────────────────────────────────────────────────────────────────────────

/** Network mode until GET /health says otherwise. */
export const DEFAULT_NETWORK_MODE = 'mainnet';
/** Network mode (GET /health) polling interval. */
export const NETWORK_MODE_POLL_MS = 30_000;

// ── Dashboard ────────────────────────────────────────────────────────────────────────────────

/** Coin cards (BTC, ETH, SOL) polling interval. */
export const COIN_CARDS_POLL_MS = 120_000;
/** Dashboard data polling interval. */
export const DASHBOARD_POLL_MS = 30_000;
/** Delay before the initial price fetch. */
export const INITIAL_PRICE_FETCH_DELAY_MS = 100;
/** Delay before the secondary dashboard load. */
export const SECONDARY_DASHBOARD_LOAD_DELAY_MS = 50;
/** Recent trades requested and shown on the dashboard (newest first). */
export const RECENT_TRADES_LIMIT = 10;
/** Symbols of the dashboard coin cards, as keyed by GET /market/dashboard-coins. */
export const DASHBOARD_COIN_SYMBOLS = ['btc', 'eth', 'sol'] as const;

// ── Search ───────────────────────────────────────────────────────────────────────────────────

/** Debounce of the top-bar token search. */
export const SEARCH_DEBOUNCE_MS = 300;
/** Queries shorter than this clear the results. */
export const SEARCH_MIN_CHARS = 2;
/** Time-out of the primary search source. */
export const SEARCH_TIMEOUT_MS = 10_000;
/** Results requested from the primary source (GET /trading/dexscreener). */
export const SEARCH_PRIMARY_LIMIT = 20;
/** Results requested from the fallback source (GET /trading/solscan). */
export const SEARCH_FALLBACK_LIMIT = 15;
/** The fallback source is asked when the primary returns fewer results than this. */
export const SEARCH_FALLBACK_THRESHOLD = 3;
/** Results shown in the dropdown. */
export const SEARCH_RESULTS_SHOWN = 15;
/** Default `limit` of a search call. */
export const DEFAULT_SEARCH_LIMIT = 20;
/** Quote options offered on each search result. */
export const SEARCH_QUOTE_OPTIONS = ['SOL', 'USDC', 'USDT'] as const;

// ── Spot trading ─────────────────────────────────────────────────────────────────────────────

/** The pair selected when none is given. */
export const DEFAULT_PAIR = 'SOL/USDC';
/** Amount auto-filled when the price is edited with an empty amount. */
export const DEFAULT_AUTO_FILL_AMOUNT = '0.001';
/** Quick amount buttons. */
export const QUICK_TRADE_AMOUNTS = [0.001, 0.01, 0.1] as const;
/** Trading fee assumed by the minimum-amount check (0.2 %). */
export const MIN_TRADE_FEE_RATE = 0.002;
/** Additional fee assumed by the minimum-amount check (0.05 %). */
export const MIN_TRADE_EXTRA_FEE_RATE = 0.0005;
/** Leverage factor applied to the fees in the minimum-amount check. */
export const MIN_TRADE_LEVERAGE_FACTOR = 1;
/** Base minimum trade amount for SOL-quoted and other non-stablecoin pairs. */
export const MIN_TRADE_BASE_AMOUNT = 0.000001;
/** Base minimum trade amount for USD/USDC/USDT-quoted pairs. */
export const MIN_TRADE_BASE_AMOUNT_STABLE = 0.01;
/** Significant digits of the spec's number arithmetic (rounding half up). */
export const DECIMAL_PRECISION = 18;
/** The calculator shows at most this many decimals (trailing zeros trimmed). */
export const CALCULATOR_MAX_DECIMALS = 8;
/** Largest serialized transaction, in bytes. */
export const MAX_TRANSACTION_SIZE_BYTES = 1232;
/** Automatic retries of a trade whose transaction expired. */
export const EXPIRED_TRANSACTION_MAX_RETRIES = 2;
/** Wait between expired-transaction retries. */
export const EXPIRED_TRANSACTION_RETRY_DELAY_MS = 1000;
/** Dashboard refresh after a successful quick trade. */
export const QUICK_TRADE_REFRESH_DELAY_MS = 1000;
/** The tip after the "no USDC to buy with" warning shows after this delay. */
export const NO_USDC_TIP_DELAY_MS = 2000;
/** Orders, positions and balances refresh after a spot order on the trade page. */
export const SPOT_ORDER_REFRESH_DELAY_MS = 2000;
/** Default slippage of swap quotes, in basis points. */
export const DEFAULT_SLIPPAGE_BPS = 50;
/** Default `limit` of GET /trading/trades. */
export const DEFAULT_TRADES_LIMIT = 50;
/** Default `limit` of the trade history. */
export const TRADE_HISTORY_LIMIT = 100;
/** Trades fetched per poll of the trade page's All Trades feed. */
export const TRADES_FEED_LIMIT = 100;
/** Poll interval of the All Trades feed. */
export const TRADES_FEED_POLL_MS = 5000;
/** `limit` of GET /market/data/{symbol}/history. */
export const MARKET_HISTORY_LIMIT = 100;
/** Token decimals lookups (POST /api/tokens/decimals) are cached this long per symbol/mint. */
export const TOKEN_DECIMALS_CACHE_MS = 300_000;
/** The reference swap quote for the SOL price: 1 SOL in lamports. */
export const SOL_PRICE_QUOTE_AMOUNT_LAMPORTS = 1_000_000_000n;
/** The USDC output of the reference swap quote is divided by this (USDC has 6 decimals). */
export const USDC_QUOTE_DIVISOR = 1_000_000;
/** Lamports in one SOL. */
export const LAMPORTS_PER_SOL = 1_000_000_000n;

// ── Chart ────────────────────────────────────────────────────────────────────────────────────

/** Chart themes. */
export const CHART_THEMES = ['dark', 'light'] as const;
/** A chart theme. */
export type ChartTheme = (typeof CHART_THEMES)[number];
/** Chart interval labels, in display order. */
export const CHART_INTERVALS = ['1S', '1M', '5M', '15M', '1H', '4H', '12H', '1D'] as const;
/** A chart interval label. */
export type ChartInterval = (typeof CHART_INTERVALS)[number];
/** Underlying interval value sent to the chart service, by label. */
export const CHART_INTERVAL_VALUES: Readonly<Record<ChartInterval, string>> = {
  '1S': '1S',
  '1M': '1',
  '5M': '5',
  '15M': '15',
  '1H': '60',
  '4H': '240',
  '12H': '720',
  '1D': '1D',
};
/** Interval selected by default. */
export const DEFAULT_CHART_INTERVAL: ChartInterval = '15M';
/** Charts draw at most this many axis ticks. */
export const CHART_AXIS_MAX_TICKS = 10;

// ── Bots and delegation ──────────────────────────────────────────────────────────────────────

/** Smallest delegation amount, in SOL. */
export const DELEGATION_MIN_SOL = 0.1;
/** Largest delegation amount, in SOL. */
export const DELEGATION_MAX_SOL = 100;
/** Step of the delegation amount input, in SOL. */
export const DELEGATION_STEP_SOL = 0.1;
/** Delegation amount pre-filled, in SOL. */
export const DELEGATION_DEFAULT_SOL = 1;
/** Smallest bot withdrawal, in SOL. */
export const BOT_WITHDRAW_MIN_SOL = 0.0001;
/** SOL a bot balance must keep after a withdrawal (rent-exempt reserve). */
export const BOT_RENT_EXEMPT_RESERVE_SOL = 0.00089;
/** The running-bot countdown ticks at this interval. */
export const BOT_COUNTDOWN_TICK_MS = 60_000;
/** File types accepted by the bot upload (the picker also accepts .js). */
export const BOT_UPLOAD_EXTENSIONS = ['.zip', '.py', '.json'] as const;
/** File types the bot upload picker offers. */
export const BOT_UPLOAD_PICKER_EXTENSIONS = ['.zip', '.py', '.json', '.js'] as const;
/** Values of a new bot's create form. */
export const DEFAULT_BOT_CONFIG = {
  symbol: 'SOL/USDC',
  amount: 0.0001,
  stop_loss_percentage: 2,
  take_profit_percentage: 3,
  max_positions: 1,
  parameters: { short_window: 5, long_window: 20 },
} as const;
/** How a bot sizes its buys (`fixed_base`: the config's amount, as bots did before sizing existed). */
export const BOT_SIZING_MODES = ['fixed_base', 'fixed_quote', 'percent_equity'] as const;
/** A new bot's sizing: each buy spends 10 % of the equity (cash plus open lots), fees included. */
export const DEFAULT_BOT_SIZING = { mode: 'percent_equity', value: 10 } as const;
/** Bot status values. */
export const BOT_STATUSES = ['running', 'stopped', 'failed'] as const;
/** Marketplace risk filter options. */
export const MARKETPLACE_RISK_FILTERS = ['All', 'Low', 'Medium', 'High'] as const;

// ── Backtest ─────────────────────────────────────────────────────────────────────────────────

/** Smallest backtest initial balance. */
export const BACKTEST_MIN_INITIAL_BALANCE = 100;
/** Step of the backtest initial balance input. */
export const BACKTEST_INITIAL_BALANCE_STEP = 100;
/** Backtest initial balance pre-filled. */
export const BACKTEST_DEFAULT_INITIAL_BALANCE = 1000;
/** How a backtest prices its fills: the live venue's RFQ arithmetic, or a fixed fee and slippage. */
export const BACKTEST_COST_MODELS = ['venue', 'fixed'] as const;
/** Largest fee and slippage of the fixed cost model, bps (10 %). */
export const BACKTEST_MAX_COST_BPS = 1000;
/** The fixed model's defaults: the live venue's fee and half spread (5 bps each). */
export const BACKTEST_DEFAULT_FEE_BPS = 5;
export const BACKTEST_DEFAULT_SLIPPAGE_BPS = 5;
/** Window of the bots page's "Run and Test Bot", in days. */
export const BOT_TEST_DEFAULT_DAYS = 30;
/** Initial balance of the bots page's "Run and Test Bot". */
export const BOT_TEST_DEFAULT_INITIAL_BALANCE = 1000;
/** Height of the backtest chart, in CSS pixels. */
export const BACKTEST_CHART_HEIGHT_PX = 400;
/** The drawdown line is drawn only when the equity curve has at least this many points (more than 2). */
export const BACKTEST_DRAWDOWN_MIN_POINTS = 3;
/** Decimals of the backtest win rate. */
export const BACKTEST_WIN_RATE_DECIMALS = 1;
/** Decimals of the backtest Sharpe ratio. */
export const BACKTEST_SHARPE_DECIMALS = 3;

// ── Futures ──────────────────────────────────────────────────────────────────────────────────

/** Smallest leverage. */
export const LEVERAGE_MIN = 1;
/** Largest leverage. */
export const LEVERAGE_MAX = 100;
/** Leverage preset buttons. */
export const LEVERAGE_PRESETS = [1, 5, 10, 20, 30, 40, 50, 75, 100] as const;
/** Leverage at or below this is labelled Low risk. */
export const LEVERAGE_RISK_LOW_MAX = 5;
/** Leverage at or below this (above Low) is labelled Medium risk. */
export const LEVERAGE_RISK_MEDIUM_MAX = 20;
/** Leverage at or below this (above Medium) is labelled High risk; above it, Extreme. */
export const LEVERAGE_RISK_HIGH_MAX = 50;
/** Futures taker fee rate (0.07 %). */
export const FUTURES_TAKER_FEE_RATE = 0.0007;
/** Futures maker fee rate (0.04 %). */
export const FUTURES_MAKER_FEE_RATE = 0.0004;
/** Max slippage shown on the futures order panel, in percent (static text). */
export const FUTURES_MAX_SLIPPAGE_PERCENT = 8;
/** Smallest first deposit that initializes a futures account, in USDC. */
export const FUTURES_INIT_MIN_DEPOSIT_USDC = 1;
/** Smallest later deposit enforced by the logic, in USDC. */
export const FUTURES_MIN_DEPOSIT_USDC = 0.01;
/** Smallest later deposit stated by the helper text, in USDC (the spec keeps both readings). */
export const FUTURES_MIN_DEPOSIT_HELPER_TEXT_USDC = 0.1;
/** Market minimum order size when the market does not state one. */
export const FUTURES_DEFAULT_MIN_ORDER_SIZE = 0.001;
/** Default futures collateral token. */
export const FUTURES_DEFAULT_COLLATERAL_TOKEN = 'USDC';
/** Suffix of a futures market symbol (SOL → SOL-PERP). */
export const FUTURES_MARKET_SUFFIX = '-PERP';
/** Futures order book refresh interval. */
export const FUTURES_ORDER_BOOK_REFRESH_MS = 2000;
/** Futures market data update interval. */
export const FUTURES_MARKET_UPDATE_MS = 30_000;
/** Rows shown in the futures orders and positions tables. */
export const FUTURES_TABLE_ROWS = 5;
/** Rows requested by the holder analysis. */
export const HOLDER_ANALYSIS_LIMIT = 10;
/** Time-out of an RPC endpoint test. */
export const RPC_TEST_TIMEOUT_MS = 10_000;
/** Time-out of the futures client subscription. */
export const RPC_SUBSCRIPTION_TIMEOUT_MS = 15_000;
/** Public RPC endpoints tried in rotation by the futures client. */
export const PUBLIC_RPC_ENDPOINT_COUNT = 5;
/** Shortest wait before retrying on the next RPC endpoint. */
export const RPC_ROTATION_RETRY_MIN_DELAY_MS = 1500;
/** Longest wait before retrying on the next RPC endpoint. */
export const RPC_ROTATION_RETRY_MAX_DELAY_MS = 3000;
/** The futures client gives up after this many rounds over all endpoints. */
export const RPC_ROTATION_MAX_ROUNDS = 3;

// ── Static pages ─────────────────────────────────────────────────────────────────────────────

/** Minimum withdrawal stated on the earning page, in USD (display only). */
export const EARNING_MIN_WITHDRAWAL_USD = 100;
/** Monthly plan prices, in USD (display only). */
export const PLAN_PRICES_USD = { free: 0, pro: 29, enterprise: 23 } as const;
/** Backtest window of the Free plan, in days (display only). */
export const FREE_PLAN_BACKTEST_DAYS = 7;
/** Backtest window of the Pro plan, in days ("30+", display only). */
export const PRO_PLAN_BACKTEST_DAYS = 30;
