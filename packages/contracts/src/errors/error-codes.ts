/**
 * The closed list of error codes the API answers with. Codes are never renamed or reused; each has
 * one HTTP status and one default user-facing message (the spec's text where the spec has one).
 * Branch on the code, never on the message.
 */
export const ERRORS = {
  VALIDATION__INVALID_INPUT: { status: 400, message: 'Invalid input' },
  REQUEST__MALFORMED_JSON: { status: 400, message: 'Malformed JSON body' },
  REQUEST__BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  REQUEST__UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  REQUEST__RATE_LIMITED: { status: 429, message: 'Too many requests. Please try again later.' },
  REQUEST__IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request',
  },
  REQUEST__IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed',
  },
  REQUEST__TRANSACTION_NOT_FOUND: { status: 404, message: 'No such transaction of yours' },
  ROUTE__NOT_FOUND: { status: 404, message: 'Not found' },
  INTERNAL: { status: 500, message: 'Internal server error' },

  AUTH__NOT_AUTHENTICATED: { status: 401, message: 'Not authenticated' },
  AUTH__TOKEN_INVALID: { status: 401, message: 'Invalid or expired token' },
  AUTH__INVALID_CREDENTIALS: { status: 401, message: 'Invalid email or password' },
  AUTH__EMAIL_TAKEN: { status: 409, message: 'Email already registered' },
  AUTH__PASSWORD_TOO_SHORT: { status: 400, message: 'Password must be at least 8 characters long' },
  AUTH__RESET_TOKEN_INVALID: {
    status: 400,
    message: 'Invalid reset link. Please request a new password reset.',
  },
  AUTH__USER_NOT_FOUND: { status: 404, message: 'User not found' },
  AUTH__LOGIN_LOCKED: {
    status: 429,
    message: 'Too many failed sign-in attempts for this email. Please try again later.',
  },

  WALLET__CHALLENGE_INVALID: {
    status: 400,
    message: 'Sign-in challenge is unknown or was already used. Please try again.',
  },
  WALLET__CHALLENGE_EXPIRED: { status: 400, message: 'Sign-in challenge expired. Please try again.' },
  WALLET__CHALLENGE_MISMATCH: { status: 400, message: 'Signed message does not match the sign-in challenge' },
  WALLET__CHALLENGE_WRONG_SITE: {
    status: 400,
    message: 'The signed message was issued for another website. Only sign messages shown by this site.',
  },
  WALLET__SIGNATURE_REQUIRED: {
    status: 400,
    message: 'A signed sign-in message is required for this wallet',
  },
  WALLET__SIGNATURE_INVALID: { status: 401, message: 'Wallet signature verification failed' },
  WALLET__ADDRESS_INVALID: { status: 400, message: 'Invalid wallet address for this wallet type' },
  WALLET__ALREADY_LINKED: { status: 409, message: 'This wallet is already linked to another account' },
  WALLET__WATCH_ONLY: {
    status: 403,
    message: 'This is a watch-only wallet. Connect a signing wallet (Phantom, Solflare) to trade.',
  },

  WALLET__CHANGE_LOCKED: {
    status: 403,
    message:
      'This wallet was linked recently: withdrawals to it are locked for a while after the payout wallet changes. Please try again later.',
  },

  WALLET__WATCH_ONLY_ACCOUNT: {
    status: 403,
    message: 'A watch-only account cannot link wallets. Sign in with your wallet instead.',
  },

  WALLET__NOT_CONNECTED: { status: 400, message: 'No wallet connected. Please connect a wallet first.' },
  WALLET__SOLANA_ONLY: {
    status: 400,
    message: 'Portfolio data is only available for Solana wallets. Please connect Phantom or Solflare.',
  },
  WALLET__FAUCET_MAINNET: {
    status: 403,
    message: 'The faucet is only available on test networks, not on mainnet.',
  },
  WALLET__FAUCET_RATE_LIMITED: {
    status: 429,
    message: 'Too many funding requests. Please try again later.',
  },

  CHAIN__RPC_UNAVAILABLE: { status: 502, message: 'The Solana RPC node is unavailable. Please try again.' },
  CHAIN__TRANSACTION_FAILED: { status: 502, message: 'The transaction failed on chain. Please try again.' },
  CHAIN__AIRDROP_FAILED: { status: 502, message: 'Airdrop failed. Please try again.' },
  CHAIN__CONFIRMATION_TIMEOUT: {
    status: 504,
    message: 'The transaction was not confirmed in time. Please check your balance before retrying.',
  },

  DEV__NOT_AVAILABLE: { status: 404, message: 'Not available on mainnet' },

  WALLET__TOKEN_NOT_FOUND: { status: 400, message: 'This address is not an SPL token mint' },
  WALLET__FAUCET_UNAVAILABLE: {
    status: 503,
    message: 'The USDC faucet is only available on the embedded local cluster',
  },
  WALLET__RECIPIENT_INVALID: { status: 400, message: 'Please enter a valid Solana address to send to' },
  WALLET__INSUFFICIENT_BALANCE: {
    status: 400,
    message: 'Insufficient balance: Please check your wallet balance.',
  },
  WALLET__ADDRESS_MISMATCH: { status: 400, message: 'wallet_address is not your connected wallet' },
  WALLET__MINT_INVALID: { status: 400, message: 'Please enter a valid token mint address or symbol' },
  WALLET__RECIPIENT_IS_SENDER: { status: 400, message: 'You cannot send to your own wallet' },
  WALLET__AMOUNT_TOO_SMALL: { status: 400, message: 'amount must be greater than 0' },
  WALLET__RECIPIENT_BELOW_RENT: {
    status: 400,
    message: 'The recipient account is new and must receive at least 0.00089088 SOL',
  },
  WALLET__SENDER_BELOW_RENT: {
    status: 400,
    message: 'Keep at least 0.00089088 SOL in your wallet, or send your whole balance minus the network fee',
  },
  WALLET__NOTHING_TO_UNWRAP: { status: 400, message: 'Your wallet holds no wrapped SOL to unwrap' },
  WALLET__WRAPPED_SOL_DELEGATED: {
    status: 409,
    message:
      'Your wrapped SOL is approved to your bot. Revoke the delegation first (Revoke can unwrap it in the same transaction).',
  },

  TRADING__WALLET_REQUIRED: { status: 400, message: 'Wallet not found. Please connect a wallet to trade.' },
  TRADING__PAIR_UNAVAILABLE: { status: 404, message: 'Trading pair is not available' },
  /** A Token-2022 mint: the venue's swaps move SPL Token accounts only (its message names the token). */
  TRADING__TOKEN_2022_UNSUPPORTED: {
    status: 400,
    message: 'This is a Token-2022 token: spot trading here supports SPL Token mints only',
  },
  TRADING__AMOUNT_TOO_SMALL: { status: 400, message: 'Amount and price must be greater than 0' },
  TRADING__INSUFFICIENT_FUNDS: {
    status: 400,
    message: 'Insufficient balance: Please check your wallet balance.',
  },
  TRADING__NO_LIQUIDITY: {
    status: 400,
    message: 'The market maker cannot fill this size. Try a smaller amount.',
  },
  TRADING__TRANSACTION_TOO_LARGE: {
    status: 400,
    message: 'Transaction too large. Try a smaller amount or different pair.',
  },
  TRADING__TRANSACTION_INVALID: { status: 400, message: 'The signed transaction could not be decoded' },
  TRADING__TRANSACTION_UNKNOWN: {
    status: 400,
    message: 'This transaction was not built for your account. Please request a new transaction.',
  },
  TRADING__TRANSACTION_MODIFIED: {
    status: 400,
    message: 'The signed transaction differs from the one built for this order. Please try the trade again.',
  },
  TRADING__SIGNATURE_MISSING: { status: 400, message: 'The transaction is missing a required signature' },
  TRADING__SIGNATURE_INVALID: { status: 400, message: 'A signature on the transaction is invalid' },
  TRADING__ALREADY_EXECUTED: { status: 409, message: 'This transaction has already been executed' },
  TRADING__TRANSACTION_EXPIRED: { status: 400, message: 'Transaction expired: Please try the trade again.' },
  TRADING__INSUFFICIENT_BALANCE: {
    status: 400,
    message:
      'Insufficient balance: Your wallet does not have enough funds for this transaction. Please check your wallet balance and try again.',
  },
  TRADING__SIMULATION_FAILED: {
    status: 400,
    message:
      'Transaction failed: Your wallet may not have sufficient balance or the transaction is invalid. Please check your wallet balance.',
  },
  TRADING__EXECUTION_FAILED: { status: 502, message: 'Failed to execute transaction' },
  TRADING__IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request',
  },
  TRADING__IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed',
  },
  TRADING__ORDER_NOT_FOUND: { status: 404, message: 'Order not found' },
  TRADING__ORDER_NOT_CANCELLABLE: { status: 409, message: 'Only a pending limit order can be cancelled' },
  TRADING__TRIGGER_WRONG_SIDE: {
    status: 400,
    message: 'The trigger price is on the wrong side of the market: the order would fire at once',
  },
  TRADING__OCO_INVALID: {
    status: 400,
    message: 'oco_with must be another open order of yours on the same pair, not linked to any other order',
  },
  TRADING__TRADE_NOT_FOUND: { status: 404, message: 'No executed trade of yours has this transaction hash' },
  TRADING__VENUE_UNAVAILABLE: { status: 502, message: 'The swap venue is unavailable. Please try again.' },
  TRADING__PRICE_UNAVAILABLE: { status: 503, message: 'Unable to get market price' },
  /** The market maker no longer honours the signed quote (too old, or the price moved): re-quote and sign again. */
  /** A refund or fill would pay into a token account the wallet has closed; the server does not pay its rent again. */
  TRADING__TOKEN_ACCOUNT_CLOSED: {
    status: 409,
    message:
      'Your token account for this order was closed. Receive any amount of the token to open it again, then try again.',
  },
  TRADING__QUOTE_EXPIRED: {
    status: 409,
    message: 'Quote expired: the price may have moved. Please try the trade again.',
  },

  MARKET__TOKEN_NOT_FOUND: { status: 404, message: 'Token not found' },
  MARKET__PAIR_NOT_FOUND: { status: 404, message: 'Trading pair is not available' },
  MARKET__INVALID_ADDRESS: { status: 400, message: 'Invalid token mint address' },
  /** The address holds no account, or one that is not a mint of SPL Token or Token-2022. */
  MARKET__NOT_A_MINT: { status: 404, message: 'No token mint at this address' },
  MARKET__INVALID_PAIR: { status: 400, message: 'A pair must be BASE/QUOTE, as symbols or mint addresses' },
  BOTS__NOT_FOUND: { status: 404, message: 'Bot not found' },
  BOTS__LIMIT_REACHED: {
    status: 409,
    message: 'You have reached the limit of 50 bots. Delete one to create another.',
  },
  BOTS__RUNNING: { status: 409, message: 'Stop the bot before deleting it' },
  BOTS__ALREADY_RUNNING: { status: 409, message: 'The bot is already running' },
  /** A running bot's definition is what its run trades by: it is stopped before it changes. */
  BOTS__EDIT_RUNNING: {
    status: 409,
    message: 'Stop the bot before editing it: a running bot keeps the code and settings it started with.',
  },
  /** Code that does not load in its sandbox, or defines no entry point (the message says which). */
  BOTS__CODE_INVALID: { status: 400, message: 'The strategy code does not load' },
  /** A pair the venue does not trade (the message names it). */
  BOTS__PAIR_INVALID: { status: 400, message: 'Bots trade a pair of Solana tokens, e.g. SOL/USDC' },
  BOTS__RUNNING_LIMIT: {
    status: 409,
    message: 'You can run at most 5 bots at once. Stop one to start another.',
  },
  BOTS__PYTHON_BUSY: {
    status: 503,
    message: 'Too many Python bots are running on this server. Please try again later, or stop one of yours.',
  },
  /** One user's share of the server's live Python processes (the message names the number). */
  BOTS__PYTHON_USER_LIMIT: {
    status: 409,
    message:
      'You are running as many Python bots as one account may on this server. Stop one to start another.',
  },
  /** The host cannot wall the Python sandbox off the network (no user namespaces): Python is refused. */
  BOTS__PYTHON_UNAVAILABLE: {
    status: 503,
    message:
      'Python strategies are disabled on this server: its host does not permit the network isolation (unprivileged user namespaces) the Python sandbox requires. JavaScript strategies work as usual.',
  },
  /** The start error the web recognises by its 'delegation approval' (it opens the delegation modal). */
  BOTS__DELEGATION_REQUIRED: {
    status: 409,
    message: 'On-chain bots need a delegation approval: approve the SOL your bot may trade, then start it.',
  },
  BOTS__ONCHAIN_PAIR_UNSUPPORTED: {
    status: 400,
    message: 'On-chain bots trade pairs quoted in SOL or USDC, e.g. SOL/USDC',
  },
  BOTS__WALLET_REQUIRED: { status: 400, message: 'Wallet connection required for delegation' },
  DELEGATION__NOT_FOUND: { status: 404, message: 'Delegation not found' },
  DELEGATION__WALLET_MISMATCH: {
    status: 400,
    message: 'wallet_address must be the wallet connected to your account',
  },
  DELEGATION__BOT_KEY_MISMATCH: { status: 400, message: "bot_public_key is not your bot's public key" },
  DELEGATION__TOKEN_UNSUPPORTED: {
    status: 400,
    message: 'Bots are delegated wrapped SOL only (token_mint So11111111111111111111111111111111111111112)',
  },
  DELEGATION__INSUFFICIENT_SOL: {
    status: 400,
    message: 'Your wallet does not hold enough SOL for this delegation and its network fee',
  },
  DELEGATION__NOT_ACTIVE: { status: 409, message: 'Only an active delegation can be revoked' },
  BOT__NO_BALANCE: { status: 400, message: 'Bot has no balance to withdraw' },
  BOT__WITHDRAW_INVALID: { status: 400, message: 'Please enter a valid withdrawal amount' },
  BOT__WITHDRAW_MINIMUM: {
    status: 400,
    message: 'Minimum withdrawal amount is 0.0001 SOL to cover transaction fees',
  },
  /** The message names the amounts: 'Insufficient bot balance. Available: 0.5 SOL, Requested: 1 SOL'. */
  BOT__INSUFFICIENT_BALANCE: { status: 400, message: 'Insufficient bot balance' },
  BOT__RESERVE: {
    status: 400,
    message: 'The bot must keep at least 0.00089 SOL (rent-exempt reserve); withdraw less',
  },
  MARKETPLACE__OWN_BOT: { status: 409, message: 'This is your own bot: it is already among your bots' },
  MARKETPLACE__ALREADY_COPIED: { status: 409, message: 'You already have a copy of this bot' },
  MARKETPLACE__WALLET_REQUIRED: { status: 400, message: 'Wallet Required: connect a wallet to copy bots' },
  BOTS__STRATEGY_UNKNOWN: { status: 400, message: 'Unknown strategy_type' },
  BOTS__INVALID_PARAMETERS: { status: 400, message: 'Invalid strategy parameters' },
  BACKTEST__RANGE_IN_FUTURE: { status: 400, message: 'The backtest range must start in the past' },
  BACKTEST__RANGE_TOO_LARGE: { status: 400, message: 'The backtest range holds too many candles' },
  BACKTEST__PAIR_NOT_TRADABLE: {
    status: 400,
    message: 'Backtests trade a pair of Solana tokens, e.g. SOL/USDC',
  },
  BACKTEST__NO_DATA: { status: 422, message: 'No candles in that range' },
  BACKTEST__TIME_LIMIT: {
    status: 422,
    message: 'The backtest took longer than 20 s and was stopped. Shorten the range.',
  },
  BACKTEST__STRATEGY_FAILED: { status: 422, message: 'The strategy failed' },
  /** The user cancelled their "Run and Test Bot" (its run was stopped). */
  BACKTEST__CANCELLED: { status: 409, message: 'The test was cancelled' },
  BACKTEST__EXPORT_NOT_FOUND: {
    status: 404,
    message: 'No such backtest export of yours (exports are kept for your latest 3 backtests, for a day)',
  },
  OPTIMIZE__NOT_FOUND: { status: 404, message: 'No such optimisation of yours' },
  OPTIMIZE__BUSY: {
    status: 409,
    message: 'You already have an optimisation queued or running. Wait for it or cancel it.',
  },
  OPTIMIZE__INVALID_RANGES: { status: 400, message: 'Invalid parameter ranges' },
  OPTIMIZE__TOO_MUCH_WORK: { status: 400, message: 'The optimisation is too large' },
  BACKTEST__BUSY: { status: 503, message: 'Too many backtests are running. Please try again in a moment.' },
  MARKET__RANGE_TOO_LARGE: {
    status: 400,
    message: 'Too many candles requested; narrow from/to or use a larger interval',
  },
  MARKET__INTERVAL_UNAVAILABLE: {
    status: 400,
    message: 'This interval is not available from the market data provider',
  },
  MARKET__NO_DATA: { status: 404, message: 'No market data for this token' },
  MARKET__SEARCH_FAILED: { status: 502, message: 'Search failed' },
  MARKET__PROVIDER_TIMEOUT: { status: 504, message: 'Request timed out. Please try again.' },
  MARKET__PROVIDER_RATE_LIMITED: {
    status: 503,
    message: 'The market data provider is rate limiting requests. Please try again shortly.',
  },
  MARKET__PROVIDER_UNAVAILABLE: {
    status: 502,
    message: 'The market data provider is unavailable. Please try again.',
  },

  // Perpetual futures (part 2 §5, §8). Order refusals read "Order failed: <reason>".
  FUTURES__WALLET_REQUIRED: { status: 400, message: 'Please connect your wallet to use futures trading' },
  FUTURES__NOT_INITIALIZED: {
    status: 400,
    message: 'No futures account yet: Initialize Account with a first deposit of at least 1 USDC',
  },
  FUTURES__ALREADY_INITIALIZED: { status: 409, message: 'Your futures account is already initialized' },
  FUTURES__MARKET_UNSUPPORTED: { status: 404, message: 'This pair has no perpetual market' },
  FUTURES__AMOUNT_AND_PRICE_REQUIRED: { status: 400, message: 'Enter amount and price' },
  FUTURES__AMOUNT_OR_PRICE_INVALID: { status: 400, message: 'Amount/Price invalid' },
  FUTURES__PRICE_OUT_OF_BAND: {
    status: 400,
    message:
      'Order failed: a Long’s limit price may be at most 8% above the oracle price, a Short’s at most 8% below it',
  },
  FUTURES__BELOW_MIN_ORDER_SIZE: {
    status: 400,
    message: 'Order failed: the amount is below the market’s minimum order size',
  },
  FUTURES__LEVERAGE_INVALID: {
    status: 400,
    message: 'Order failed: leverage must be a whole number from 1 to the market’s maximum',
  },
  FUTURES__LEVERAGE_MISMATCH: {
    status: 400,
    message:
      'Order failed: an order cannot change your leverage while you have a position or open orders in this market; change it with the leverage setting',
  },
  FUTURES__LEVERAGE_UNDERMARGINED: {
    status: 409,
    message:
      'Your position and open orders in this market cannot be margined at that leverage: free collateral would go negative',
  },
  FUTURES__INSUFFICIENT_MARGIN: {
    status: 400,
    message: 'Order failed: insufficient collateral for this order at this leverage',
  },
  FUTURES__POST_ONLY_WOULD_CROSS: {
    status: 400,
    message: 'Order failed: a post-only order would trade at once',
  },
  FUTURES__REDUCE_ONLY_NO_POSITION: {
    status: 400,
    message: 'Order failed: a reduce-only order needs a position to reduce',
  },
  FUTURES__TRIGGER_PRICE_REQUIRED: {
    status: 400,
    message: 'Enter a trigger price: a stop market or take profit market order needs one',
  },
  FUTURES__TRIGGER_WRONG_SIDE: {
    status: 400,
    message: 'Order failed: the oracle price has already reached that trigger price',
  },
  FUTURES__TRIGGER_LIMIT: { status: 400, message: 'Order failed: too many trigger orders in this market' },
  FUTURES__TPSL_NO_POSITION: {
    status: 400,
    message: 'No open position in this market to attach a take profit or stop loss to',
  },
  FUTURES__TPSL_EMPTY: {
    status: 400,
    message: 'Give a take profit price, a stop loss price, or both (null removes one)',
  },
  FUTURES__NO_LIQUIDITY: { status: 409, message: 'Order failed: no liquidity within 8% of the oracle price' },
  FUTURES__NO_MARKET_PRICE: { status: 503, message: 'Unable to get market price' },
  FUTURES__ORDER_NOT_FOUND: { status: 404, message: 'Order not found' },
  FUTURES__POSITION_NOT_FOUND: { status: 404, message: 'Failed to close position' },
  FUTURES__DEPOSIT_INVALID: { status: 400, message: 'Invalid deposit amount' },
  FUTURES__INITIAL_DEPOSIT_MINIMUM: { status: 400, message: 'Minimum deposit amount is 1 USDC' },
  FUTURES__DEPOSIT_MINIMUM: { status: 400, message: 'Minimum deposit amount is 0.01 USDC' },
  FUTURES__INSUFFICIENT_USDC: { status: 400, message: 'Insufficient USDC balance in your wallet' },
  FUTURES__WITHDRAW_INVALID: { status: 400, message: 'Withdraw amount must be greater than 0' },
  FUTURES__INSUFFICIENT_FREE_COLLATERAL: {
    status: 400,
    message: 'Not enough free collateral: close positions or cancel orders first',
  },
  FUTURES__VENUE_READ_ONLY: {
    status: 501,
    message: 'This futures venue serves market data only: trading is not available with PERP_VENUE=drift',
  },
  FUTURES__VENUE_UNAVAILABLE: { status: 503, message: 'The futures venue is unavailable. Please try again.' },

  ALERTS__NOT_FOUND: { status: 404, message: 'Alert not found' },
  ALERTS__LIMIT_REACHED: {
    status: 409,
    message: 'You have reached the maximum number of alerts. Delete some to add more.',
  },
  ALERTS__PAIR_UNKNOWN: { status: 404, message: 'Unknown pair for a price alert' },
  ALERTS__EMAIL_REQUIRED: {
    status: 400,
    message: 'Add an email address to your account to get alerts by email',
  },
  ALERTS__WEBHOOK_REQUIRED: { status: 400, message: 'Set a webhook URL first to get alerts by webhook' },
  ALERTS__WEBHOOK_URL_INVALID: {
    status: 400,
    message: 'Webhook URLs must be http(s) and reach a public address',
  },
  ALERTS__FUTURES_UNAVAILABLE: { status: 501, message: 'This futures venue has no positions to watch' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** HTTP status of an error code. */
export function statusOf(code: ErrorCode): number {
  return ERRORS[code].status;
}
