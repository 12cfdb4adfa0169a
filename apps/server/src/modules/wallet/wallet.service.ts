import {
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToCheckedInstruction,
} from '@solana-program/token';
import {
  address,
  createNoopSigner,
  isAddress,
  type Instruction,
  type TransactionPartialSigner,
} from '@solana/kit';
import {
  FAUCET_DEFAULT_SOL,
  FAUCET_DEFAULT_USDC,
  getTokenByMint,
  getTokenBySymbol,
  getTokenDecimals,
  shortenAddress,
  SOL_DECIMALS,
  SOLANA_WALLET_TYPES,
  SpecDecimal,
  USDC_MINT,
  WRAPPED_SOL_MINT,
  type TFundWalletWithUsdcRequest,
  type TFundWalletWithUsdcResult,
  type TNetwork,
  type TPortfolio,
  type TPortfolioToken,
  type TSolanaBalance,
  type TSolTransferRequest,
  type TTokenBalance,
  type TTokenTransferRequest,
  type TTransferTransaction,
  type TWalletBalance,
  type TWalletStatus,
} from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import type { ChainService, TokenBalance } from '../chain/chain.service';
import {
  buildTransaction,
  LAMPORTS_PER_SIGNATURE,
  type BlockhashLifetime,
} from '../chain/transaction-builder';
import type { MarketService } from '../market/market.service';
import type { TicketRegistry } from '../trading/transaction-tickets';
import type { WalletRepository } from './wallet.repository';
import {
  associatedTokenAddress,
  RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS,
  RENT_EXEMPT_WALLET_LAMPORTS,
  tokenLegInstructions,
} from '../chain/token-legs';

/** What the wallet module needs to know about the signed-in user. */
export interface WalletOwner {
  id: string;
  solanaWalletAddress: string | null;
  walletType: string | null;
  isWatchOnly: boolean;
}

export interface WalletServiceDeps {
  chain: ChainService;
  market: MarketService;
  network: TNetwork;
  /** Faucet calls allowed per user (and per wallet address) within `windowMs`. */
  faucetRateLimit: { max: number; windowMs: number };
  /** Where faucet grants are counted: the database, so the limit survives restarts and processes. */
  faucetGrants: Pick<WalletRepository, 'takeFaucetGrant'>;
  now: () => Date;
  /**
   * The mint authority of the cluster's tokens (the embedded cluster's treasury), which the faucet
   * mints USDC with. Absent on an external RPC: the faucet then only airdrops SOL.
   */
  faucetMinter?: TransactionPartialSigner;
  /** Where built transfers are remembered until POST /trading/execute-signed-transaction sends them. */
  tickets: TicketRegistry;
  /** How long one token's name or price lookup may take before the portfolio goes on without it. */
  lookupTimeoutMs?: number;
}

const SOLANA_TYPES: readonly string[] = SOLANA_WALLET_TYPES;
/** The SPL tokens of the spec's wallet balance, by field. */
const BALANCE_TOKENS = { btc: 'BTC', eth: 'ETH', usdc: 'USDC', usdt: 'USDT' } as const;
const USDC_DECIMALS = getTokenDecimals(USDC_MINT);
const DEFAULT_LOOKUP_TIMEOUT_MS = 2000;
/** Shown for a mint neither the identity map nor the market knows. */
const UNKNOWN_TOKEN_NAME = 'Unknown token';

/** Base units to a JSON number of whole tokens (decimal.js, never float division). */
export function fromBaseUnits(amount: bigint, decimals: number): number {
  return new SpecDecimal(amount.toString()).div(new SpecDecimal(10).pow(decimals)).toNumber();
}

/** Whole SOL (already validated: positive, at most 9 decimals) to lamports. */
export function solToLamports(amountSol: number): bigint {
  return BigInt(new SpecDecimal(amountSol).times(new SpecDecimal(10).pow(SOL_DECIMALS)).toFixed(0));
}

