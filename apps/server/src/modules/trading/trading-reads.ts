import {
  getTokenBySymbol,
  SOL_DECIMALS,
  WRAPPED_SOL_MINT,
  type TOrderBook,
  type TPosition,
  type TSuggestion,
  type TTradable,
} from '@solterm/contracts';
import { buildLadder, Dec, derivePositions, fromBaseUnits, type RfqPricing } from '@solterm/engine';
import { isAppError } from '../../lib/app-error';
import type { Pairs } from './pairs';
import type { TradeRow } from './trading.repository';
import { hundredthsNumber, moneyNumber, priceNumber, quantityNumber } from './trading-wire';
import type { VenueToken } from './venues/spot-venue';

/** Positions from fills, balances and the maker's book: what the trading pages read. */
export function createTradingReads(deps: { pairs: Pairs; pricing?: RfqPricing; now: () => Date }) {
  const { pairs } = deps;

  return {
    /** GET /trading/positions: average-cost positions from the user's fills, marked at the pair's mid. */
    async positions(rows: readonly TradeRow[]): Promise<TPosition[]> {
      const markOf = async (symbol: string) => pairs.midPriceOf(await pairs.resolvePair(symbol));
      const marks = new Map<string, Dec | undefined>();
      for (const symbol of new Set(rows.map((row) => row.symbol))) {
        marks.set(symbol, await markOf(symbol).catch(() => undefined));
      }
      const positions = derivePositions(
        rows.map((row) => ({
          symbol: row.symbol,
          side: row.side as 'Buy' | 'Sell',
          quantity: new Dec(row.quantity),
          price: new Dec(row.price),
          at: row.createdAt.getTime(),
        })),
        (symbol) => marks.get(symbol),
      );
      return positions.map((position) => {
        const [baseSymbol = position.symbol, quoteSymbol = 'USDC'] = position.symbol.split('/');
        return {
          symbol: position.symbol,
          base_symbol: baseSymbol,
          quote_symbol: quoteSymbol,
          side: 'Long' as const,
          size: quantityNumber(position.size),
          average_entry_price: priceNumber(position.averageEntryPrice),
          mark_price: priceNumber(position.markPrice),
          value: moneyNumber(position.value),
          unrealized_pnl: moneyNumber(position.unrealizedPnl),
          pnl_percent: hundredthsNumber(position.pnlPercent),
          realized_pnl: moneyNumber(position.realizedPnl),
        };
      });
    },

    /** POST /trading/suggestion: balances from the chain and the side they allow. */
    async suggestion(wallet: string, symbol: string): Promise<TSuggestion> {
      const pair = await pairs.resolvePair(symbol);
      const [holdings, mid] = await Promise.all([
        pairs.holdingsOf(wallet),
        pairs.midPriceOf(pair).catch(() => undefined),
      ]);
      const amountOf = (token: VenueToken): Dec =>
        token.mint === WRAPPED_SOL_MINT
          ? fromBaseUnits(holdings.lamports, SOL_DECIMALS)
          : fromBaseUnits(holdings.tokens.get(token.mint) ?? 0n, token.decimals);
      const usdc = getTokenBySymbol('USDC')!;
      const balances: Record<string, number> = {
        SOL: quantityNumber(fromBaseUnits(holdings.lamports, SOL_DECIMALS)),
        USDC: quantityNumber(fromBaseUnits(holdings.tokens.get(usdc.mint) ?? 0n, usdc.decimals)),
      };
      balances[pair.base.symbol] = quantityNumber(amountOf(pair.base));
      balances[pair.quote.symbol] = quantityNumber(amountOf(pair.quote));
      // Sell when the base held is worth more than the quote held; otherwise buy.
      const baseValue = mid ? amountOf(pair.base).times(mid) : new Dec(0);
      return {
        symbol: pair.text,
        suggested_side: baseValue.gt(amountOf(pair.quote)) ? 'Sell' : 'Buy',
        available_balances: balances,
        price: mid ? priceNumber(mid) : null,
      };
    },

    /**
     * GET /trading/tradable: whether each pair resolves to two tokens that exist on the configured
     * chain (the same check every order makes), so the web can mark a pair before anyone clicks Buy.
     */
    async tradability(list: readonly string[]): Promise<TTradable> {
      return {
        pairs: await Promise.all(
          list.map(async (pair) => {
            try {
              await pairs.resolvePair(pair);
              return { pair, tradable: true, reason: null };
            } catch (error) {
              if (isAppError(error) && error.status < 500)
                return { pair, tradable: false, reason: error.message };
              throw error;
            }
          }),
        ),
      };
    },

    /** GET /trading/orderbook/{symbol}: the maker's ladder around the market mid. */
    async orderBook(symbol: string): Promise<TOrderBook> {
      const pair = await pairs.resolvePair(symbol);
      const [baseUsd, quoteUsd] = await Promise.all([
        pairs.usdPriceOf(pair.base),
        pairs.usdPriceOf(pair.quote),
      ]);
      const mid = baseUsd.div(quoteUsd);
      const ladder = buildLadder({
        midPrice: mid,
        baseUsdPrice: baseUsd,
        baseDecimals: pair.base.decimals,
        quoteDecimals: pair.quote.decimals,
        pricing: deps.pricing,
      });
      const level = (entry: { price: Dec; amount: Dec }) => ({
        price: priceNumber(entry.price),
        amount: quantityNumber(entry.amount.toDecimalPlaces(pair.base.decimals, Dec.ROUND_DOWN)),
      });
      return {
        symbol: pair.text,
        mid_price: priceNumber(mid),
        spread: priceNumber(ladder.spread),
        buys: ladder.buys.map(level),
        sells: ladder.sells.map(level),
        updated_at: deps.now().toISOString(),
      };
    },
  };
}
