import {
  FAUCET_DEFAULT_SOL,
  getTokenBySymbol,
  SOL_DECIMALS,
  SOLANA_WALLET_TYPES,
  SpecDecimal,
  type TFundWalletResult,
  type TNetwork,
  type TSolanaBalance,
  type TWalletBalance,
  type TWalletStatus,
} from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import type { ChainService, TokenBalance } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';

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
  /** Faucet calls allowed per user within `windowMs`. */
  faucetRateLimit: { max: number; windowMs: number };
  now: () => Date;
}

const SOLANA_TYPES: readonly string[] = SOLANA_WALLET_TYPES;
/** The SPL tokens of the spec's wallet balance, by field. */
const BALANCE_TOKENS = { btc: 'BTC', eth: 'ETH', usdc: 'USDC', usdt: 'USDT' } as const;

/** Base units to a JSON number of whole tokens (decimal.js, never float division). */
export function fromBaseUnits(amount: bigint, decimals: number): number {
  return new SpecDecimal(amount.toString()).div(new SpecDecimal(10).pow(decimals)).toNumber();
}

/** Whole SOL (already validated: positive, at most 9 decimals) to lamports. */
export function solToLamports(amountSol: number): bigint {
  return BigInt(new SpecDecimal(amountSol).times(new SpecDecimal(10).pow(SOL_DECIMALS)).toFixed(0));
}

function canTrade(owner: WalletOwner): boolean {
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

/** Balances and the localnet faucet; every balance is read from the chain, never from the database. */
export function createWalletService(deps: WalletServiceDeps) {
  const { chain, market } = deps;
  const faucetCalls = new Map<string, number[]>();

  /** Counts one faucet call of the user, or refuses it when the window is full. */
  function takeFaucetSlot(userId: string): void {
    const nowMs = deps.now().getTime();
    const since = nowMs - deps.faucetRateLimit.windowMs;
    const recent = (faucetCalls.get(userId) ?? []).filter((at) => at > since);
    if (recent.length >= deps.faucetRateLimit.max) {
      faucetCalls.set(userId, recent);
      throw new AppError('WALLET__FAUCET_RATE_LIMITED');
    }
    recent.push(nowMs);
    faucetCalls.set(userId, recent);
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

    /** POST /wallet/fund: a confirmed SOL airdrop to the connected wallet (test networks only). */
    async fund(owner: WalletOwner, amountSol: number | undefined): Promise<TFundWalletResult> {
      if (deps.network === 'mainnet') throw new AppError('WALLET__FAUCET_MAINNET');
      if (owner.isWatchOnly) throw new AppError('WALLET__WATCH_ONLY');
      const walletAddress = solanaAddressOf(owner);
      const amount = amountSol ?? FAUCET_DEFAULT_SOL;
      takeFaucetSlot(owner.id);
      const signature = await chain.requestAirdrop(walletAddress, solToLamports(amount));
      const { sol_balance } = await solBalanceOf(walletAddress);
      return { wallet_address: walletAddress, amount_sol: amount, signature, sol_balance };
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