/** Whole tokens to base units, rounded down: a transfer never moves more than was asked. */
export function toBaseUnits(amount: number, decimals: number): bigint {
  return BigInt(
    new SpecDecimal(amount).times(new SpecDecimal(10).pow(decimals)).toFixed(0, SpecDecimal.ROUND_DOWN),
  );
}

/** A USD amount as a JSON number with two decimals. */
function usd(value: SpecDecimal): number {
  return value.toDecimalPlaces(2).toNumber();
}

/** A Solana wallet that signs (not watch-only, not an EVM wallet): the only kind that may trade. */
export function canTrade(owner: WalletOwner): boolean {
  return (
    owner.solanaWalletAddress !== null &&
    !owner.isWatchOnly &&
    owner.walletType !== null &&
    SOLANA_TYPES.includes(owner.walletType)
  );
}

/**
 * The connected wallet's address when it is a Solana wallet the portfolio may read: no wallet gives
 * 'No wallet connected. Please connect a wallet first.'; watch-only and EVM wallets give the spec's
 * 'Portfolio data is only available for Solana wallets. …'.
 */
function solanaAddressOf(owner: WalletOwner): string {
  if (!owner.solanaWalletAddress) throw new AppError('WALLET__NOT_CONNECTED');
  if (!canTrade(owner)) throw new AppError('WALLET__SOLANA_ONLY');
  return owner.solanaWalletAddress;
}

/** The connected Solana wallet, refusing an address the client names (`claimed`) that is another one. */
function ownWalletOf(owner: WalletOwner, claimed: string | undefined): string {
  const walletAddress = solanaAddressOf(owner);
  const named = claimed?.trim();
  if (named && named !== walletAddress) {
    throw new AppError(isAddress(named) ? 'WALLET__ADDRESS_MISMATCH' : 'WALLET__ADDRESS_INVALID');
  }
  return walletAddress;
}

/** The wallet that signs faucet requests and transfers: watch-only sessions get the trading refusal. */
function signingWalletOf(owner: WalletOwner): string {
  if (owner.isWatchOnly) throw new AppError('WALLET__WATCH_ONLY');
  return solanaAddressOf(owner);
}

/** A mint address, or a symbol of the identity map (`USDC`, `bonk`) resolved to its mint. */
function resolveMint(mintOrSymbol: string): string {
  const text = mintOrSymbol.trim();
  if (isAddress(text)) return text;
  const known = getTokenBySymbol(text);
  if (!known) throw new AppError('WALLET__MINT_INVALID');
  return known.mint;
}

/**
 * The sender must cover `spend` lamports, and the runtime refuses to leave a wallet holding less
 * than the rent-exempt minimum unless it is emptied completely.
 */
function requireLamports(held: bigint, spend: bigint): void {
  if (spend > held) throw new AppError('WALLET__INSUFFICIENT_BALANCE');
  const remaining = held - spend;
  if (remaining > 0n && remaining < RENT_EXEMPT_WALLET_LAMPORTS) {
    throw new AppError('WALLET__SENDER_BELOW_RENT');
  }
}

