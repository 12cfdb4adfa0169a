import {
  getTokenByMint,
  getTokenBySymbol,
  shortenAddress,
  SOL_DECIMALS,
  SpecDecimal,
  WRAPPED_SOL_MINT,
  type TPortfolio,
  type TPortfolioToken,
  type TSolanaBalance,
  type TTokenBalance,
  type TWalletBalance,
  type TWalletStatus,
} from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import type { ChainService, TokenBalance } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';
import type { Relay } from '../relay/relay.service';
import { createWalletFaucet, type WalletFaucetDeps } from './wallet-faucet';
import {
  canTrade,
  fromBaseUnits,
  ownWalletOf,
  resolveMint,
  solanaAddressOf,
  type WalletOwner,
} from './wallet-owner';
import { createWalletTransfers } from './wallet-transfers';

export {
  canTrade,
  payoutWalletOf,
  provenWalletOf,
  type WalletOwner,
  type WithdrawalLock,
} from './wallet-owner';
export { unwrapSolInstruction } from './wallet-transfers';

export interface WalletServiceDeps extends WalletFaucetDeps {
  chain: ChainService;
  market: MarketService;
  /** Where built transfers become tickets until POST /trading/execute-signed-transaction sends them. */
  relay: Relay;
  /** How long one token's name or price lookup may take before the portfolio goes on without it. */
  lookupTimeoutMs?: number;
}

/** The SPL tokens of the spec's wallet balance, by field. */
const BALANCE_TOKENS = { btc: 'BTC', eth: 'ETH', usdc: 'USDC', usdt: 'USDT' } as const;
const DEFAULT_LOOKUP_TIMEOUT_MS = 2000;
/** Shown for a mint neither the identity map nor the market knows. */
const UNKNOWN_TOKEN_NAME = 'Unknown token';

/** A USD amount as a JSON number with two decimals. */
function usd(value: SpecDecimal): number {
  return value.toDecimalPlaces(2).toNumber();
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
  const faucet = createWalletFaucet(deps);
  const transfers = createWalletTransfers(deps);
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
    const described = await describeToken(held.mint, true);
    // Wrapped SOL is its own row, 'wSOL', never a second 'SOL': it is SOL held in a token account
    // (left by a delegation, say) and is worth SOL's price until it is unwrapped.
    const { symbol, name, priceUsd } =
      held.mint === WRAPPED_SOL_MINT ? { ...described, symbol: 'wSOL', name: 'Wrapped SOL' } : described;
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

  return {
    fund: faucet.fund,
    transferSol: transfers.transferSol,
    transferToken: transfers.transferToken,
    unwrapSol: transfers.unwrapSol,

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
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
