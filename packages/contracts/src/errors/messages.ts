/**
 * The spec's user-facing texts (part 1 §4, §5, §8 and part 2 §5, §8), grouped by area and copied
 * exactly. Texts the spec only describes ("a message saying …") are marked as wording of ours.
 * Parameterised texts are functions. Server error codes map to these in `errors/error-codes.ts`.
 */

/** Shared transport errors of the API client. */
export const TRANSPORT_MESSAGES = {
  timeout: 'Request timed out. Please try again.',
  network: 'Network error. Please check your connection and try again.',
  authExpired: 'Authentication expired. Please login again.',
  notVerified: 'Your account is not verified. Please check your email and verify your account.',
  invalidCredentials: 'Invalid credentials',
} as const;

/** Sign-in, sign-up and password flows. */
export const AUTH_MESSAGES = {
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  resetEmailFailed: 'Failed to send reset email',
  genericError: 'An error occurred. Please try again.',
  resetPasswordFailed: 'Failed to reset password',
  validatingAuthentication: 'Validating authentication...',
} as const;

/** Wallet connection on /wallet-connect and the dashboard wallet cards. */
export const WALLET_MESSAGES = {
  connectionFailed: 'Wallet connection failed',
  disconnectionFailed: 'Wallet disconnection failed',
  disconnectFailed: 'Failed to disconnect wallet',
  evmWalletNotFound: 'Wallet not found. Please install a wallet extension.',
  solanaWalletNotFound: 'Wallet not found. Please install a Solana wallet extension.',
  noMetaMaskAccounts: 'No accounts found. Please connect your MetaMask wallet.',
  backendConnectFailed: 'Failed to connect to backend',
  solflarePublicKeyFailed: 'Failed to get public key from Solflare wallet',
  solflareConnectFailed: 'Failed to connect to Solflare wallet',
  connectionCancelled: 'Connection cancelled by user',
  extensionNotConnected: 'Wallet is not connected. Please connect your wallet extension first.',
  /** 'User rejected the MetaMask connection request.'; without a name 'User rejected the connection request.' */
  userRejected: (walletName?: string): string =>
    walletName
      ? `User rejected the ${walletName} connection request.`
      : 'User rejected the connection request.',
  /** 'Failed to connect Phantom. Please try again.' */
  connectFailed: (walletName: string): string => `Failed to connect ${walletName}. Please try again.`,
  /** Dashboard wallet card failure: 'Failed to connect' plus the name and the message (separator ours). */
  connectFailedWithReason: (walletName: string, reason: string): string =>
    `Failed to connect ${walletName}: ${reason}`,
  /** Success toast when the extension connected but the backend sync failed (wording ours). */
  connectedLocallyOnly: (walletName: string): string =>
    `${walletName} connected locally. Backend sync may be needed.`,
} as const;

/** Top-bar token search and pair switching. */
export const SEARCH_MESSAGES = {
  placeholder: 'Search tokens (BTC, ETH, SOL...)',
  noResults: 'No results found',
  noResultsHint: 'Try searching for BTC, ETH, SOL, etc.',
  /** 'Search failed: <message>' */
  failed: (message: string): string => `Search failed: ${message}`,
  /** 'Switched to <token name>' */
  switchedTo: (tokenName: string): string => `Switched to ${tokenName}`,
} as const;

/** Prices, the embedded chart and the calculator. */
export const MARKET_MESSAGES = {
  usdPriceUnavailable: 'USD price not available',
  loadingCurrentPrice: 'Loading current price...',
  /** Info toast when editing the price auto-fills an empty amount (wording ours). */
  amountAutoFilled: 'Amount auto-filled with 0.001 to calculate the total',
  chartTokenNotSupported: 'Token not supported by GMGN charts',
  chartTokenInfoFailed: 'Failed to load token information',
  chartLoadFailed: 'Failed to load GMGN chart - Token may not be supported or have insufficient trading data',
  chartLoadingTokenInfo: 'Loading token information...',
  calculationError: 'Calculation Error: Something went wrong with the calculation system.',
} as const;

/** Dashboard and portfolio. */
export const DASHBOARD_MESSAGES = {
  loadFailed: 'Failed to load dashboard data',
  portfolioLoadFailed: 'Failed to load portfolio data. Please try again.',
  noWallet: 'No wallet connected',
  noWalletConnectFirst: 'No wallet connected. Please connect a wallet first.',
  portfolioSolanaOnly:
    'Portfolio data is only available for Solana wallets. Please connect Phantom or Solflare.',
} as const;

/** Spot and quick trade: chain errors, wallet state and fallbacks. */
export const TRADE_MESSAGES = {
  insufficientBalanceDetailed:
    'Insufficient balance: Your wallet does not have enough funds for this transaction. Please check your wallet balance and try again.',
  simulationFailed:
    'Transaction failed: Your wallet may not have sufficient balance or the transaction is invalid. Please check your wallet balance.',
  insufficientBalance: 'Insufficient balance: Please check your wallet balance.',
  transactionExpired: 'Transaction expired: Please try the trade again.',
  noWalletConnected: 'No wallet connected. Please connect a wallet extension to trade.',
  walletNotConnectedToSite: 'Wallet not connected to website...',
  transactionCancelled: 'Transaction cancelled by user',
  connectWalletToTrade: 'Please connect your wallet to trade',
  transactionTooLarge: 'Transaction too large. Try a smaller amount or different pair.',
  /** The trade page's shorter size error (part 2 §5). */
  transactionTooLargeShort: 'Transaction too large',
  /** Test-mode limitation (wording ours; the spec describes it). */
  testModeMainnetTransaction:
    'Test mode limitation: the swap service returns mainnet transactions, which cannot be executed in test mode.',
  placeOrderFailed: 'Failed to place order',
  unsignedTransactionFailed: 'Failed to get unsigned transaction',
  executeTransactionFailed: 'Failed to execute transaction',
  walletNotFoundToTrade: 'Wallet not found. Please connect a wallet to trade.',
  walletCreated: 'Wallet created successfully! Please try placing your order again.',
  walletCreationFailed: 'Failed to create wallet. Please contact support.',
  walletRequired: 'Wallet Required',
  tradingDataLoadFailed: 'Failed to load trading data',
  tradesFetchFailed: 'Failed to fetch trades',
  /** A missing trading pair: 'Trading pair <pair> is not available' (the spec elides the rest). */
  pairUnavailable: (pair: string): string => `Trading pair ${pair} is not available`,
  token2022Unsupported: (symbol: string): string =>
    `${symbol} is a Token-2022 token: spot trading here supports SPL Token mints only`,
  /** 'Insufficient SOL balance. Required: 1.5, Available: 0.2' */
  insufficientTokenBalance: (token: string, required: string, available: string): string =>
    `Insufficient ${token} balance. Required: ${required}, Available: ${available}`,
} as const;

