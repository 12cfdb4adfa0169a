import { SOL_DECIMALS, TRADE_MESSAGES, USDC_MINT, WRAPPED_SOL_MINT } from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { AppError, isAppError } from '../../lib/app-error';
import type { ChainService } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';
import type { VenueToken } from './venues/spot-venue';

/** A pair the venue can trade: both tokens exist as mints on the chain. */
export interface TradingPair {
  text: string;
  base: VenueToken;
  quote: VenueToken;
}

/** Pairs as the chain knows them (mints and decimals) and their prices from the market feed. */
export function createPairs(deps: { chain: ChainService; market: MarketService }) {
  const { chain, market } = deps;
  const mintDecimals = new Map<string, number>();

  async function decimalsOnChain(mint: string): Promise<number | undefined> {
    if (mint === WRAPPED_SOL_MINT) return SOL_DECIMALS;
    const known = mintDecimals.get(mint);
    if (known !== undefined) return known;
    const info = await chain.getMintInfo(mint);
    if (!info) return undefined;
    mintDecimals.set(mint, info.decimals);
    return info.decimals;
  }

  /**
   * A Token-2022 mint is refused by name: swaps move SPL Token accounts (its associated accounts,
   * transfer fees and hooks are not handled), so trading it would fail on chain.
   */
  async function refuseToken2022(token: { symbol: string; mint: string | null }): Promise<void> {
    if (!token.mint) return;
    const mint = await chain.getParsedMint(token.mint);
    if (mint?.program === 'spl-token-2022') {
      throw new AppError(
        'TRADING__TOKEN_2022_UNSUPPORTED',
        TRADE_MESSAGES.token2022Unsupported(token.symbol),
      );
    }
  }

  /** 'SOL/USDC', 'BONK/SOL', mints, or a lone base (quoted in USDC). */
  async function resolvePair(symbol: string): Promise<TradingPair> {
    let resolved;
    try {
      resolved = await market.resolvePair(symbol);
    } catch (error) {
      if (isAppError(error) && error.status < 500) {
        throw new AppError('TRADING__PAIR_UNAVAILABLE', TRADE_MESSAGES.pairUnavailable(symbol.trim()));
      }
      throw error;
    }
    const quoteToken = resolved.quote.symbol === 'USD' ? await market.findToken(USDC_MINT) : resolved.quote;
    const text = `${resolved.base.symbol}/${quoteToken?.symbol ?? 'USDC'}`;
    const unavailable = () => new AppError('TRADING__PAIR_UNAVAILABLE', TRADE_MESSAGES.pairUnavailable(text));
    if (!quoteToken?.mint || !resolved.base.mint || resolved.base.mint === quoteToken.mint)
      throw unavailable();
    const [baseDecimals, quoteDecimals] = await Promise.all([
      decimalsOnChain(resolved.base.mint),
      decimalsOnChain(quoteToken.mint),
    ]);
    if (baseDecimals === undefined || quoteDecimals === undefined) {
      await refuseToken2022(baseDecimals === undefined ? resolved.base : quoteToken);
      throw unavailable();
    }
    return {
      text,
      base: { symbol: resolved.base.symbol, mint: resolved.base.mint, decimals: baseDecimals },
      quote: { symbol: quoteToken.symbol, mint: quoteToken.mint, decimals: quoteDecimals },
    };
  }

  async function usdPriceOf(token: VenueToken): Promise<Dec> {
    const marketToken = await market.findToken(token.mint);
    if (!marketToken) throw new AppError('TRADING__PRICE_UNAVAILABLE');
    try {
      return new Dec(await market.getUsdPrice(marketToken));
    } catch (error) {
      if (isAppError(error) && error.status < 500) throw new AppError('TRADING__PRICE_UNAVAILABLE');
      throw error;
    }
  }

  async function midPriceOf(pair: TradingPair): Promise<Dec> {
    const [base, quote] = await Promise.all([usdPriceOf(pair.base), usdPriceOf(pair.quote)]);
    return base.div(quote);
  }

  /** The wallet's holdings of the tokens in play, in base units (SOL: lamports), read from the chain. */
  async function holdingsOf(wallet: string): Promise<{ lamports: bigint; tokens: Map<string, bigint> }> {
    const [lamports, tokenBalances] = await Promise.all([
      chain.getBalance(wallet),
      chain.getTokenBalances(wallet),
    ]);
    const tokens = new Map<string, bigint>();
    for (const [mint, balance] of tokenBalances) tokens.set(mint, balance.amount);
    return { lamports, tokens };
  }

  return { resolvePair, usdPriceOf, midPriceOf, holdingsOf };
}

export type Pairs = ReturnType<typeof createPairs>;