/** Resolves to the work's value, or undefined when it fails or takes longer than `ms`. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([work.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface TokenDescription {
  symbol: string | null;
  name: string | null;
  priceUsd: number | null;
}

/** Balances, portfolio, faucet and transfers; every balance is read from the chain, never from the database. */
export function createWalletService(deps: WalletServiceDeps) {
  const { chain, market } = deps;
  const lookupMs = deps.lookupTimeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS;
  /** Records one faucet grant of the user, or refuses it when the window is full. */
  async function takeFaucetGrant(
    userId: string,
    walletAddress: string,
    amounts: { sol: number; usdc: number },
  ): Promise<void> {
    const at = deps.now();
    const granted = await deps.faucetGrants.takeFaucetGrant({
      userId,
      walletAddress,
      amountSol: amounts.sol,
      amountUsdc: amounts.usdc,
      at,
      since: new Date(at.getTime() - deps.faucetRateLimit.windowMs),
      max: deps.faucetRateLimit.max,
    });
    if (!granted) throw new AppError('WALLET__FAUCET_RATE_LIMITED');
  }

  async function solBalanceOf(walletAddress: string): Promise<TSolanaBalance> {
    const lamportsHeld = await chain.getBalance(walletAddress);
    return {
      wallet_address: walletAddress,
      sol_balance: fromBaseUnits(lamportsHeld, SOL_DECIMALS),
      lamports: lamportsHeld.toString(),
    };
  }

  async function usdPrices(): Promise<Record<'sol' | 'btc' | 'eth' | 'usdc' | 'usdt', number>> {
    const [coins, usdc, usdt] = await Promise.all([
      market.getDashboardCoins(),
      market.getPriceTick('USDC'),
      market.getPriceTick('USDT'),
    ]);
    return {
      sol: coins.sol.price,
      btc: coins.btc.price,
      eth: coins.eth.price,
      usdc: usdc.price,
      usdt: usdt.price,
    };
  }

  /**
   * Symbol and name (identity map first, then the market) and USD price of a mint. Each lookup is
   * bounded by `lookupMs` and a failure only leaves its field null: a slow or unknown market entry
   * never fails or stalls a balance read.
   */
  async function describeToken(mint: string, withPrice: boolean): Promise<TokenDescription> {
    const identity = getTokenByMint(mint);
    const [listed, tick] = await Promise.all([
      identity ? undefined : within(market.findToken(mint), lookupMs),
      withPrice ? within(market.getPriceTick(mint), lookupMs) : undefined,
    ]);
    return {
      symbol: identity?.symbol ?? listed?.symbol ?? null,
      name: identity?.name ?? listed?.name ?? null,
      priceUsd: tick ? tick.price : null,
    };
  }

  async function portfolioRow(held: TokenBalance): Promise<{ row: TPortfolioToken; value: SpecDecimal }> {
    const { symbol, name, priceUsd } = await describeToken(held.mint, true);
    const value =
      priceUsd === null
        ? new SpecDecimal(0)
        : new SpecDecimal(held.amount.toString()).div(new SpecDecimal(10).pow(held.decimals)).times(priceUsd);
    return {
      row: {
        symbol: symbol ?? shortenAddress(held.mint),
        name: name ?? UNKNOWN_TOKEN_NAME,
        balance: fromBaseUnits(held.amount, held.decimals),
        decimals: held.decimals,
        price_usd: priceUsd,
        value_usd: usd(value),
        mint_address: held.mint,
      },
      value,
    };
  }

  /** Mints USDC to the recipient with the faucet minter (fee payer too) and waits for confirmation. */
  async function mintUsdc(
    minter: TransactionPartialSigner,
    recipient: string,
    amount: number,
  ): Promise<string> {
    const mint = address(USDC_MINT);
    const token = await associatedTokenAddress(recipient, USDC_MINT);
    // The minter pays the fee and the recipient's token account, and signs as mint authority.
    const built = await buildTransaction({
      feePayer: minter.address,
      instructions: [
        getCreateAssociatedTokenIdempotentInstruction({
          payer: minter,
          ata: token,
          owner: address(recipient),
          mint,
        }),
        getMintToCheckedInstruction({
          mint,
          token,
          mintAuthority: minter,
          amount: toBaseUnits(amount, USDC_DECIMALS),
          decimals: USDC_DECIMALS,
        }),
      ],
      lifetime: await chain.getLatestBlockhash(),
      coSigners: [minter],
    });
    await chain.sendAndConfirm(built.base64, built.signature!);
    return built.signature!;
  }

  interface PreparedTransfer {
    from: string;
    to: string;
    mint: string | null;
    units: bigint;
    decimals: number;
    instructions: Instruction[];
    lifetime: BlockhashLifetime;
  }

  /** Builds the prepared transfer unsigned (the wallet pays the fee) and records it as a ticket. */
  async function issueTransfer(
    owner: WalletOwner,
    prepared: PreparedTransfer,
  ): Promise<TTransferTransaction> {
    const built = await buildTransaction({
      feePayer: address(prepared.from),
      instructions: prepared.instructions,
      lifetime: prepared.lifetime,
    });
    await deps.tickets.register({
      userId: owner.id,
      kind: 'transfer',
      walletAddress: prepared.from,
      messageBytes: built.messageBytes,
      lastValidBlockHeight: built.lastValidBlockHeight,
      payload: {
        to_address: prepared.to,
        mint_address: prepared.mint,
        amount_base_units: prepared.units.toString(),
      },
    });
    return {
      unsigned_transaction: built.base64,
      last_valid_block_height: built.lastValidBlockHeight.toString(),
      from_address: prepared.from,
      to_address: prepared.to,
      mint_address: prepared.mint,
      amount: fromBaseUnits(prepared.units, prepared.decimals),
      size_bytes: built.sizeBytes,
    };
  }

  /** The sender and a valid recipient other than the sender. */
  function transferParties(owner: WalletOwner, toAddress: string): { from: string; to: string } {
    const from = signingWalletOf(owner);
    const to = toAddress.trim();
    if (!isAddress(to)) throw new AppError('WALLET__RECIPIENT_INVALID');
    if (to === from) throw new AppError('WALLET__RECIPIENT_IS_SENDER');
    return { from, to };
  }

  return {
    /** GET /wallet/status: never refuses; reports what is connected and whether it can trade. */
    status(owner: WalletOwner): TWalletStatus {
      return {
        connected: owner.solanaWalletAddress !== null,
        wallet_address: owner.solanaWalletAddress,
        wallet_type: owner.walletType,
        can_trade: canTrade(owner),
      };
    },

    /** GET /wallet/solana-balance and /solana/balance. */
    solanaBalance(owner: WalletOwner): Promise<TSolanaBalance> {
      return solBalanceOf(solanaAddressOf(owner));
    },

    /** GET /wallet/balance: SOL, BTC, ETH, USDC and USDT from the chain, valued at market prices. */
    async balance(owner: WalletOwner): Promise<TWalletBalance> {
      const walletAddress = solanaAddressOf(owner);
      const [lamportsHeld, tokens, prices] = await Promise.all([
        chain.getBalance(walletAddress),
        chain.getTokenBalances(walletAddress),
        usdPrices(),
      ]);
      const tokenAmount = (symbol: string): number => {
        const identity = getTokenBySymbol(symbol);
        const held: TokenBalance | undefined = identity ? tokens.get(identity.mint) : undefined;
        return held ? fromBaseUnits(held.amount, held.decimals) : 0;
      };
      const amounts = {
        sol: fromBaseUnits(lamportsHeld, SOL_DECIMALS),
        btc: tokenAmount(BALANCE_TOKENS.btc),
        eth: tokenAmount(BALANCE_TOKENS.eth),
        usdc: tokenAmount(BALANCE_TOKENS.usdc),
        usdt: tokenAmount(BALANCE_TOKENS.usdt),
      };
      const total = (Object.keys(amounts) as (keyof typeof amounts)[]).reduce(
        (sum, key) => sum.plus(new SpecDecimal(amounts[key]).times(prices[key])),
        new SpecDecimal(0),
      );
      return {
        sol_balance: amounts.sol,
        btc_balance: amounts.btc,
        eth_balance: amounts.eth,
        usdc_balance: amounts.usdc,
        usdt_balance: amounts.usdt,
        total_value_usd: total.toDecimalPlaces(2).toNumber(),
        wallet_address: walletAddress,
      };
    },

    /**
     * GET /wallet/portfolio: native SOL (`sol_balance`, not repeated in `tokens`) and every SPL
     * token with a non-zero balance (wrapped SOL included), largest USD value first. A mint the
     * market cannot price has `price_usd` null and counts 0 toward `total_value_usd`.
     */
    async portfolio(owner: WalletOwner, claimedAddress?: string): Promise<TPortfolio> {
      const walletAddress = ownWalletOf(owner, claimedAddress);
      // Token names and prices are looked up as soon as the token list arrives, alongside the rest.
      const rowsPromise = chain
        .getTokenBalances(walletAddress)
        .then((balances) =>
          Promise.all([...balances.values()].filter((held) => held.amount > 0n).map(portfolioRow)),
        );
      const [lamportsHeld, rows, sol] = await Promise.all([
        chain.getBalance(walletAddress),
        rowsPromise,
        describeToken(WRAPPED_SOL_MINT, true),
      ]);
      const solPrice = sol.priceUsd ?? 0;
      const solValue = new SpecDecimal(lamportsHeld.toString())
        .div(new SpecDecimal(10).pow(SOL_DECIMALS))
        .times(solPrice);
      const total = rows.reduce((sum, { value }) => sum.plus(value), solValue);
      rows.sort((a, b) => b.value.comparedTo(a.value) || a.row.symbol.localeCompare(b.row.symbol));
      return {
        total_value_usd: usd(total),
        sol_balance: fromBaseUnits(lamportsHeld, SOL_DECIMALS),
        sol_price_usd: solPrice,
        wallet_address: walletAddress,
        tokens: rows.map(({ row }) => row),
      };
    },

    /**
     * GET /wallet/token-balance/{wallet}/{mint or symbol} and GET /solana/token-balance: one SPL
     * balance of the connected wallet (0 without a token account). A symbol names its identity-map
     * mint, so `SOL` is wrapped SOL; native SOL is GET /wallet/solana-balance.
     */
    async tokenBalance(
      owner: WalletOwner,
      claimedAddress: string | undefined,
      mintOrSymbol: string,
    ): Promise<TTokenBalance> {
      const walletAddress = ownWalletOf(owner, claimedAddress);
      const mint = resolveMint(mintOrSymbol);
      const [info, balances, description] = await Promise.all([
        chain.getMintInfo(mint),
        chain.getTokenBalances(walletAddress),
        describeToken(mint, false),
      ]);
      if (!info) throw new AppError('WALLET__TOKEN_NOT_FOUND');
      const amount = balances.get(mint)?.amount ?? 0n;
      return {
        wallet_address: walletAddress,
        mint_address: mint,
        symbol: description.symbol,
        balance: fromBaseUnits(amount, info.decimals),
        decimals: info.decimals,
        amount: amount.toString(),
      };
    },

    /**
     * POST /wallet/fund (test networks only): a confirmed SOL airdrop and, on the embedded cluster,
     * USDC minted by the treasury. `amount_usdc` defaults to 1000 where USDC can be minted and to
     * 0 elsewhere, so a plain request still works on an external test cluster; an explicit USDC
     * amount there is refused before anything is sent. One call takes one rate-limit slot.
     */
    async fund(owner: WalletOwner, request: TFundWalletWithUsdcRequest): Promise<TFundWalletWithUsdcResult> {
      if (deps.network === 'mainnet') throw new AppError('WALLET__FAUCET_MAINNET');
      const walletAddress = signingWalletOf(owner);
      const amountSol = request.amount_sol ?? FAUCET_DEFAULT_SOL;
      const minter = deps.faucetMinter;
      const amountUsdc = request.amount_usdc ?? (minter ? FAUCET_DEFAULT_USDC : 0);
      if (amountUsdc > 0 && !minter) throw new AppError('WALLET__FAUCET_UNAVAILABLE');
      await takeFaucetGrant(owner.id, walletAddress, { sol: amountSol, usdc: amountUsdc });
      // The airdrop first: the faucet may refuse it (its reserve), and then nothing is minted either
      // (minting alongside would land USDC, at the treasury's cost, after answering the refusal).
      const signature = await chain.requestAirdrop(walletAddress, solToLamports(amountSol));
      const usdcSignature =
        minter && amountUsdc > 0 ? await mintUsdc(minter, walletAddress, amountUsdc) : null;
      const [{ sol_balance }, tokens] = await Promise.all([
        solBalanceOf(walletAddress),
        chain.getTokenBalances(walletAddress),
      ]);
      const usdc = tokens.get(USDC_MINT);
      return {
        wallet_address: walletAddress,
        amount_sol: amountSol,
        signature,
        sol_balance,
        amount_usdc: usdcSignature ? amountUsdc : 0,
        usdc_signature: usdcSignature,
        usdc_balance: usdc ? fromBaseUnits(usdc.amount, usdc.decimals) : 0,
      };
    },

    /**
     * POST /wallet/transfer and /solana/transfer: an unsigned SOL transfer from the connected wallet.
     * The amount is rounded down to whole lamports; the wallet must cover it plus the network fee.
     */
    async transferSol(owner: WalletOwner, request: TSolTransferRequest): Promise<TTransferTransaction> {
      const { from, to } = transferParties(owner, request.to_address);
      const lamportsToSend = toBaseUnits(request.amount, SOL_DECIMALS);
      if (lamportsToSend < 1n) throw new AppError('WALLET__AMOUNT_TOO_SMALL');
      const [held, recipientHeld, lifetime] = await Promise.all([
        chain.getBalance(from),
        chain.getBalance(to),
        chain.getLatestBlockhash(),
      ]);
      requireLamports(held, lamportsToSend + LAMPORTS_PER_SIGNATURE);
      if (recipientHeld === 0n && lamportsToSend < RENT_EXEMPT_WALLET_LAMPORTS) {
        throw new AppError('WALLET__RECIPIENT_BELOW_RENT');
      }
      return issueTransfer(owner, {
        from,
        to,
        mint: null,
        units: lamportsToSend,
        decimals: SOL_DECIMALS,
        instructions: await tokenLegInstructions({
          token: { mint: WRAPPED_SOL_MINT, decimals: SOL_DECIMALS },
          from: createNoopSigner(address(from)),
          to,
          amount: lamportsToSend,
        }),
        lifetime,
      });
    },

    /**
     * POST /solana/transfer-token: an unsigned SPL transfer (mint address or identity-map symbol)
     * from the wallet's associated token account, creating the recipient's if needed; the wallet
     * pays the fee and, for a new recipient account, its rent.
     */
    async transferToken(owner: WalletOwner, request: TTokenTransferRequest): Promise<TTransferTransaction> {
      const { from, to } = transferParties(owner, request.to_address);
      const mint = resolveMint(request.mint_address);
      const [info, held, tokens, recipientAccountLamports, lifetime] = await Promise.all([
        chain.getMintInfo(mint),
        chain.getBalance(from),
        chain.getTokenBalances(from),
        associatedTokenAddress(to, mint).then((account) => chain.getBalance(account)),
        chain.getLatestBlockhash(),
      ]);
      if (!info) throw new AppError('WALLET__TOKEN_NOT_FOUND');
      const units = toBaseUnits(request.amount, info.decimals);
      if (units < 1n) throw new AppError('WALLET__AMOUNT_TOO_SMALL');
      if (units > (tokens.get(mint)?.amount ?? 0n)) throw new AppError('WALLET__INSUFFICIENT_BALANCE');
      const accountRent = recipientAccountLamports === 0n ? RENT_EXEMPT_TOKEN_ACCOUNT_LAMPORTS : 0n;
      requireLamports(held, LAMPORTS_PER_SIGNATURE + accountRent);
      return issueTransfer(owner, {
        from,
        to,
        mint,
        units,
        decimals: info.decimals,
        // The sender pays the rent of the recipient's token account when it has to be created.
        instructions: await tokenLegInstructions({
          token: { mint, decimals: info.decimals },
          from: createNoopSigner(address(from)),
          to,
          amount: units,
          createRecipientAccount: createNoopSigner(address(from)),
        }),
        lifetime,
      });
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