/** Bots, marketplace, bot funds and delegation. */
export const BOT_MESSAGES = {
  loadFailed: 'Failed to load your bots',
  startFailed: 'Failed to start bot',
  stopFailed: 'Failed to stop bot',
  deleteFailed: 'Failed to delete bot',
  createFailed: 'Failed to create bot',
  testFailed: 'Bot test failed',
  balanceFailed: 'Failed to get bot balance',
  withdrawFailed: 'Failed to withdraw from bot',
  notFound: 'Bot not found',
  marketplaceLoadFailed: 'Failed to load marketplace bots',
  copyFailed: 'Failed to copy bot',
  noBalanceToWithdraw: 'Bot has no balance to withdraw',
  withdrawFeesInsufficient: 'Insufficient funds for transaction fees. Try a smaller amount.',
  withdrawSimulationFailed: 'Transaction failed. Please check balance and try again.',
  completed: 'Completed',
  delegationRejected: 'Transaction was rejected by user. Please try again.',
  delegationWalletIssue: 'Wallet connection issue. Please refresh the page and try again.',
  delegationSigningUnsupported: 'Wallet does not support transaction signing...',
  delegationWalletRequired: 'Wallet connection required for delegation',
} as const;

/** Futures. */
export const FUTURES_MESSAGES = {
  clientNotInitialized: 'Drift client not initialized',
  connectWallet: 'Please connect your wallet to use futures trading',
  clientInitFailed: 'Failed to initialize Drift client after multiple attempts. Please try again later.',
  marketPriceUnavailable: 'Unable to get market price',
  closePositionFailed: 'Failed to close position',
  /** 'Order failed: <reason>' */
  orderFailed: (reason: string): string => `Order failed: ${reason}`,
} as const;

/** Backtest. */
export const BACKTEST_MESSAGES = {
  succeeded: 'Backtest completed successfully!',
  /** 'Backtest failed', or 'Backtest failed: <reason>' */
  failed: (reason?: string): string => (reason ? `Backtest failed: ${reason}` : 'Backtest failed'),
} as const;

/** Form validation texts of both spec parts (§5). */
export const VALIDATION_MESSAGES = {
  // Accounts
  passwordsDoNotMatch: 'Passwords do not match',
  agreeToTerms: 'Please agree to the terms and conditions',
  invalidResetLink: 'Invalid reset link. Please request a new password reset.',
  passwordTooShort: 'Password must be at least 8 characters long',
  incompleteOtp: 'Please enter the full 6-digit OTP',
  walletAddressRequired: 'Please enter a wallet address',
  invalidEthereumAddress: 'Please enter a valid Ethereum wallet address',
  // Quick trade and trade amounts
  amountAndPriceRequired: 'Please enter both amount and price',
  amountAndPriceNotPositive: 'Amount and price must be greater than 0',
  /** Not a number at all (wording ours; the spec requires positive finite numbers). */
  notANumber: 'Please enter a valid number',
  /** Infinite or out of range (wording ours). */
  notFinite: 'Amount must be a finite number',
  /** 'Minimum amount is 0.01 SOL (accounting for fees)' */
  minimumAmount: (minimum: string, baseSymbol: string): string =>
    `Minimum amount is ${minimum} ${baseSymbol} (accounting for fees)`,
  // Spot order (trade page)
  spotAmountAndPriceRequired: 'Please enter amount and price',
  spotAmountRequired: 'Please enter amount',
  // Delegation and bot withdraw
  botPublicKeyUnavailable: 'Bot public key not available. Please try again.',
  phantomNotFound: 'Phantom wallet not found. Please install Phantom wallet.',
  invalidWithdrawalAmount: 'Please enter a valid withdrawal amount',
  minimumWithdrawal: 'Minimum withdrawal amount is 0.0001 SOL to cover transaction fees',
  /** 'Insufficient bot balance. Available: 0.5 SOL, Requested: 1 SOL' */
  insufficientBotBalance: (available: string, requested: string): string =>
    `Insufficient bot balance. Available: ${available} SOL, Requested: ${requested} SOL`,
  // Futures
  futuresAmountAndPriceRequired: 'Enter amount and price',
  futuresAmountOrPriceInvalid: 'Amount/Price invalid',
  invalidDepositAmount: 'Invalid deposit amount',
  minimumInitialDeposit: 'Minimum deposit amount is 1 USDC',
  // Backtest
  selectBot: 'Please select a bot',
  selectDates: 'Please select start and end dates',
  startBeforeEnd: 'Start date must be before end date',
} as const;
